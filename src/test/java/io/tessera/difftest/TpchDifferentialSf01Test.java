package io.tessera.difftest;

/** The same TPC-H differential queries as {@link TpchDifferentialTest}, on data of scale factor 0.1. */
class TpchDifferentialSf01Test extends TpchDifferentialTest {
    @Override
    double scaleFactor() {
        return 0.1;
    }
}

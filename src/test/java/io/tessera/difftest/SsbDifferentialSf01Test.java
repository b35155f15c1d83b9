package io.tessera.difftest;

/** The same SSB differential queries as {@link SsbDifferentialTest}, on data of scale factor 0.1. */
class SsbDifferentialSf01Test extends SsbDifferentialTest {
    @Override
    double scaleFactor() {
        return 0.1;
    }
}

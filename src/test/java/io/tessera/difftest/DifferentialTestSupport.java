package io.tessera.difftest;

/** Seeds of the differential runs: fixed by default, overridable to explore ({@code -Dtessera.difftest.seed=N}). */
final class DifferentialTestSupport {

    static final long DEFAULT_DATA_SEED = 20_261_122L;
    static final long DEFAULT_QUERY_SEED = 42L;
    static final int QUERIES = 500;

    private DifferentialTestSupport() {
    }

    static long dataSeed() {
        return Long.getLong("tessera.difftest.dataSeed", DEFAULT_DATA_SEED);
    }

    static long querySeed() {
        return Long.getLong("tessera.difftest.seed", DEFAULT_QUERY_SEED);
    }

    static int queries() {
        return Integer.getInteger("tessera.difftest.queries", QUERIES);
    }
}

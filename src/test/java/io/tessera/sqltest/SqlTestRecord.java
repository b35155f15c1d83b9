package io.tessera.sqltest;

import java.util.List;

/** One record of a {@code .test} file, with the line it starts on (for failure messages). */
sealed interface SqlTestRecord {

    int line();

    /** {@code statement ok} (error null) or {@code statement error <substring>}. */
    record Statement(int line, String sql, String error) implements SqlTestRecord {
    }

    /** {@code query <types> [sort]}: the SQL, the column type letters, and the expected rows as written. */
    record Query(int line, String sql, String types, SortMode sort, List<String> expected) implements SqlTestRecord {
    }

    /** {@code explain} or {@code placement}: a golden block compared line by line, {@code -Dtessera.golden.update}. */
    record Golden(int line, Kind kind, String sql, List<String> expected, int expectedFrom, int expectedTo)
            implements SqlTestRecord {
        enum Kind { EXPLAIN, PLACEMENT }
    }

    /** {@code load tiny <table> (<columns>)} with its rows, or {@code load ssb|tpch <sf>}. */
    record Load(int line, String what, String table, String columns, List<String> rows) implements SqlTestRecord {
    }

    /**
     * The JVM genomes every following query also runs under: {@code genomes default} (none beyond the engine's own
     * choice), {@code genomes covering} (a covering set), or {@code genome dim=value,...} (the default genome of
     * each pipeline with these values where the pipeline has the dimension; {@code fixed} holds them).
     */
    record Genomes(int line, boolean covering, java.util.Map<String, String> fixed) implements SqlTestRecord {
    }

    /** {@code device cpu|gpu}: where the following queries run. */
    record Device(int line, boolean gpu) implements SqlTestRecord {
    }

    /** How a query's rows are ordered before they are compared. */
    enum SortMode {
        /** as the engine returns them (the query orders them). */
        NOSORT,
        /** rows sorted by their text. */
        ROWSORT,
        /** every value sorted on its own, ignoring rows. */
        VALUESORT
    }
}

package io.tessera.backend.cuda.gen;

/**
 * The bytes the Crystal thesis's per-query bandwidth model (chapter 3, its model of SSB Q2.1) charges a kernel:
 * {@code columns}, the cache lines of the scanned columns (a column read behind filters and probes costs a line per
 * selected row until that is more than the whole column); {@code tables}, the join tables the probes read (each once:
 * they stay in L2); {@code results}, a line read and a line written per row that updates a group, and the bytes of the
 * rows a kernel writes out. The selectivities are the planner's estimates.
 */
public record ModelBytes(long columns, long tables, long results) {

    public static final ModelBytes NONE = new ModelBytes(0, 0, 0);

    public long total() {
        return columns + tables + results;
    }

    public ModelBytes plus(ModelBytes o) {
        return new ModelBytes(columns + o.columns, tables + o.tables, results + o.results);
    }
}

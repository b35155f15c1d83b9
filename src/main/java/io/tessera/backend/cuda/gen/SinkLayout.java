package io.tessera.backend.cuda.gen;

import io.tessera.plan.AggFunction;

import java.util.List;

/** What a kernel's sink leaves in device memory, for the executor to allocate before and read back after. */
public sealed interface SinkLayout {

    /** Launches of the kernel, each with its {@link KernelParam.Kind#PASS} parameter set to its number. */
    default int passes() {
        return 1;
    }

    /** What EXPLAIN says about the sink's device layout, or null when the genome says it all. */
    default String describe() {
        return null;
    }

    /** MARKS: the pipeline's rows only mark the rows of join {@code joinId}'s device table; it makes nothing else. */
    record Marks(int joinId) implements SinkLayout {
        @Override
        public String describe() {
            return "marks the rows of j" + joinId + " it matches";
        }
    }

    /**
     * A BUILD: the join table. A cuckoo table with payload takes two passes: the keys, then (every key having
     * stopped moving) the payload at each key's slot. {@code expanded}: a chained table whose pipeline probes a
     * chained table first, so that a row of its input may become several of the table's: each takes the place a
     * counter hands out ({@link KernelParam.Kind#BUILD_CURSOR}), and the executor builds it again with as many
     * places as the counter reached when there were fewer.
     */
    record Build(JoinLayout table, boolean expanded) implements SinkLayout {
        @Override
        public int passes() {
            return table.kind().cuckoo() && !table.payloadTypes().isEmpty() ? 2 : 1;
        }

        @Override
        public String describe() {
            return "j" + table.joinId() + ": " + table.describe() + (expanded ? ", rows placed by a counter" : "")
                    + (passes() > 1 ? "; two launches: keys, then payload" : "");
        }
    }

    /** One aggregate: its value type (null for counts), whether it has a count of its own, its identity value. */
    record Agg(AggFunction function, CType valueType, boolean ownCount) {
        /** The bits the value array starts with: 0 for sums, the largest value for MIN, the smallest for MAX. */
        public long identityBits() {
            if (valueType == null) {
                return 0;
            }
            boolean dbl = valueType == CType.DOUBLE;
            return switch (function) {
                case MIN -> dbl ? Double.doubleToRawLongBits(Double.POSITIVE_INFINITY) : Long.MAX_VALUE;
                case MAX -> dbl ? Double.doubleToRawLongBits(Double.NEGATIVE_INFINITY) : Long.MIN_VALUE;
                default -> 0;
            };
        }
    }

    /**
     * AGGREGATE (one group, {@code mode} "single") or GROUP_AGGREGATE: groups in a dense array ("dense", "wglocal", "independent";
     * key i at {@code mins[i]} with {@code sizes[i]} slots, the last one NULL's) or a global hash table ("shared",
     * {@code keyWidth} 64-bit words per group). The dynamic shared memory of agg=wglocal is the kernel's
     * ({@link CudaKernelSource#sharedBytes}), with the bitmaps bm=shared copies beside the table.
     */
    record Aggregate(String mode, List<Agg> aggs, long[] mins, long[] sizes, long denseSlots, int keyWidth)
            implements SinkLayout {
    }

    /**
     * MATERIALIZE or SORT: rows out, one device array per output column, placed as {@code mode} (the genome's
     * {@code mat}) says: {@link #TILE_ATOMIC}, {@link #TWO_PASS} or {@link #BITMAP}.
     */
    record Rows(List<CType> types, String mode) implements SinkLayout {
        /** One launch: an atomic per tile reserves the tile's rows, a block scan places each (Crystal). */
        public static final String TILE_ATOMIC = "tile-atomic";
        /**
         * Two launches: pass 0 counts each tile's rows; their prefix sum gives each tile its offset; pass 1
         * recomputes the tile and writes its rows there (multi-pass with a prefix sum, Hawk).
         */
        public static final String TWO_PASS = "twopass";
        /**
         * Two launches: pass 0 writes a selection bitmap and each tile's count; pass 1 takes the selection from the
         * bitmap instead of evaluating the filters and probes again, skips the tiles without rows, and probes again
         * only for the payload the outputs read.
         */
        public static final String BITMAP = "bitmap";

        @Override
        public int passes() {
            return mode.equals(TILE_ATOMIC) ? 1 : 2;
        }

        @Override
        public String describe() {
            return switch (mode) {
                case TWO_PASS -> "rows: two launches (tile counts, then the rows at their prefix sums)";
                case BITMAP -> "rows: two launches (selection bitmap and tile counts, then the selected rows)";
                default -> "rows: an atomic per tile";
            };
        }
    }
}

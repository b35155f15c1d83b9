package io.tessera.backend.cuda.gen;

import io.tessera.plan.AggFunction;

import java.util.List;

/** What a kernel's sink leaves in device memory, for the executor to allocate before and read back after. */
public sealed interface SinkLayout {

    /** A BUILD: the join table. */
    record Build(JoinLayout table) implements SinkLayout {
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
     * {@code keyWidth} 64-bit words per group). {@code sharedBytes}: the dynamic shared memory each block needs.
     */
    record Aggregate(String mode, List<Agg> aggs, long[] mins, long[] sizes, long denseSlots, int keyWidth,
                     long sharedBytes) implements SinkLayout {
    }

    /** MATERIALIZE or SORT: rows out, one device array per output column. */
    record Rows(List<CType> types) implements SinkLayout {
    }
}

package io.tessera.plan;

import java.util.List;

/** How a pipeline ends: with a hash table, an aggregate, or materialized (possibly sorted) rows. */
public sealed interface Sink permits Sink.Build, Sink.Aggregate, Sink.GroupAggregate, Sink.Materialize, Sink.Sort,
        Sink.Window, Sink.Marks {

    /** The expressions a sink reads, in the order it loads them. */
    static List<Expr> exprs(Sink sink) {
        List<Expr> out = new java.util.ArrayList<>();
        switch (sink) {
            case Build b -> {
                out.addAll(b.keys());
                out.addAll(b.payload());
            }
            case Aggregate a -> aggExprs(a.aggs(), out);
            case GroupAggregate ga -> {
                out.addAll(ga.keys());
                aggExprs(ga.aggs(), out);
            }
            case Materialize m -> out.addAll(m.outputs());
            case Sort s -> out.addAll(s.outputs());
            case Window w -> out.addAll(w.outputs());
            case Marks m -> {
            }
        }
        return out;
    }

    private static void aggExprs(List<AggCall> aggs, List<Expr> out) {
        for (AggCall a : aggs) {
            if (a.arg() != null) {
                out.add(a.arg());
            }
            if (a.filter() != null) {
                out.add(a.filter());
            }
        }
    }

    /**
     * Builds the hash table of join {@code joinId}. {@code uniqueKeys}: no key occurs twice (so a probe finds at most
     * one row); {@code range}: the known range of a single integer key (null when unknown), which allows a perfect table;
     * {@code commonKeyTypes}: per key, the type both sides are compared in when they differ (DOUBLE, or DECIMAL at a
     * common scale), else null, so that build and probe encode keys alike. {@code keepsNullKeys}: rows with a NULL
     * key are kept too (the preserved side of an outer or anti join, whose unmatched rows a scan reads later); its
     * last key is then TRUE exactly for them and FALSE in every probe, so no probe finds them.
     */
    record Build(int joinId, List<Expr> keys, List<Expr> payload, List<String> payloadNames, boolean uniqueKeys,
                 KeyRange range, double estimatedRows, List<io.tessera.storage.DataType> commonKeyTypes,
                 boolean keepsNullKeys) implements Sink {

        public Build(int joinId, List<Expr> keys, List<Expr> payload, List<String> payloadNames, boolean uniqueKeys,
                     KeyRange range, double estimatedRows, List<io.tessera.storage.DataType> commonKeyTypes) {
            this(joinId, keys, payload, payloadNames, uniqueKeys, range, estimatedRows, commonKeyTypes, false);
        }

        @Override
        public String toString() {
            return "BUILD j" + joinId + " keys " + keys + (uniqueKeys ? " unique" : "")
                    + (range != null ? " range [" + range.min() + ".." + range.max() + "]" : "")
                    + " payload " + payloadNames + (keepsNullKeys ? " with NULL keys" : "");
        }
    }

    /** Aggregates without grouping into one row, relation {@code relationId}. */
    record Aggregate(List<AggCall> aggs, int relationId) implements Sink {
        @Override
        public String toString() {
            return "AGGREGATE " + aggs + " -> r" + relationId;
        }
    }

    /**
     * Aggregates per group into relation {@code relationId} (group keys first, then aggregates). {@code ranges}
     * holds, per key, its known range (null when unknown): when all are known and small, a dense array can hold
     * the groups.
     */
    record GroupAggregate(List<Expr> keys, List<String> keyNames, List<AggCall> aggs, List<KeyRange> ranges,
                          int relationId, double estimatedGroups) implements Sink {
        @Override
        public String toString() {
            return "GROUP_AGGREGATE by " + keys + " " + aggs + " -> r" + relationId;
        }
    }

    /** Writes rows into relation {@code relationId}; skips {@code offset} rows and keeps at most {@code fetch} (-1: all). */
    record Materialize(List<Expr> outputs, List<String> names, long offset, long fetch, int relationId) implements Sink {
        @Override
        public String toString() {
            return "MATERIALIZE " + outputs + (fetch >= 0 ? " limit " + fetch : "") + (offset > 0 ? " offset " + offset : "")
                    + " -> r" + relationId;
        }
    }

    /** Sorts rows into relation {@code relationId}; with {@code fetch} >= 0 it keeps only the top rows (TOP_K). */
    record Sort(List<Expr> outputs, List<String> names, List<SortKey> keys, long offset, long fetch, int relationId)
            implements Sink {
        public boolean isTopK() {
            return fetch >= 0;
        }

        @Override
        public String toString() {
            return (isTopK() ? "TOP_K " + (offset + fetch) + " " : "SORT ") + keys + " of " + outputs + " -> r" + relationId;
        }
    }

    /**
     * Collects the rows ({@code outputs}) and writes them into relation {@code relationId} followed by one column per
     * window function, each computed over the rows of its partition in its order.
     */
    record Window(List<Expr> outputs, List<String> names, List<WindowFunction> functions, int relationId) implements Sink {
        @Override
        public String toString() {
            return "WINDOW " + functions + " of " + outputs + " -> r" + relationId;
        }
    }

    /**
     * Ends a pipeline whose last operation is a MARK probe of join {@code joinId}: its rows only set that table's
     * marks, and nothing flows on.
     */
    record Marks(int joinId) implements Sink {
        @Override
        public String toString() {
            return "MARKS j" + joinId;
        }
    }
}

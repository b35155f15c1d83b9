package io.tessera.plan;

import java.util.List;

/** A step inside a pipeline that neither starts nor ends it. */
public sealed interface Operation permits Operation.Filter, Operation.Probe {

    /** Keeps the row when the condition is TRUE (not FALSE, not NULL). */
    record Filter(Expr condition) implements Operation {
        @Override
        public String toString() {
            return "FILTER " + condition;
        }
    }

    /**
     * Looks the row up in the hash table of join {@code joinId} (built by a BUILD sink of an earlier pipeline).
     * {@code build} describes that table: its keys and payload, whether keys are unique, and its key range.
     * {@code residual}: for semi, anti and left probes, the join's non-equality condition, which a build row with
     * the key must also make TRUE to match (over the probing row's slots and the build row's payload), else null.
     * A keyless join (cross or non-equality join) probes with the constant key 0 into a table whose rows all have it.
     * {@code marks}: an inner or left probe that also marks every build row it matched (an outer join that builds
     * its preserved side: a later {@link Source.JoinTableScan} reads the unmarked rows); a MARK probe always marks.
     * An inner probe that marks checks its residual per build row, as the others do, since only a build row that
     * meets it is matched.
     */
    record Probe(int joinId, List<Expr> keys, JoinKind kind, Sink.Build build, Expr residual, boolean marks)
            implements Operation {
        public Probe {
            if (marks && kind != JoinKind.INNER && kind != JoinKind.LEFT) {
                throw new IllegalArgumentException("a " + kind + " probe does not mark besides");
            }
        }

        public Probe(int joinId, List<Expr> keys, JoinKind kind, Sink.Build build, Expr residual) {
            this(joinId, keys, kind, build, residual, false);
        }

        public Probe(int joinId, List<Expr> keys, JoinKind kind, Sink.Build build) {
            this(joinId, keys, kind, build, null, false);
        }

        /** Whether the probe sets the marks of the build rows it matches. */
        public boolean setsMarks() {
            return marks || kind == JoinKind.MARK;
        }

        @Override
        public String toString() {
            return "PROBE j" + joinId + " " + kind.name().toLowerCase(java.util.Locale.ROOT) + (marks ? " marking" : "")
                    + " on " + keys + (residual != null ? " where " + residual : "");
        }
    }
}

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
     */
    record Probe(int joinId, List<Expr> keys, JoinKind kind, Sink.Build build, Expr residual) implements Operation {
        public Probe(int joinId, List<Expr> keys, JoinKind kind, Sink.Build build) {
            this(joinId, keys, kind, build, null);
        }

        @Override
        public String toString() {
            return "PROBE j" + joinId + " " + kind.name().toLowerCase(java.util.Locale.ROOT) + " on " + keys
                    + (residual != null ? " where " + residual : "");
        }
    }
}

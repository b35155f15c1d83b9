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
     */
    record Probe(int joinId, List<Expr> keys, JoinKind kind, Sink.Build build) implements Operation {
        @Override
        public String toString() {
            return "PROBE j" + joinId + " " + kind.name().toLowerCase(java.util.Locale.ROOT) + " on " + keys;
        }
    }
}

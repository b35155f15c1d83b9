package io.tessera.plan;

/** How a probe treats a row of the probing side. */
public enum JoinKind {
    /** one output row per match. */
    INNER,
    /** the row, once, when a match exists. */
    SEMI,
    /** the row, once, when no match exists (NULL keys never match). */
    ANTI,
    /** one row per match, or the row with NULL payload when none. */
    LEFT,
    /**
     * marks every build row the row matches (its keys, and the residual condition TRUE); the row goes no further:
     * a pipeline whose last probe is a MARK ends in a {@link Sink.Marks}, and a later {@link Source.JoinTableScan}
     * reads the table's marked or unmarked rows (a semi or anti join that builds its outer side).
     */
    MARK
}

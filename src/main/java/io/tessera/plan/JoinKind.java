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
    LEFT
}

package io.tessera.plan;

/** Aggregate functions of GROUP_AGGREGATE and AGGREGATE sinks. */
public enum AggFunction {
    COUNT_STAR, COUNT, SUM, MIN, MAX, AVG,
    /** SUM that gives 0 rather than NULL over no rows. */
    SUM0,
    /** The group's only value; more than one row is an error (a scalar subquery). */
    SINGLE_VALUE,
    /** COUNT(DISTINCT x). */
    COUNT_DISTINCT,
    /** Any one value of the group (Calcite's SINGLE_VALUE on a group known to hold one row). */
    ANY_VALUE
}

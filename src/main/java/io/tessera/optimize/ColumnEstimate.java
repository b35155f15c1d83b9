package io.tessera.optimize;

import io.tessera.storage.Column;

/**
 * What the planner expects of one output column of a relational operator: how many distinct non-null values it
 * holds, which fraction of its rows are NULL, and the stored column its values come from unchanged ({@code origin},
 * null for a computed value), whose statistics describe their distribution; where the column is an aggregate's result,
 * {@code aggregate} describes its values over the groups (else null).
 */
public record ColumnEstimate(double distinct, double nullFraction, Column origin, AggregateValues aggregate) {

    public ColumnEstimate {
        distinct = Math.max(1, distinct);
        nullFraction = Math.min(1, Math.max(0, nullFraction));
    }

    public ColumnEstimate(double distinct, double nullFraction, Column origin) {
        this(distinct, nullFraction, origin, null);
    }

    /** A computed value with this many distinct values and no NULLs known. */
    static ColumnEstimate computed(double distinct) {
        return new ColumnEstimate(distinct, 0, null);
    }

    /** The same values after the rows went from {@code before} to {@code after} without regard to this column. */
    ColumnEstimate thinned(double before, double after) {
        return new ColumnEstimate(Estimates.distinctAfter(distinct, before, after), nullFraction, origin, aggregate);
    }

    ColumnEstimate withDistinct(double d) {
        return new ColumnEstimate(d, nullFraction, origin, aggregate);
    }

    ColumnEstimate withNullFraction(double f) {
        return new ColumnEstimate(distinct, f, origin, aggregate);
    }
}

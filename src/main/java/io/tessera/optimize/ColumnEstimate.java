package io.tessera.optimize;

import io.tessera.storage.Column;

/**
 * What the planner expects of one output column of a relational operator: how many distinct non-null values it
 * holds, which fraction of its rows are NULL, and the stored column its values come from unchanged ({@code origin},
 * null for a computed value), whose statistics describe their distribution; where the column is an aggregate's result,
 * {@code aggregate} describes its values over the groups (else null).
 *
 * <p>{@code domain}: how many values the present ones were drawn from. Rows dropped without regard to the column (a
 * filter on another column, a join on another key) leave fewer distinct values of the same domain; a predicate on
 * the column's own values, or a join on it, narrows the domain to the values left. A join on the column matches a
 * value of one side with one of the other as often as both were drawn from the larger domain: an order key of the
 * lineitem rows of a few parts and one of the orders of two years meet far less often than their distinct counts
 * alone say (Q8).
 */
public record ColumnEstimate(double distinct, double nullFraction, Column origin, AggregateValues aggregate,
                             double domain) {

    public ColumnEstimate {
        distinct = Math.max(1, distinct);
        nullFraction = Math.min(1, Math.max(0, nullFraction));
        domain = Math.max(distinct, domain);
    }

    public ColumnEstimate(double distinct, double nullFraction, Column origin, AggregateValues aggregate) {
        this(distinct, nullFraction, origin, aggregate, distinct);
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
        return new ColumnEstimate(Estimates.distinctAfter(distinct, before, after), nullFraction, origin, aggregate,
                domain);
    }

    /** These values narrowed to {@code d} of them by a predicate on their own values (or a join on them). */
    ColumnEstimate withDistinct(double d) {
        return new ColumnEstimate(d, nullFraction, origin, aggregate);
    }

    /** At most {@code d} of the same values, the domain kept (fewer rows, not a choice among the values). */
    ColumnEstimate capped(double d) {
        return new ColumnEstimate(Math.min(distinct, d), nullFraction, origin, aggregate, domain);
    }

    ColumnEstimate withNullFraction(double f) {
        return new ColumnEstimate(distinct, f, origin, aggregate, domain);
    }
}

package io.tessera.plan;

import io.tessera.storage.DataType;

import java.util.List;

/**
 * One window function of a WINDOW sink, over the columns of the rows the sink collects: its partition columns, its
 * order, its frame and, by kind, the argument column, the offset (LAG, LEAD, NTILE, NTH_VALUE's n) and the default of LAG and LEAD
 * (a column, or a constant in the representation of {@link Expr.Literal}).
 */
public record WindowFunction(Kind kind, int arg, long offset, int defaultColumn, Object defaultValue,
                             List<Integer> partition, List<SortKey> order, Frame frame, DataType type, boolean nullable,
                             String name) {

    public WindowFunction {
        partition = List.copyOf(partition);
        order = List.copyOf(order);
    }

    public enum Kind {
        ROW_NUMBER, RANK, DENSE_RANK, PERCENT_RANK, CUME_DIST, NTILE, LAG, LEAD, FIRST_VALUE, LAST_VALUE, NTH_VALUE,
        COUNT_STAR, COUNT, SUM, SUM0, AVG, MIN, MAX;

        /** Whether the function reads its frame (the others read the partition and the row's position in it). */
        public boolean framed() {
            return switch (this) {
                case FIRST_VALUE, LAST_VALUE, NTH_VALUE, COUNT_STAR, COUNT, SUM, SUM0, AVG, MIN, MAX -> true;
                default -> false;
            };
        }
    }

    public enum BoundKind { UNBOUNDED_PRECEDING, PRECEDING, CURRENT_ROW, FOLLOWING, UNBOUNDED_FOLLOWING }

    /**
     * A frame bound; {@code offset} of n PRECEDING or FOLLOWING: rows for a ROWS frame, else a distance in the
     * representation of the single order key (Long: integers and unscaled decimals at the key's scale, days of a
     * DATE key, Double), or a {@link io.tessera.storage.Interval} over a DATE or TIMESTAMP key.
     */
    public record Bound(BoundKind kind, Object offset) {
        @Override
        public String toString() {
            return switch (kind) {
                case UNBOUNDED_PRECEDING -> "unbounded preceding";
                case PRECEDING -> offset + " preceding";
                case CURRENT_ROW -> "current row";
                case FOLLOWING -> offset + " following";
                case UNBOUNDED_FOLLOWING -> "unbounded following";
            };
        }
    }

    /**
     * The unit a frame's offsets count in: ROWS (positions), RANGE (distances of the single ORDER BY key's values,
     * peers included), GROUPS (peer groups: the rows equal in every ORDER BY key).
     */
    public enum Unit { ROWS, RANGE, GROUPS }

    /**
     * The rows a frame leaves out of itself: none (EXCLUDE NO OTHERS), the current row, the current row's peer
     * group (GROUP), or its peers but not itself (TIES).
     */
    public enum Exclusion {
        NO_OTHERS, CURRENT_ROW, GROUP, TIES;

        @Override
        public String toString() {
            return name().toLowerCase(java.util.Locale.ROOT).replace('_', ' ');
        }
    }

    /** The rows between two bounds in a unit, less those the exclusion names. */
    public record Frame(Unit unit, Bound lower, Bound upper, Exclusion exclude) {

        /** ROWS or RANGE between two bounds, excluding no rows. */
        public Frame(boolean rows, Bound lower, Bound upper) {
            this(rows ? Unit.ROWS : Unit.RANGE, lower, upper, Exclusion.NO_OTHERS);
        }

        public boolean rows() {
            return unit == Unit.ROWS;
        }

        @Override
        public String toString() {
            return unit.name().toLowerCase(java.util.Locale.ROOT) + " between " + lower + " and " + upper
                    + (exclude == Exclusion.NO_OTHERS ? "" : " exclude " + exclude);
        }
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder(kind.name().toLowerCase(java.util.Locale.ROOT)).append('(');
        if (arg >= 0) {
            sb.append('#').append(arg);
        }
        if (kind == Kind.LAG || kind == Kind.LEAD || kind == Kind.NTILE || kind == Kind.NTH_VALUE) {
            sb.append(arg >= 0 ? ", " : "").append(offset);
        }
        if (defaultColumn >= 0) {
            sb.append(", #").append(defaultColumn);
        } else if (defaultValue != null) {
            sb.append(", ").append(new Expr.Literal(defaultValue, type));
        }
        sb.append(") over (");
        if (!partition.isEmpty()) {
            sb.append("partition by ").append(partition.stream().map(c -> "#" + c).toList()).append(' ');
        }
        if (!order.isEmpty()) {
            sb.append("order by ").append(order).append(' ');
        }
        if (kind.framed()) {
            sb.append(frame);
        }
        return sb.toString().trim() + ")";
    }
}

package io.tessera.optimize;

import io.tessera.storage.Column;
import io.tessera.storage.ColumnStats;
import io.tessera.storage.TypeKind;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.util.DateString;
import org.apache.calcite.util.NlsString;

import java.math.BigDecimal;
import java.util.List;
import java.util.function.IntFunction;

/**
 * The fraction of rows a condition keeps, estimated from column statistics: distinct counts for equalities,
 * min and max (and the histograms where a column has them) for ranges, null fractions for NULL tests; AND as a
 * product, OR as the union of independent events, NOT as the complement. What no statistic describes gets the
 * usual default guesses. Used where the sample cannot decide: a condition over a join or an aggregate, or an
 * operator the sample does not evaluate.
 */
final class Selectivity {

    /** An equality on a value nothing is known about. */
    static final double DEFAULT_EQUAL = 0.1;
    /** A range (or an inequality between two columns) nothing is known about. */
    static final double DEFAULT_RANGE = 1.0 / 3;
    /** A LIKE whose pattern does not start with a fixed prefix. */
    static final double DEFAULT_LIKE = 0.1;
    /** Any other condition. */
    static final double DEFAULT_OTHER = 0.25;

    private final IntFunction<ColumnEstimate> columns;
    private final RexBuilder rexBuilder;

    Selectivity(IntFunction<ColumnEstimate> columns, RexBuilder rexBuilder) {
        this.columns = columns;
        this.rexBuilder = rexBuilder;
    }

    double of(RexNode e) {
        return clamp(estimate(e));
    }

    static double clamp(double s) {
        return Double.isNaN(s) ? DEFAULT_OTHER : Math.max(0, Math.min(1, s));
    }

    private double estimate(RexNode e) {
        if (e instanceof RexLiteral l) {
            return Boolean.TRUE.equals(l.getValueAs(Boolean.class)) ? 1 : 0;
        }
        if (!(e instanceof RexCall call)) {
            return e instanceof RexInputRef ? 0.5 : DEFAULT_OTHER;
        }
        List<RexNode> ops = call.getOperands();
        switch (call.getKind()) {
            case AND:
                return conjunction(ops);
            case OR: {
                double none = 1;
                for (RexNode op : ops) {
                    none *= 1 - of(op);
                }
                return 1 - none;
            }
            case NOT:
                return 1 - of(ops.get(0));
            case IS_NULL:
                return nullFraction(ops.get(0));
            case IS_NOT_NULL:
                return 1 - nullFraction(ops.get(0));
            case IS_TRUE:
            case IS_NOT_FALSE:
                return of(ops.get(0));
            case IS_FALSE:
            case IS_NOT_TRUE:
                return 1 - of(ops.get(0));
            case SEARCH:
                return of(RexUtil.expandSearch(rexBuilder, null, call));
            case EQUALS:
            case IS_NOT_DISTINCT_FROM:
                return equality(ops.get(0), ops.get(1));
            case NOT_EQUALS:
            case IS_DISTINCT_FROM:
                return (1 - equality(ops.get(0), ops.get(1))) * (1 - nullFraction(ops.get(0)));
            case LESS_THAN:
            case LESS_THAN_OR_EQUAL:
            case GREATER_THAN:
            case GREATER_THAN_OR_EQUAL:
                return range(call.getKind(), ops.get(0), ops.get(1));
            case LIKE:
                return like(call);
            default:
                return DEFAULT_OTHER;
        }
    }

    /**
     * AND as a product of independent conditions, except for the bounds on one column: those are not independent
     * (a value below 300 is more likely above 100 than a value at random), so the tightest lower and the tightest
     * upper bound count once, as the share of values between them.
     */
    private double conjunction(List<RexNode> ops) {
        java.util.Map<Integer, double[]> bounds = new java.util.LinkedHashMap<>();
        double s = 1;
        for (RexNode op : ops) {
            Bound b = bound(op);
            if (b == null) {
                s *= of(op);
                continue;
            }
            // per column: the least share of a lower bound, the least of an upper bound, and the non-NULL share
            double[] lu = bounds.computeIfAbsent(b.column, c -> new double[] {Double.NaN, Double.NaN, b.nonNull});
            int i = b.lower ? 0 : 1;
            lu[i] = Double.isNaN(lu[i]) ? b.share : Math.min(lu[i], b.share);
        }
        for (double[] lu : bounds.values()) {
            if (Double.isNaN(lu[0]) || Double.isNaN(lu[1])) {
                s *= Double.isNaN(lu[0]) ? lu[1] : lu[0];
            } else {
                // lower = nonNull * (1 - F(lo)), upper = nonNull * F(hi): between = nonNull * (F(hi) - F(lo))
                s *= Math.max(0, lu[0] + lu[1] - lu[2]);
            }
        }
        return s;
    }

    /** A comparison of a column with a constant, estimated from the column's histogram or its min and max. */
    private record Bound(int column, boolean lower, double share, double nonNull) {
    }

    /** {@code e} as a bound on a column with value statistics, else null. */
    private Bound bound(RexNode e) {
        if (!(e instanceof RexCall call) || call.getOperands().size() != 2) {
            return null;
        }
        SqlKind kind = call.getKind();
        if (kind != SqlKind.LESS_THAN && kind != SqlKind.LESS_THAN_OR_EQUAL && kind != SqlKind.GREATER_THAN
                && kind != SqlKind.GREATER_THAN_OR_EQUAL) {
            return null;
        }
        RexInputRef c = column(call.getOperands().get(0));
        RexNode other = call.getOperands().get(1);
        if (c == null) {
            c = column(other);
            other = call.getOperands().get(0);
            kind = kind.reverse();
        }
        if (c == null || !(other instanceof RexLiteral lit)) {
            return null;
        }
        ColumnEstimate col = columns.apply(c.getIndex());
        if (col.origin() == null || raw(lit, col.origin()) == null || !col.origin().stats().hasRange()) {
            return null;
        }
        boolean lower = kind == SqlKind.GREATER_THAN || kind == SqlKind.GREATER_THAN_OR_EQUAL;
        return new Bound(c.getIndex(), lower, rangeOf(col, kind, lit), 1 - col.nullFraction());
    }

    /** The column a value reads, through CASTs, or null. */
    private static RexInputRef column(RexNode e) {
        while (e instanceof RexCall c && c.getKind() == SqlKind.CAST) {
            e = c.getOperands().get(0);
        }
        return e instanceof RexInputRef r ? r : null;
    }

    private double nullFraction(RexNode e) {
        RexInputRef r = column(e);
        return r == null ? 0.05 : columns.apply(r.getIndex()).nullFraction();
    }

    private double equality(RexNode a, RexNode b) {
        RexInputRef ca = column(a);
        RexInputRef cb = column(b);
        if (ca != null && cb != null) {
            return 1 / Math.max(columns.apply(ca.getIndex()).distinct(), columns.apply(cb.getIndex()).distinct());
        }
        RexInputRef c = ca != null ? ca : cb;
        RexNode other = ca != null ? b : a;
        if (c == null) {
            return DEFAULT_EQUAL;
        }
        ColumnEstimate col = columns.apply(c.getIndex());
        double nonNull = 1 - col.nullFraction();
        Object raw = other instanceof RexLiteral lit && col.origin() != null ? raw(lit, col.origin()) : null;
        if (raw != null && col.origin().stats().hasRange()) {
            // the histogram's share of the value, never below what one of the column's (filtered) values holds
            double f = col.origin().stats().fractionEqual(raw);
            return f == 0 ? 0 : nonNull * Math.max(f, Math.min(1, 1 / col.distinct()) * 0.01);
        }
        return nonNull / col.distinct();
    }

    private double range(SqlKind kind, RexNode a, RexNode b) {
        RexInputRef ca = column(a);
        RexInputRef cb = column(b);
        if (ca != null && b instanceof RexLiteral lit) {
            return rangeOf(columns.apply(ca.getIndex()), kind, lit);
        }
        if (cb != null && a instanceof RexLiteral lit) {
            return rangeOf(columns.apply(cb.getIndex()), kind.reverse(), lit);
        }
        return DEFAULT_RANGE;
    }

    /** {@code column kind literal}, from the column's histogram (or its min and max where it has none). */
    private double rangeOf(ColumnEstimate col, SqlKind kind, RexLiteral lit) {
        if (col.aggregate() != null && lit.getValue() instanceof BigDecimal) {
            return aggregateRange(col.aggregate(), kind, lit);
        }
        Column origin = col.origin();
        double nonNull = 1 - col.nullFraction();
        Object raw = origin == null ? null : raw(lit, origin);
        if (raw == null || !origin.stats().hasRange()) {
            return DEFAULT_RANGE * nonNull;
        }
        double fraction = switch (kind) {
            case LESS_THAN -> origin.stats().fractionBelow(raw, false);
            case LESS_THAN_OR_EQUAL -> origin.stats().fractionBelow(raw, true);
            case GREATER_THAN -> 1 - origin.stats().fractionBelow(raw, true);
            default -> 1 - origin.stats().fractionBelow(raw, false);
        };
        return clamp(fraction) * nonNull;
    }

    /** {@code aggregate kind literal}: the share of groups whose aggregate lies on that side of the constant. */
    private static double aggregateRange(AggregateValues aggregate, SqlKind kind, RexLiteral lit) {
        BigDecimal v = lit.getValueAs(BigDecimal.class);
        double raw = aggregate.origin() == null ? v.doubleValue()
                : aggregate.origin().type().kind() == TypeKind.DECIMAL
                ? v.movePointRight(aggregate.origin().type().scale()).doubleValue() : v.doubleValue();
        double fraction = switch (kind) {
            case LESS_THAN -> aggregate.fractionBelow(raw, false);
            case LESS_THAN_OR_EQUAL -> aggregate.fractionBelow(raw, true);
            case GREATER_THAN -> 1 - aggregate.fractionBelow(raw, true);
            default -> 1 - aggregate.fractionBelow(raw, false);
        };
        return clamp(fraction);
    }

    /**
     * A literal as the statistics of {@code column} hold values (Long for the integer kinds, DECIMAL unscaled and
     * DATE as days; Double; String), or null where it is of no comparable kind.
     */
    static Object raw(RexLiteral lit, Column column) {
        Comparable<?> v = lit.getValue();
        if (v == null) {
            return null;
        }
        return switch (column.type().kind()) {
            case VARCHAR -> v instanceof NlsString s ? s.getValue() : null;
            case DOUBLE -> v instanceof BigDecimal d ? (Object) d.doubleValue() : null;
            case DATE -> v instanceof DateString d ? (Object) (long) d.getDaysSinceEpoch() : null;
            case TIMESTAMP, TIMESTAMP_TZ -> v instanceof org.apache.calcite.util.TimestampString t
                    ? (Object) io.tessera.storage.Timestamps.parse(t.toString()) : null;
            case TIME -> v instanceof org.apache.calcite.util.TimeString t
                    ? (Object) io.tessera.storage.Timestamps.parseTime(t.toString()) : null;
            case BOOLEAN -> v instanceof Boolean b ? (Object) (b ? 1L : 0L) : null;
            case DECIMAL -> v instanceof BigDecimal d
                    ? (Object) d.movePointRight(column.type().scale()).setScale(0, java.math.RoundingMode.HALF_UP).longValue() : null;
            default -> v instanceof BigDecimal d ? (Object) d.setScale(0, java.math.RoundingMode.HALF_UP).longValue() : null;
        };
    }

    private double like(RexCall call) {
        boolean negated = call.getOperator().getName().toUpperCase(java.util.Locale.ROOT).startsWith("NOT");
        RexNode pattern = call.getOperands().get(1);
        String p = pattern instanceof RexLiteral l && l.getValue() instanceof NlsString s ? s.getValue() : null;
        double s;
        if (p == null) {
            s = DEFAULT_LIKE;
        } else if (p.indexOf('%') < 0 && p.indexOf('_') < 0) {
            s = equality(call.getOperands().get(0), pattern);
        } else if (p.indexOf('%') > 0 && p.indexOf('_') < 0 && p.indexOf('%') == p.length() - 1) {
            s = prefix(call.getOperands().get(0), p.substring(0, p.length() - 1));
        } else {
            s = DEFAULT_LIKE;
        }
        return negated ? 1 - s : s;
    }

    /** {@code LIKE 'prefix%'}: the histogram's share of strings with the prefix, else a guess that shrinks with it. */
    private double prefix(RexNode value, String prefix) {
        RexInputRef r = column(value);
        ColumnEstimate col = r == null ? null : columns.apply(r.getIndex());
        if (col != null && col.origin() != null && col.origin().type().kind() == TypeKind.VARCHAR
                && col.origin().stats().hasRange()) {
            return (1 - col.nullFraction()) * col.origin().stats().fractionWithPrefix(prefix);
        }
        return Math.max(DEFAULT_LIKE / Math.pow(3, Math.min(4, prefix.length() - 1)), 1e-4);
    }
}

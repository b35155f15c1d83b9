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
            case AND: {
                double s = 1;
                for (RexNode op : ops) {
                    s *= of(op);
                }
                return s;
            }
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
        if (other instanceof RexLiteral lit && col.origin() != null && col.origin().stats().hasRange()) {
            Double v = rawNumber(lit, col.origin());
            ColumnStats st = col.origin().stats();
            if (v != null && col.origin().type().kind() != TypeKind.VARCHAR
                    && (v < ((Number) st.min()).doubleValue() || v > ((Number) st.max()).doubleValue())) {
                return 0; // outside the column's values
            }
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

    /** {@code column kind literal}, interpolated between the column's min and max. */
    private double rangeOf(ColumnEstimate col, SqlKind kind, RexLiteral lit) {
        Column origin = col.origin();
        double nonNull = 1 - col.nullFraction();
        if (origin == null || !origin.stats().hasRange() || origin.type().kind() == TypeKind.VARCHAR
                || origin.type().kind() == TypeKind.BOOLEAN) {
            return DEFAULT_RANGE * nonNull;
        }
        Double v = rawNumber(lit, origin);
        if (v == null) {
            return DEFAULT_RANGE * nonNull;
        }
        double min = ((Number) origin.stats().min()).doubleValue();
        double max = ((Number) origin.stats().max()).doubleValue();
        double width = isIntegral(origin) ? max - min + 1 : max - min;
        if (width <= 0) {
            boolean passes = switch (kind) {
                case LESS_THAN -> min < v;
                case LESS_THAN_OR_EQUAL -> min <= v;
                case GREATER_THAN -> min > v;
                default -> min >= v;
            };
            return passes ? nonNull : 0;
        }
        // the fraction of values below v; an inclusive bound adds one value's share on integral columns
        double below = (v - min) / width;
        double one = isIntegral(origin) ? 1 / width : 0;
        double fraction = switch (kind) {
            case LESS_THAN -> below;
            case LESS_THAN_OR_EQUAL -> below + one;
            case GREATER_THAN -> 1 - below - one;
            default -> 1 - below;
        };
        return clamp(fraction) * nonNull;
    }

    private static boolean isIntegral(Column c) {
        return c.type().kind() != TypeKind.DOUBLE;
    }

    /** A literal in the stored representation of {@code column} (DECIMAL unscaled, DATE days), or null. */
    static Double rawNumber(RexLiteral lit, Column column) {
        Comparable<?> v = lit.getValue();
        if (v instanceof DateString d) {
            return (double) d.getDaysSinceEpoch();
        }
        if (v instanceof BigDecimal d) {
            return column.type().kind() == TypeKind.DECIMAL
                    ? d.movePointRight(column.type().scale()).doubleValue() : d.doubleValue();
        }
        return null;
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
            // a prefix: a few percent of a column's values start with a given short prefix
            s = Math.max(DEFAULT_LIKE / Math.pow(3, Math.min(4, p.length() - 1)), 1e-4);
        } else {
            s = DEFAULT_LIKE;
        }
        return negated ? 1 - s : s;
    }
}

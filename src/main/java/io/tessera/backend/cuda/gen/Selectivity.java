package io.tessera.backend.cuda.gen;

import io.tessera.plan.Expr;
import io.tessera.plan.Op;
import io.tessera.plan.Slot;
import io.tessera.storage.ColumnStats;
import io.tessera.storage.Dictionary;
import io.tessera.storage.TypeKind;

import java.util.function.Function;

/**
 * Estimates the fraction of rows a condition keeps, from what the catalog knows exactly: dictionary sizes and code
 * bounds for strings, min, max and distinct counts for numbers. Used to probe the most selective join first.
 */
final class Selectivity {

    private static final double UNKNOWN = 0.5;

    private final Function<String, Dictionary> dictionaries;

    Selectivity(Function<String, Dictionary> dictionaries) {
        this.dictionaries = dictionaries;
    }

    double of(Expr e) {
        if (!(e instanceof Expr.Call c)) {
            return UNKNOWN;
        }
        return switch (c.op()) {
            case AND -> {
                double[] r = sameColumnRange(c);
                yield r != null ? r[0] : of(c.args().get(0)) * of(c.args().get(1));
            }
            case OR -> Math.min(1, of(c.args().get(0)) + of(c.args().get(1)));
            case NOT -> 1 - of(c.args().get(0));
            case EQ -> equality(c);
            case NE -> 1 - equality(c);
            case LT, LE, GT, GE -> {
                double[] r = range(c);
                yield r == null ? UNKNOWN : Math.max(0, r[1] - r[0]);
            }
            case LIKE -> 0.1;
            default -> UNKNOWN;
        };
    }

    private double equality(Expr.Call c) {
        Slot s = columnOf(c);
        if (s == null) {
            return UNKNOWN;
        }
        if (s.type().kind() == TypeKind.VARCHAR && s.dictionaryKey() != null) {
            try {
                return 1.0 / Math.max(1, dictionaries.apply(s.dictionaryKey()).size());
            } catch (RuntimeException e) {
                return UNKNOWN;
            }
        }
        ColumnStats st = s.origin() == null ? null : s.origin().stats();
        return st == null || st.distinctEstimate() <= 0 ? 0.1 : 1.0 / st.distinctEstimate();
    }

    /** For AND(x >= a, x <= b) on one column: the fraction of the column's domain between a and b. */
    private double[] sameColumnRange(Expr.Call c) {
        if (!(c.args().get(0) instanceof Expr.Call a) || !(c.args().get(1) instanceof Expr.Call b)) {
            return null;
        }
        Slot sa = columnOf(a);
        Slot sb = columnOf(b);
        if (sa == null || !sa.equals(sb)) {
            return null;
        }
        double[] ra = range(a);
        double[] rb = range(b);
        if (ra == null || rb == null) {
            return null;
        }
        return new double[] {Math.max(0, Math.min(ra[1], rb[1]) - Math.max(ra[0], rb[0]))};
    }

    /** The kept part of the column's domain as [from, to] in 0..1, for a comparison with a literal. */
    private double[] range(Expr.Call c) {
        Slot s = columnOf(c);
        if (s == null) {
            return null;
        }
        boolean litRight = c.args().get(1) instanceof Expr.Literal;
        Expr.Literal lit = (Expr.Literal) (litRight ? c.args().get(1) : c.args().get(0));
        Op op = litRight ? c.op() : c.op().mirrored();
        double pos;
        if (s.type().kind() == TypeKind.VARCHAR && s.dictionaryKey() != null && lit.value() != null) {
            Dictionary d;
            try {
                d = dictionaries.apply(s.dictionaryKey());
            } catch (RuntimeException e) {
                return null;
            }
            String v = lit.value().toString();
            int n = Math.max(1, d.size());
            pos = (op == Op.LT || op == Op.GE ? d.lowerBound(v) : d.upperBound(v)) / (double) n;
        } else if (lit.value() instanceof Number num && s.origin() != null && s.origin().stats().hasRange()) {
            ColumnStats st = s.origin().stats();
            double min = st.minLong();
            double max = st.maxLong();
            if (max <= min) {
                return null;
            }
            pos = Math.min(1, Math.max(0, (num.doubleValue() - min) / (max - min)));
        } else {
            return null;
        }
        return op == Op.LT || op == Op.LE ? new double[] {0, pos} : new double[] {pos, 1};
    }

    private static Slot columnOf(Expr.Call c) {
        if (c.args().size() != 2) {
            return null;
        }
        Expr a = c.args().get(0);
        Expr b = c.args().get(1);
        if (a instanceof Expr.Ref r && b instanceof Expr.Literal) {
            return r.slot();
        }
        if (b instanceof Expr.Ref r && a instanceof Expr.Literal) {
            return r.slot();
        }
        return null;
    }
}

package io.tessera.optimize;

import io.tessera.sql.LikePattern;
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
import java.util.regex.Pattern;

/**
 * Evaluates a condition over the rows of a {@link TableSample}, column by column, with SQL's three-valued logic, to
 * count the sampled rows that pass. It knows the operators filters are made of (comparisons, AND, OR, NOT, IS
 * [NOT] NULL, IN lists and ranges, LIKE, arithmetic, SUBSTRING, CASE, CAST between numbers); a condition with
 * anything else is {@link Unsupported}, and the caller estimates it from the statistics instead. Values are
 * compared as doubles or strings, which is exact enough to count rows.
 */
final class SampleFilter {

    /** Thrown for an expression the sample cannot evaluate. */
    static final class Unsupported extends Exception {
        Unsupported() {
            super(null, null, false, false);
        }
    }

    private static final Unsupported UNSUPPORTED = new Unsupported();

    private final TableSample sample;
    private final RexNode[] fieldValues;
    private final RexBuilder rexBuilder;
    private final int n;

    /**
     * @param fieldValues per input field of the condition, its value as an expression over the columns of the
     *                    sampled table (a {@link RexInputRef} numbers a table column there); null where a field is
     *                    not computed from that table alone
     */
    SampleFilter(TableSample sample, RexNode[] fieldValues, RexBuilder rexBuilder) {
        this.sample = sample;
        this.fieldValues = fieldValues;
        this.rexBuilder = rexBuilder;
        this.n = sample.size();
    }

    /** Per sampled row, whether {@code condition} is TRUE for it. */
    boolean[] truth(RexNode condition) throws Unsupported {
        Object[] v = eval(condition);
        boolean[] out = new boolean[n];
        for (int i = 0; i < n; i++) {
            out[i] = Boolean.TRUE.equals(v[i]);
        }
        return out;
    }

    /** Whether the expression being evaluated is a field's value, whose input references number table columns. */
    private boolean overTable;

    private Object[] eval(RexNode e) throws Unsupported {
        if (e instanceof RexInputRef r) {
            if (overTable) {
                return sample.column(r.getIndex());
            }
            RexNode v = r.getIndex() < fieldValues.length ? fieldValues[r.getIndex()] : null;
            if (v == null) {
                throw UNSUPPORTED;
            }
            overTable = true;
            try {
                return eval(v);
            } finally {
                overTable = false;
            }
        }
        if (e instanceof RexLiteral l) {
            Object v = literal(l);
            Object[] out = new Object[n];
            java.util.Arrays.fill(out, v);
            return out;
        }
        if (!(e instanceof RexCall call)) {
            throw UNSUPPORTED;
        }
        List<RexNode> ops = call.getOperands();
        return switch (call.getKind()) {
            case AND -> logic(ops, true);
            case OR -> logic(ops, false);
            case NOT -> map(eval(ops.get(0)), v -> v == null ? null : !(Boolean) v);
            case IS_NULL -> map(eval(ops.get(0)), v -> v == null);
            case IS_NOT_NULL -> map(eval(ops.get(0)), v -> v != null);
            case IS_TRUE -> map(eval(ops.get(0)), Boolean.TRUE::equals);
            case IS_NOT_TRUE -> map(eval(ops.get(0)), v -> !Boolean.TRUE.equals(v));
            case IS_FALSE -> map(eval(ops.get(0)), Boolean.FALSE::equals);
            case IS_NOT_FALSE -> map(eval(ops.get(0)), v -> !Boolean.FALSE.equals(v));
            case EQUALS, NOT_EQUALS, LESS_THAN, LESS_THAN_OR_EQUAL, GREATER_THAN, GREATER_THAN_OR_EQUAL ->
                    compare(call.getKind(), eval(ops.get(0)), eval(ops.get(1)));
            case SEARCH -> eval(RexUtil.expandSearch(rexBuilder, null, call));
            case LIKE -> like(call);
            case PLUS, MINUS, TIMES, DIVIDE -> arithmetic(call.getKind(), eval(ops.get(0)), eval(ops.get(1)));
            case MINUS_PREFIX -> map(eval(ops.get(0)), v -> v == null ? null : -(Double) v);
            case CAST -> cast(call);
            case CASE -> caseWhen(ops);
            case OTHER_FUNCTION -> function(call);
            default -> throw UNSUPPORTED;
        };
    }

    private static Object literal(RexLiteral l) throws Unsupported {
        Comparable<?> v = l.getValue();
        if (v == null) {
            return null;
        }
        if (v instanceof BigDecimal d) {
            return d.doubleValue();
        }
        if (v instanceof NlsString s) {
            return s.getValue();
        }
        if (v instanceof Boolean b) {
            return b;
        }
        if (v instanceof DateString d) {
            return (double) d.getDaysSinceEpoch();
        }
        Object plain = l.getValue2();
        if (plain instanceof Number num) {
            return num.doubleValue();
        }
        if (plain instanceof String s) {
            return s;
        }
        throw UNSUPPORTED;
    }

    private interface ValueFunction {
        Object apply(Object v) throws Unsupported;
    }

    private Object[] map(Object[] in, ValueFunction f) throws Unsupported {
        Object[] out = new Object[n];
        for (int i = 0; i < n; i++) {
            out[i] = f.apply(in[i]);
        }
        return out;
    }

    private Object[] logic(List<RexNode> ops, boolean and) throws Unsupported {
        Object[] acc = null;
        for (RexNode op : ops) {
            Object[] v = eval(op);
            if (acc == null) {
                acc = v.clone();
                continue;
            }
            for (int i = 0; i < n; i++) {
                Object a = acc[i];
                Object b = v[i];
                Boolean dominant = !and;
                if (dominant.equals(a) || dominant.equals(b)) {
                    acc[i] = dominant;
                } else if (a == null || b == null) {
                    acc[i] = null;
                } else {
                    acc[i] = and;
                }
            }
        }
        return acc;
    }

    private Object[] compare(SqlKind kind, Object[] a, Object[] b) throws Unsupported {
        Object[] out = new Object[n];
        for (int i = 0; i < n; i++) {
            if (a[i] == null || b[i] == null) {
                continue;
            }
            int c = compareValues(a[i], b[i]);
            out[i] = switch (kind) {
                case EQUALS -> c == 0;
                case NOT_EQUALS -> c != 0;
                case LESS_THAN -> c < 0;
                case LESS_THAN_OR_EQUAL -> c <= 0;
                case GREATER_THAN -> c > 0;
                default -> c >= 0;
            };
        }
        return out;
    }

    private static int compareValues(Object a, Object b) throws Unsupported {
        if (a instanceof Double x && b instanceof Double y) {
            return Double.compare(x, y);
        }
        if (a instanceof String x && b instanceof String y) {
            return x.compareTo(y);
        }
        if (a instanceof Boolean x && b instanceof Boolean y) {
            return Boolean.compare(x, y);
        }
        throw UNSUPPORTED;
    }

    private Object[] like(RexCall call) throws Unsupported {
        List<RexNode> ops = call.getOperands();
        if (!(ops.get(1) instanceof RexLiteral p) || p.getValueAs(String.class) == null) {
            throw UNSUPPORTED;
        }
        Character escape = null;
        if (ops.size() > 2) {
            String e = ops.get(2) instanceof RexLiteral el ? el.getValueAs(String.class) : null;
            if (e == null || e.length() != 1) {
                throw UNSUPPORTED;
            }
            escape = e.charAt(0);
        }
        Pattern pattern;
        try {
            pattern = Pattern.compile(LikePattern.toRegex(p.getValueAs(String.class), escape), Pattern.DOTALL);
        } catch (RuntimeException invalid) {
            throw UNSUPPORTED;
        }
        boolean negated = call.getOperator().getName().toUpperCase(java.util.Locale.ROOT).startsWith("NOT");
        // sampled strings repeat (TPC-H's p_type: 150 values in 2,048 rows): each distinct one is matched once
        java.util.Map<String, Boolean> matched = new java.util.HashMap<>();
        return map(eval(ops.get(0)), v -> {
            if (v == null) {
                return null;
            }
            if (!(v instanceof String s)) {
                throw UNSUPPORTED;
            }
            return matched.computeIfAbsent(s, x -> pattern.matcher(x).matches()) != negated;
        });
    }

    private Object[] arithmetic(SqlKind kind, Object[] a, Object[] b) throws Unsupported {
        Object[] out = new Object[n];
        for (int i = 0; i < n; i++) {
            if (a[i] == null || b[i] == null) {
                continue;
            }
            if (!(a[i] instanceof Double x) || !(b[i] instanceof Double y)) {
                throw UNSUPPORTED;
            }
            out[i] = switch (kind) {
                case PLUS -> x + y;
                case MINUS -> x - y;
                case TIMES -> x * y;
                default -> y == 0 ? null : x / y;
            };
        }
        return out;
    }

    private Object[] cast(RexCall call) throws Unsupported {
        Object[] v = eval(call.getOperands().get(0));
        boolean toNumber = switch (call.getType().getSqlTypeName()) {
            case TINYINT, SMALLINT, INTEGER, BIGINT, DECIMAL, DOUBLE, FLOAT, REAL -> true;
            default -> false;
        };
        boolean toText = call.getType().getSqlTypeName() == org.apache.calcite.sql.type.SqlTypeName.VARCHAR
                || call.getType().getSqlTypeName() == org.apache.calcite.sql.type.SqlTypeName.CHAR;
        return map(v, x -> {
            if (x == null || (toNumber && x instanceof Double) || (toText && x instanceof String)) {
                return x;
            }
            throw UNSUPPORTED;
        });
    }

    private Object[] caseWhen(List<RexNode> ops) throws Unsupported {
        Object[] out = eval(ops.get(ops.size() - 1)).clone();
        boolean[] decided = new boolean[n];
        for (int w = 0; w + 1 < ops.size(); w += 2) {
            Object[] cond = eval(ops.get(w));
            Object[] then = eval(ops.get(w + 1));
            for (int i = 0; i < n; i++) {
                if (!decided[i] && Boolean.TRUE.equals(cond[i])) {
                    out[i] = then[i];
                    decided[i] = true;
                }
            }
        }
        return out;
    }

    private Object[] function(RexCall call) throws Unsupported {
        String name = call.getOperator().getName().toUpperCase(java.util.Locale.ROOT);
        List<RexNode> ops = call.getOperands();
        if ((name.equals("SUBSTRING") || name.equals("SUBSTR")) && ops.size() >= 2) {
            Object[] s = eval(ops.get(0));
            Object[] from = eval(ops.get(1));
            Object[] len = ops.size() > 2 ? eval(ops.get(2)) : null;
            Object[] out = new Object[n];
            for (int i = 0; i < n; i++) {
                if (s[i] == null || from[i] == null || (len != null && len[i] == null)) {
                    continue;
                }
                if (!(s[i] instanceof String str) || !(from[i] instanceof Double f)) {
                    throw UNSUPPORTED;
                }
                int start = Math.max(0, f.intValue() - 1);
                int end = len == null ? str.length() : (int) Math.min(str.length(), start + Math.max(0, (Double) len[i]));
                out[i] = start >= str.length() ? "" : str.substring(start, Math.max(start, end));
            }
            return out;
        }
        throw UNSUPPORTED;
    }
}

package io.tessera.difftest;

import io.tessera.api.QueryResult;
import io.tessera.api.ResultColumn;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;

/**
 * Compares two query results (the reference's and the engine's) the way a differential test needs:
 *
 * <ul>
 *   <li>without a top-level ORDER BY, as multisets (both sorted by a canonical row order);
 *   <li>with one, in order, except that rows whose ORDER BY keys tie may come in any order: each run of tied keys
 *       in the reference is compared as a multiset; with a LIMIT or OFFSET, which may cut through the first and
 *       the last run of ties, only the keys of those two runs are compared;
 *   <li>DOUBLE within a relative 1e-9 or an absolute 1e-9 (for values near 0); a DOUBLE against a DECIMAL of
 *       scale s also within 10^-s (engines differ in whether AVG or a division of DECIMALs is DOUBLE or DECIMAL);
 *   <li>integers and DECIMALs exactly by numeric value, whatever the Java kind (Integer, Long, BigInteger,
 *       BigDecimal of any scale);
 *   <li>NULL equals only NULL.
 * </ul>
 */
public final class ResultComparator {

    public static final double DEFAULT_RELATIVE = 1e-9;
    public static final double DEFAULT_ABSOLUTE = 1e-9;
    private static final int SHOW = 5;

    private final double relative;
    private final double absolute;

    public ResultComparator() {
        this(DEFAULT_RELATIVE, DEFAULT_ABSOLUTE);
    }

    public ResultComparator(double relative, double absolute) {
        this.relative = relative;
        this.absolute = absolute;
    }

    /** Null when the results agree, else a description of the first differences (without the SQL). */
    public String compare(String sql, QueryResult expected, QueryResult actual) {
        List<String> names = expected.columns().stream().map(ResultColumn::name).toList();
        return compare(OrderBySpec.of(sql, names), expected.columns().size(), expected.rows(),
                actual.columns().size(), actual.rows());
    }

    /** Null when the row lists agree under {@code order}, else a description of the first differences. */
    public String compare(OrderBySpec order, int expectedWidth, List<Object[]> expected, int actualWidth,
                          List<Object[]> actual) {
        if (expectedWidth != actualWidth) {
            return "column counts differ: expected " + expectedWidth + ", actual " + actualWidth
                    + firstRows(expected, actual);
        }
        if (expected.size() != actual.size()) {
            String detail = multisetDiff(expected, actual);
            return "row counts differ: expected " + expected.size() + ", actual " + actual.size()
                    + (detail != null ? "\n" + detail : firstRows(expected, actual));
        }
        if (!order.ordered()) {
            return multisetDiff(expected, actual);
        }
        List<Integer> keys = order.keys();
        int n = expected.size();
        int start = 0;
        while (start < n) {
            int end = start + 1;
            while (end < n && tied(expected.get(start), expected.get(end), keys)) {
                end++;
            }
            List<Object[]> e = expected.subList(start, end);
            List<Object[]> a = actual.subList(start, end);
            boolean cutByLimit = (start == 0 || end == n) && order.limited() && order.allKeysResolved()
                    && !keys.isEmpty();
            if (cutByLimit) {
                for (int i = 0; i < a.size(); i++) {
                    Object[] row = a.get(i);
                    if (e.stream().noneMatch(x -> keysEqual(x, row, keys))) {
                        return "row " + (start + i) + " (in a run of tied ORDER BY keys that LIMIT/OFFSET may cut)"
                                + " has other keys\n  expected: " + format(e.get(Math.min(i, e.size() - 1)))
                                + "\n  actual:   " + format(a.get(i));
                    }
                }
            } else if (end - start == 1) {
                if (!rowsEqual(e.get(0), a.get(0))) {
                    return "row " + start + " differs" + cellDiff(e.get(0), a.get(0))
                            + "\n  expected: " + format(e.get(0)) + "\n  actual:   " + format(a.get(0))
                            + context(expected, actual, start);
                }
            } else {
                String d = multisetDiff(e, a);
                if (d != null) {
                    return "rows " + start + ".." + (end - 1) + " (tied on the ORDER BY keys " + keyNames(keys)
                            + ") differ as multisets\n" + d;
                }
            }
            start = end;
        }
        return null;
    }

    private static String keyNames(List<Integer> keys) {
        return keys.stream().map(k -> "#" + (k + 1)).toList().toString();
    }

    private boolean keysEqual(Object[] a, Object[] b, List<Integer> keys) {
        for (int k : keys) {
            if (k >= a.length || k >= b.length || !valuesEqual(a[k], b[k])) {
                return false;
            }
        }
        return true;
    }

    /**
     * Whether two rows of the reference are in one run of ties: their keys are equal up to the first floating
     * key. Floating keys equal within the tolerance may differ in their last bits between engines (a sum in
     * another order) and so order their rows either way: the keys after one do not split a run. With LIMIT or
     * OFFSET too: a run inside the result compares as a multiset, and in a run the cut may split each row's keys
     * must be those of some row of the reference's run (which of two nearly tied rows is kept is the engine's
     * choice).
     */
    private boolean tied(Object[] a, Object[] b, List<Integer> keys) {
        for (int k : keys) {
            if (k >= a.length || k >= b.length || !valuesEqual(a[k], b[k])) {
                return false;
            }
            if (floatingValue(a[k]) || floatingValue(b[k])) {
                return true;
            }
        }
        return true;
    }

    private static boolean floatingValue(Object v) {
        return v instanceof Double || v instanceof Float;
    }

    public boolean rowsEqual(Object[] a, Object[] b) {
        if (a.length != b.length) {
            return false;
        }
        for (int i = 0; i < a.length; i++) {
            if (!valuesEqual(a[i], b[i])) {
                return false;
            }
        }
        return true;
    }

    /** Null when equal as multisets; else the rows missing on either side. */
    private String multisetDiff(List<Object[]> expected, List<Object[]> actual) {
        List<Object[]> e = new ArrayList<>(expected);
        List<Object[]> a = new ArrayList<>(actual);
        e.sort(CANONICAL);
        a.sort(CANONICAL);
        if (e.size() == a.size()) {
            boolean same = true;
            for (int i = 0; i < e.size() && same; i++) {
                same = rowsEqual(e.get(i), a.get(i));
            }
            if (same) {
                return null;
            }
        }
        // tolerant values may sort differently: match each expected row with any equal actual row
        boolean[] used = new boolean[a.size()];
        List<Object[]> missing = new ArrayList<>();
        int from = 0;
        for (Object[] row : e) {
            int found = -1;
            for (int j = from; j < a.size(); j++) {
                if (!used[j] && rowsEqual(row, a.get(j))) {
                    found = j;
                    break;
                }
            }
            if (found < 0) {
                for (int j = 0; j < from && found < 0; j++) {
                    if (!used[j] && rowsEqual(row, a.get(j))) {
                        found = j;
                    }
                }
            }
            if (found < 0) {
                missing.add(row);
            } else {
                used[found] = true;
                while (from < a.size() && used[from]) {
                    from++;
                }
            }
        }
        List<Object[]> extra = new ArrayList<>();
        for (int j = 0; j < a.size(); j++) {
            if (!used[j]) {
                extra.add(a.get(j));
            }
        }
        if (missing.isEmpty() && extra.isEmpty()) {
            return null;
        }
        StringBuilder sb = new StringBuilder();
        sb.append("  ").append(missing.size()).append(" expected row(s) not in the actual result");
        for (int i = 0; i < Math.min(SHOW, missing.size()); i++) {
            sb.append("\n    expected: ").append(format(missing.get(i)));
        }
        sb.append("\n  ").append(extra.size()).append(" actual row(s) not in the expected result");
        for (int i = 0; i < Math.min(SHOW, extra.size()); i++) {
            sb.append("\n    actual:   ").append(format(extra.get(i)));
        }
        return sb.toString();
    }

    private static String context(List<Object[]> expected, List<Object[]> actual, int at) {
        StringBuilder sb = new StringBuilder();
        int to = Math.min(expected.size(), at + SHOW);
        if (to > at + 1) {
            sb.append("\n  next rows:");
            for (int i = at + 1; i < to; i++) {
                sb.append("\n    ").append(i).append(" expected: ").append(format(expected.get(i)))
                        .append("\n    ").append(i).append(" actual:   ").append(format(actual.get(i)));
            }
        }
        return sb.toString();
    }

    private static String firstRows(List<Object[]> expected, List<Object[]> actual) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < Math.min(SHOW, expected.size()); i++) {
            sb.append("\n  expected[").append(i).append("]: ").append(format(expected.get(i)));
        }
        for (int i = 0; i < Math.min(SHOW, actual.size()); i++) {
            sb.append("\n  actual[").append(i).append("]:   ").append(format(actual.get(i)));
        }
        return sb.toString();
    }

    private String cellDiff(Object[] e, Object[] a) {
        for (int i = 0; i < Math.min(e.length, a.length); i++) {
            if (!valuesEqual(e[i], a[i])) {
                return " in column " + (i + 1) + ": expected " + describe(e[i]) + ", actual " + describe(a[i]);
            }
        }
        return "";
    }

    private static String describe(Object v) {
        return v == null ? "NULL" : formatValue(v) + " (" + v.getClass().getSimpleName() + ")";
    }

    public static String format(Object[] row) {
        StringBuilder sb = new StringBuilder("[");
        for (int i = 0; i < row.length; i++) {
            sb.append(i == 0 ? "" : ", ").append(formatValue(row[i]));
        }
        return sb.append(']').toString();
    }

    static String formatValue(Object v) {
        if (v == null) {
            return "NULL";
        }
        if (v instanceof String s) {
            return "'" + s + "'";
        }
        if (v instanceof BigDecimal b) {
            return b.toPlainString();
        }
        return v.toString();
    }

    // ---------------------------------------------------------------- values

    /** Value equality of the differential tests (see the class comment). */
    public boolean valuesEqual(Object a, Object b) {
        if (a == null || b == null) {
            return a == null && b == null;
        }
        a = normalize(a);
        b = normalize(b);
        if (a instanceof Number x && b instanceof Number y) {
            if (isFloating(x) || isFloating(y)) {
                double dx = x.doubleValue();
                double dy = y.doubleValue();
                if (Double.isNaN(dx) || Double.isNaN(dy)) {
                    return Double.isNaN(dx) && Double.isNaN(dy);
                }
                if (Double.isInfinite(dx) || Double.isInfinite(dy)) {
                    return dx == dy;
                }
                double tol = Math.max(absolute, relative * Math.max(Math.abs(dx), Math.abs(dy)));
                BigDecimal dec = x instanceof BigDecimal bx ? bx : y instanceof BigDecimal by ? by : null;
                if (dec != null && dec.scale() > 0) {
                    tol = Math.max(tol, Math.pow(10, -dec.scale()));
                }
                return Math.abs(dx - dy) <= tol;
            }
            return toBigDecimal(x).compareTo(toBigDecimal(y)) == 0;
        }
        return a.equals(b);
    }

    private static Object normalize(Object v) {
        if (v instanceof java.sql.Date d) {
            return d.toLocalDate();
        }
        if (v instanceof Character c) {
            return c.toString();
        }
        return v;
    }

    private static boolean isFloating(Number n) {
        return n instanceof Double || n instanceof Float;
    }

    static BigDecimal toBigDecimal(Number n) {
        if (n instanceof BigDecimal b) {
            return b;
        }
        if (n instanceof BigInteger b) {
            return new BigDecimal(b);
        }
        if (isFloating(n)) {
            return BigDecimal.valueOf(n.doubleValue());
        }
        return BigDecimal.valueOf(n.longValue());
    }

    private static int rank(Object v) {
        if (v == null) {
            return 0;
        }
        if (v instanceof Boolean) {
            return 1;
        }
        if (v instanceof Number) {
            return 2;
        }
        if (v instanceof LocalDate || v instanceof java.sql.Date) {
            return 3;
        }
        if (v instanceof String) {
            return 4;
        }
        return 5;
    }

    /** A total order over values of every kind, used to sort rows canonically; numbers compare by value. */
    @SuppressWarnings({"unchecked", "rawtypes"})
    static int compareValues(Object a, Object b) {
        int ra = rank(a);
        int rb = rank(b);
        if (ra != rb) {
            return Integer.compare(ra, rb);
        }
        if (a == null) {
            return 0;
        }
        a = normalize(a);
        b = normalize(b);
        if (a instanceof Number x && b instanceof Number y) {
            if (isFloating(x) || isFloating(y)) {
                return Double.compare(x.doubleValue(), y.doubleValue());
            }
            return toBigDecimal(x).compareTo(toBigDecimal(y));
        }
        if (a instanceof Comparable ca && a.getClass() == b.getClass()) {
            return ca.compareTo(b);
        }
        return Objects.toString(a).compareTo(Objects.toString(b));
    }

    static final Comparator<Object[]> CANONICAL = (x, y) -> {
        for (int i = 0; i < Math.min(x.length, y.length); i++) {
            int c = compareValues(x[i], y[i]);
            if (c != 0) {
                return c;
            }
        }
        return Integer.compare(x.length, y.length);
    };
}

package io.tessera.bench;

import io.tessera.api.QueryResult;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * Whether two results of one query hold the same rows: as multisets (row order is compared only through the
 * query's ORDER BY, which both engines apply, and ties may come out in either order), with DOUBLE values equal
 * within a relative 1e-9 (sums added in another order differ in the last bits).
 */
public final class ResultMatch {
    private ResultMatch() {
    }

    /** Null when the results match, else the first difference. */
    public static String difference(QueryResult expected, QueryResult actual) {
        if (expected.columns().size() != actual.columns().size()) {
            return "column counts differ: " + expected.columns().size() + " vs " + actual.columns().size();
        }
        if (expected.rowCount() != actual.rowCount()) {
            return "row counts differ: " + expected.rowCount() + " vs " + actual.rowCount();
        }
        List<Object[]> a = sorted(expected.rows());
        List<Object[]> b = sorted(actual.rows());
        for (int r = 0; r < a.size(); r++) {
            for (int c = 0; c < a.get(r).length; c++) {
                if (!same(a.get(r)[c], b.get(r)[c])) {
                    return "row " + r + " column " + expected.columns().get(c).name() + ": " + a.get(r)[c] + " vs " + b.get(r)[c];
                }
            }
        }
        return null;
    }

    /**
     * Null when the results match as multisets and, row by row, hold the same values in the columns the query
     * orders by ({@code orderColumns}: ties may come out in either order, the order itself may not differ), else the
     * first difference.
     */
    public static String difference(QueryResult expected, QueryResult actual, int[] orderColumns) {
        String diff = difference(expected, actual);
        if (diff != null) {
            return diff;
        }
        for (int r = 0; r < expected.rowCount(); r++) {
            for (int c : orderColumns) {
                Object x = expected.rows().get(r)[c];
                Object y = actual.rows().get(r)[c];
                if (!same(x, y)) {
                    return "row " + r + " out of the ORDER BY's order: column " + expected.columns().get(c).name() + " is "
                            + y + " where " + x + " belongs";
                }
            }
        }
        return null;
    }

    private static List<Object[]> sorted(List<Object[]> rows) {
        List<Object[]> out = new ArrayList<>(rows);
        out.sort(Comparator.comparing(ResultMatch::key));
        return out;
    }

    /** A sort key in which nearly equal doubles compare alike (10 significant digits). */
    private static String key(Object[] row) {
        StringBuilder sb = new StringBuilder();
        for (Object v : row) {
            sb.append(v instanceof Double d ? String.format(Locale.ROOT, "%.9e", d) : String.valueOf(v)).append('\u0001');
        }
        return sb.toString();
    }

    private static boolean same(Object x, Object y) {
        if (x == null || y == null) {
            return x == y;
        }
        if (x instanceof Double dx && y instanceof Double dy) {
            return dx.equals(dy) || Math.abs(dx - dy) <= 1e-9 * Math.max(Math.abs(dx), Math.abs(dy));
        }
        if (x instanceof BigDecimal bx && y instanceof BigDecimal by) {
            return bx.compareTo(by) == 0;
        }
        return x.equals(y);
    }
}

package io.tessera.spark;

import io.tessera.api.QueryResult;
import org.apache.spark.sql.Row;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Rows of Spark and of DuckDB in one comparable form: every exact number as a BigDecimal without trailing zeros,
 * doubles as doubles (equal within a relative 1e-9), dates as LocalDate, the rest as they are.
 */
final class Rows {

    private Rows() {
    }

    static List<List<Object>> of(List<Row> rows) {
        List<List<Object>> out = new ArrayList<>();
        for (Row r : rows) {
            List<Object> row = new ArrayList<>();
            for (int i = 0; i < r.length(); i++) {
                row.add(value(r.get(i)));
            }
            out.add(row);
        }
        return out;
    }

    static List<List<Object>> of(QueryResult result) {
        List<List<Object>> out = new ArrayList<>();
        for (Object[] r : result.rows()) {
            List<Object> row = new ArrayList<>();
            for (Object v : r) {
                row.add(value(v));
            }
            out.add(row);
        }
        return out;
    }

    private static Object value(Object v) {
        return switch (v) {
            case null -> null;
            case Integer i -> BigDecimal.valueOf(i);
            case Long l -> BigDecimal.valueOf(l);
            case Short s -> BigDecimal.valueOf(s);
            case Byte b -> BigDecimal.valueOf(b);
            case BigInteger b -> new BigDecimal(b);
            case BigDecimal d -> d.signum() == 0 ? BigDecimal.ZERO : d.stripTrailingZeros();
            case java.sql.Date d -> d.toLocalDate();
            default -> v;
        };
    }

    /**
     * Null when both hold the same rows (in order when {@code ordered}, else as multisets), else the first difference.
     */
    static String difference(List<List<Object>> expected, List<List<Object>> actual, boolean ordered) {
        if (expected.size() != actual.size()) {
            return "row counts differ: expected " + expected.size() + ", got " + actual.size();
        }
        List<List<Object>> e = new ArrayList<>(expected);
        List<List<Object>> a = new ArrayList<>(actual);
        if (!ordered) {
            e.sort((x, y) -> key(x).compareTo(key(y)));
            a.sort((x, y) -> key(x).compareTo(key(y)));
        }
        for (int r = 0; r < e.size(); r++) {
            List<Object> x = e.get(r);
            List<Object> y = a.get(r);
            if (x.size() != y.size()) {
                return "row " + r + ": " + x.size() + " columns expected, got " + y.size();
            }
            for (int c = 0; c < x.size(); c++) {
                if (!same(x.get(c), y.get(c))) {
                    return "row " + r + " column " + c + ": expected " + x + ", got " + y;
                }
            }
        }
        return null;
    }

    private static String key(List<Object> row) {
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
        return x.equals(y);
    }
}

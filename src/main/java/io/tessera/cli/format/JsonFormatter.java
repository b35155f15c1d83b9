package io.tessera.cli.format;

import io.tessera.api.ResultColumn;
import io.tessera.exec.JsonStrings;

import java.io.PrintWriter;
import java.util.List;

/**
 * A JSON array with one object per row, keys in column order, one row per line. Numbers are JSON numbers in
 * plain notation (DECIMAL keeps its scale: {@code 12.50}); dates are strings (yyyy-mm-dd); booleans are
 * true/false; NULL is null. A DOUBLE that is NaN or infinite has no JSON number, so it is written as the string
 * {@code "NaN"}, {@code "Infinity"} or {@code "-Infinity"}.
 */
public final class JsonFormatter implements ResultFormatter {

    @Override
    public Rows open(List<ResultColumn> columns, PrintWriter out) {
        String[] keys = new String[columns.size()];
        for (int c = 0; c < keys.length; c++) {
            StringBuilder k = new StringBuilder();
            JsonStrings.append(k, columns.get(c).name());
            keys[c] = k.append(':').toString();
        }
        return new Rows() {
            // the row written last lacks its line end until the next row (",") or the end ("") is known
            final StringBuilder b = new StringBuilder();
            boolean any;

            @Override
            public void rows(List<Object[]> batch) {
                if (keys.length == 0) {
                    return;
                }
                for (Object[] row : batch) {
                    out.print(any ? "},\n" : "[\n");
                    any = true;
                    b.setLength(0);
                    b.append('{');
                    for (int c = 0; c < keys.length; c++) {
                        if (c > 0) {
                            b.append(',');
                        }
                        b.append(keys[c]);
                        value(b, row[c], columns.get(c));
                    }
                    out.print(b);
                }
            }

            @Override
            public void finish() {
                out.print(any ? "}\n]\n" : "[]\n");
                out.flush();
            }
        };
    }

    private static void value(StringBuilder b, Object v, ResultColumn column) {
        if (v == null) {
            b.append("null");
        } else if (v instanceof Boolean bool) {
            b.append(bool.booleanValue());
        } else if (ValueText.isFiniteNumber(v)) {
            b.append(ValueText.of(v, column.type()));
        } else if (v instanceof Double || v instanceof Float) {
            JsonStrings.append(b, Double.toString(((Number) v).doubleValue())); // NaN, Infinity, -Infinity
        } else {
            JsonStrings.append(b, ValueText.of(v, column.type()));
        }
    }
}

package io.tessera.cli.format;

import io.tessera.api.ResultColumn;

import java.io.PrintWriter;
import java.util.List;

/**
 * CSV as RFC 4180 reads it: a header line of column names, then one line per row, fields separated by commas.
 * A field is quoted only when it must be (it holds a comma, a double quote, CR or LF; quotes inside are
 * doubled). NULL is an empty field and the empty string is {@code ""}, so the two stay apart. Lines end in LF.
 */
public final class CsvFormatter implements ResultFormatter {

    @Override
    public Rows open(List<ResultColumn> columns, PrintWriter out) {
        StringBuilder b = new StringBuilder();
        if (!columns.isEmpty()) {
            for (int c = 0; c < columns.size(); c++) {
                if (c > 0) {
                    b.append(',');
                }
                field(b, columns.get(c).name());
            }
            out.print(b.append('\n'));
        }
        return new Rows() {
            @Override
            public void rows(List<Object[]> batch) {
                if (columns.isEmpty()) {
                    return;
                }
                for (Object[] row : batch) {
                    b.setLength(0);
                    for (int c = 0; c < columns.size(); c++) {
                        if (c > 0) {
                            b.append(',');
                        }
                        Object v = row[c];
                        if (v != null) {
                            field(b, ValueText.of(v, columns.get(c).type()));
                        }
                    }
                    out.print(b.append('\n'));
                }
            }

            @Override
            public void finish() {
                out.flush();
            }
        };
    }

    /** Appends one field, quoted when it is empty or holds a comma, a quote, CR or LF. */
    public static void field(StringBuilder b, String s) {
        if (s.isEmpty()) {
            b.append("\"\"");
            return;
        }
        boolean quote = false;
        for (int i = 0; i < s.length() && !quote; i++) {
            char ch = s.charAt(i);
            quote = ch == ',' || ch == '"' || ch == '\n' || ch == '\r';
        }
        if (!quote) {
            b.append(s);
            return;
        }
        b.append('"');
        for (int i = 0; i < s.length(); i++) {
            char ch = s.charAt(i);
            if (ch == '"') {
                b.append('"');
            }
            b.append(ch);
        }
        b.append('"');
    }
}

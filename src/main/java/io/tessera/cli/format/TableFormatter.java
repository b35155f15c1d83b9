package io.tessera.cli.format;

import io.tessera.api.QueryResult;
import io.tessera.api.ResultColumn;
import org.jline.utils.WCWidth;

import java.io.PrintWriter;
import java.util.List;

/**
 * Aligned columns inside a border, for people:
 *
 * <pre>
 * +----+-------+
 * | id | name  |
 * +----+-------+
 * |  1 | a     |
 * |  2 | NULL  |
 * +----+-------+
 * (2 rows)
 * </pre>
 *
 * Numeric columns (header included) are right-aligned, others left-aligned. Widths count terminal cells, so
 * wide characters line up; control characters in strings are shown escaped ({@code \n}, {@code \t}, ...) so a
 * row stays on one line.
 */
public final class TableFormatter implements ResultFormatter {

    public static final String NULL_TEXT = "NULL";

    @Override
    public void write(QueryResult result, PrintWriter out) {
        List<ResultColumn> columns = result.columns();
        int n = columns.size();
        if (n == 0) {
            out.println("OK");
            out.flush();
            return;
        }
        int rows = result.rowCount();
        String[][] cells = new String[rows][n];
        int[] widths = new int[n];
        boolean[] right = new boolean[n];
        String[] header = new String[n];
        for (int c = 0; c < n; c++) {
            header[c] = visible(columns.get(c).name());
            widths[c] = width(header[c]);
            right[c] = ValueText.isNumeric(columns.get(c).type());
        }
        for (int r = 0; r < rows; r++) {
            Object[] row = result.rows().get(r);
            for (int c = 0; c < n; c++) {
                Object v = row[c];
                String text = v == null ? NULL_TEXT : visible(ValueText.of(v, columns.get(c).type()));
                cells[r][c] = text;
                widths[c] = Math.max(widths[c], width(text));
            }
        }
        String border = border(widths);
        out.println(border);
        out.println(line(header, widths, right));
        out.println(border);
        for (String[] row : cells) {
            out.println(line(row, widths, right));
        }
        out.println(border);
        out.println(rows == 1 ? "(1 row)" : "(" + rows + " rows)");
        out.flush();
    }

    private static String border(int[] widths) {
        StringBuilder b = new StringBuilder("+");
        for (int w : widths) {
            b.append("-".repeat(w + 2)).append('+');
        }
        return b.toString();
    }

    private static String line(String[] cells, int[] widths, boolean[] right) {
        StringBuilder b = new StringBuilder("|");
        for (int c = 0; c < cells.length; c++) {
            String pad = " ".repeat(widths[c] - width(cells[c]));
            b.append(' ');
            if (right[c]) {
                b.append(pad).append(cells[c]);
            } else {
                b.append(cells[c]).append(pad);
            }
            b.append(" |");
        }
        return b.toString();
    }

    /** Terminal cells the text takes (wide East Asian characters two, combining marks none). */
    static int width(String s) {
        int w = 0;
        for (int i = 0; i < s.length(); ) {
            int cp = s.codePointAt(i);
            w += Math.max(0, WCWidth.wcwidth(cp));
            i += Character.charCount(cp);
        }
        return w;
    }

    /** The text with control characters written as escapes, so each cell stays on one line. */
    static String visible(String s) {
        StringBuilder b = null;
        for (int i = 0; i < s.length(); i++) {
            char ch = s.charAt(i);
            if (ch < 0x20 || ch == 0x7f) {
                if (b == null) {
                    b = new StringBuilder(s.length() + 8).append(s, 0, i);
                }
                switch (ch) {
                    case '\n' -> b.append("\\n");
                    case '\r' -> b.append("\\r");
                    case '\t' -> b.append("\\t");
                    default -> b.append(String.format("\\x%02x", (int) ch));
                }
            } else if (b != null) {
                b.append(ch);
            }
        }
        return b == null ? s : b.toString();
    }
}

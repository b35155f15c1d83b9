package io.tessera.cli.format;

import io.tessera.api.ResultColumn;
import org.jline.utils.WCWidth;

import java.io.PrintWriter;
import java.util.ArrayList;
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
 * Numeric columns (header included) are right-aligned, others left-aligned. Made with a row limit (the shell's),
 * a longer result shows its first and last rows around a line of {@code …}, and the count says how many were
 * shown. Widths count terminal cells, so
 * wide characters line up; control characters in strings are shown escaped ({@code \n}, {@code \t}, ...) so a
 * row stays on one line.
 */
public final class TableFormatter implements ResultFormatter {

    public static final String NULL_TEXT = "NULL";

    /**
     * Rows whose widths set the columns' widths before anything is written. A longer result goes out in sections:
     * when a later batch holds a wider value, the border and header are written again at the new widths.
     */
    static final int FIRST_ROWS = 10_000;

    /** The text of the line that stands for the rows left out of a long result. */
    static final String CUT = "\u2026";

    private final int maxRows;

    /** Every row of every result. */
    public TableFormatter() {
        this(0);
    }

    /** At most {@code maxRows} rows of a result, its first and last ones (0: every row). */
    public TableFormatter(int maxRows) {
        this.maxRows = Math.max(0, maxRows);
    }

    @Override
    public Rows open(List<ResultColumn> columns, PrintWriter out) {
        int n = columns.size();
        String[] header = new String[n];
        int[] widths = new int[n];
        boolean[] right = new boolean[n];
        for (int c = 0; c < n; c++) {
            header[c] = visible(columns.get(c).name());
            widths[c] = width(header[c]);
            right[c] = ValueText.isNumeric(columns.get(c).type());
        }
        if (maxRows > 0 && n > 0) {
            return shortened(columns, out, header, widths, right);
        }
        return new Rows() {
            final List<String[]> pending = new ArrayList<>();
            boolean started;
            long count;

            @Override
            public void rows(List<Object[]> batch) {
                if (n == 0) {
                    return;
                }
                for (Object[] row : batch) {
                    String[] cells = new String[n];
                    for (int c = 0; c < n; c++) {
                        Object v = row[c];
                        cells[c] = v == null ? NULL_TEXT : visible(ValueText.of(v, columns.get(c).type()));
                    }
                    pending.add(cells);
                }
                count += batch.size();
                if (started || pending.size() >= FIRST_ROWS) {
                    flushPending();
                }
            }

            /** Writes the rows held back, after a header at widths that fit them when they need wider ones. */
            private void flushPending() {
                boolean wider = !started;
                for (String[] cells : pending) {
                    for (int c = 0; c < n; c++) {
                        int w = width(cells[c]);
                        if (w > widths[c]) {
                            widths[c] = w;
                            wider = true;
                        }
                    }
                }
                if (wider) {
                    String border = border(widths);
                    if (started) {
                        out.println(border);
                    }
                    out.println(border);
                    out.println(line(header, widths, right));
                    out.println(border);
                    started = true;
                }
                for (String[] cells : pending) {
                    out.println(line(cells, widths, right));
                }
                pending.clear();
            }

            @Override
            public void finish() {
                if (n == 0) {
                    out.println("OK");
                    out.flush();
                    return;
                }
                flushPending();
                out.println(border(widths));
                out.println(count == 1 ? "(1 row)" : "(" + count + " rows)");
                out.flush();
            }
        };
    }

    /** Rows kept until the end, when the first and last {@code maxRows} of them are written. */
    private Rows shortened(List<ResultColumn> columns, PrintWriter out, String[] header, int[] widths,
                           boolean[] right) {
        int n = columns.size();
        HeadAndTail<String[]> kept = new HeadAndTail<>(maxRows);
        return new Rows() {
            @Override
            public void rows(List<Object[]> batch) {
                for (Object[] row : batch) {
                    String[] cells = new String[n];
                    for (int c = 0; c < n; c++) {
                        Object v = row[c];
                        cells[c] = v == null ? NULL_TEXT : visible(ValueText.of(v, columns.get(c).type()));
                    }
                    kept.add(cells);
                }
            }

            @Override
            public void finish() {
                List<String[]> lines = new java.util.ArrayList<>(kept.head());
                if (kept.cut()) {
                    String[] cut = new String[n];
                    java.util.Arrays.fill(cut, CUT);
                    lines.add(cut);
                }
                lines.addAll(kept.tail());
                for (String[] cells : lines) {
                    for (int c = 0; c < n; c++) {
                        widths[c] = Math.max(widths[c], width(cells[c]));
                    }
                }
                String border = border(widths);
                out.println(border);
                out.println(line(header, widths, right));
                out.println(border);
                for (String[] cells : lines) {
                    out.println(line(cells, widths, right));
                }
                out.println(border);
                long count = kept.count();
                String rows = count == 1 ? "(1 row)" : "(" + count + " rows";
                out.println(count == 1 ? rows : kept.cut() ? rows + ", " + kept.shown() + " shown)" : rows + ")");
                out.flush();
            }
        };
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

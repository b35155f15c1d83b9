package io.tessera.cli.format;

import io.tessera.api.ResultColumn;

import java.io.PrintWriter;
import java.util.List;

/**
 * One record after the other, a line per column, as psql's expanded display ({@code \x}) shows them; for wide
 * rows on a narrow terminal:
 *
 * <pre>
 * -[ RECORD 1 ]---
 * id   | 1
 * name | bolt
 * (1 row)
 * </pre>
 *
 * Made with a row limit (the shell's), a longer result shows its first and last records and says how many were
 * left out between them.
 */
public final class ExpandedFormatter implements ResultFormatter {

    private final int maxRows;

    /** At most {@code maxRows} records of a result, its first and last ones (0: every record). */
    public ExpandedFormatter(int maxRows) {
        this.maxRows = Math.max(0, maxRows);
    }

    @Override
    public Rows open(List<ResultColumn> columns, PrintWriter out) {
        int n = columns.size();
        String[] names = new String[n];
        int nameWidth = 0;
        for (int c = 0; c < n; c++) {
            names[c] = TableFormatter.visible(columns.get(c).name());
            nameWidth = Math.max(nameWidth, TableFormatter.width(names[c]));
        }
        int width = nameWidth;
        HeadAndTail<Object[]> kept = maxRows > 0 ? new HeadAndTail<>(maxRows) : null;
        return new Rows() {
            long written;

            @Override
            public void rows(List<Object[]> batch) {
                for (Object[] row : batch) {
                    if (kept != null) {
                        kept.add(row.clone());
                    } else {
                        record(++written, row);
                    }
                }
            }

            private void record(long number, Object[] row) {
                String title = "-[ RECORD " + number + " ]";
                out.println(title + "-".repeat(Math.max(1, width + 3 - title.length())));
                for (int c = 0; c < n; c++) {
                    Object v = row[c];
                    String text = v == null ? TableFormatter.NULL_TEXT
                            : TableFormatter.visible(ValueText.of(v, columns.get(c).type()));
                    out.println(names[c] + " ".repeat(width - TableFormatter.width(names[c])) + " | " + text);
                }
            }

            @Override
            public void finish() {
                if (n == 0) {
                    out.println("OK");
                    out.flush();
                    return;
                }
                long count = written;
                if (kept != null) {
                    count = kept.count();
                    long number = 0;
                    for (Object[] row : kept.head()) {
                        record(++number, row);
                    }
                    if (kept.cut()) {
                        long left = count - kept.shown();
                        out.println(TableFormatter.CUT + " " + left + (left == 1 ? " record" : " records")
                                + " not shown " + TableFormatter.CUT);
                        number += left;
                    }
                    for (Object[] row : kept.tail()) {
                        record(++number, row);
                    }
                }
                out.println(count == 1 ? "(1 row)" : "(" + count + " rows)");
                out.flush();
            }
        };
    }
}

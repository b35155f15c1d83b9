package io.tessera.bench;

import java.util.List;

/** A plain text table with aligned columns, for the micro-benchmarks' reports. */
final class TableText {

    private TableText() {
    }

    /** The header and rows as lines of columns padded to their widest cell, separated by two spaces. */
    static String format(String[] header, List<String[]> rows) {
        int[] width = new int[header.length];
        for (int c = 0; c < header.length; c++) {
            width[c] = header[c].length();
            for (String[] r : rows) {
                width[c] = Math.max(width[c], r[c].length());
            }
        }
        StringBuilder sb = new StringBuilder();
        line(sb, header, width);
        String[] rule = new String[header.length];
        for (int c = 0; c < header.length; c++) {
            rule[c] = "-".repeat(width[c]);
        }
        line(sb, rule, width);
        for (String[] r : rows) {
            line(sb, r, width);
        }
        return sb.toString();
    }

    private static void line(StringBuilder sb, String[] cells, int[] width) {
        StringBuilder l = new StringBuilder();
        for (int c = 0; c < cells.length; c++) {
            if (c > 0) {
                l.append("  ");
            }
            l.append(cells[c]).append(" ".repeat(width[c] - cells[c].length()));
        }
        sb.append(l.toString().stripTrailing()).append('\n');
    }
}

package io.tessera.cli;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;

/** Rows of text in aligned columns, for command output. */
final class TextTable {

    private final List<String> header;
    private final List<Boolean> rightAligned;
    private final List<List<String>> rows = new ArrayList<>();

    TextTable(List<String> header, List<Boolean> rightAligned) {
        this.header = header;
        this.rightAligned = rightAligned;
    }

    void add(List<String> row) {
        rows.add(row);
    }

    void print(PrintWriter out) {
        int[] w = new int[header.size()];
        for (int i = 0; i < w.length; i++) {
            w[i] = header.get(i).length();
            for (List<String> r : rows) {
                w[i] = Math.max(w[i], r.get(i).length());
            }
        }
        line(out, header, w);
        StringBuilder rule = new StringBuilder();
        for (int i = 0; i < w.length; i++) {
            rule.append(i == 0 ? "" : "  ").append("-".repeat(w[i]));
        }
        out.println(rule);
        for (List<String> r : rows) {
            line(out, r, w);
        }
    }

    private void line(PrintWriter out, List<String> cells, int[] w) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < w.length; i++) {
            String c = cells.get(i);
            String pad = " ".repeat(w[i] - c.length());
            b.append(i == 0 ? "" : "  ").append(rightAligned.get(i) ? pad + c : (i == w.length - 1 ? c : c + pad));
        }
        out.println(b.toString().stripTrailing());
    }
}

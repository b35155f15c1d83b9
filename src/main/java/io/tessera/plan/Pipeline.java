package io.tessera.plan;

import java.util.List;

/**
 * A source, a chain of operations, a sink: a unit of code with no blocking step inside (Hawk, section 4).
 * {@code estimatedRows}: the optimizer's estimate of the rows the source yields, of the rows after each operation,
 * and of the rows the sink makes (groups, a table's entries, sorted rows), in that order; NaN where none was made.
 */
public record Pipeline(int id, Source source, List<Operation> operations, Sink sink, List<Double> estimatedRows) {

    public Pipeline {
        operations = List.copyOf(operations);
        estimatedRows = List.copyOf(estimatedRows);
        if (estimatedRows.size() != operations.size() + 2) {
            throw new IllegalArgumentException("a pipeline of " + operations.size() + " operations has "
                    + (operations.size() + 2) + " row estimates, not " + estimatedRows.size());
        }
    }

    /** A pipeline without estimates. */
    public Pipeline(int id, Source source, List<Operation> operations, Sink sink) {
        this(id, source, operations, sink, java.util.Collections.nCopies(operations.size() + 2, Double.NaN));
    }

    /** The estimated rows after operation {@code i} (-1: of the source). */
    public double estimatedRowsAfter(int i) {
        return estimatedRows.get(i + 1);
    }

    /** The estimated rows the sink makes. */
    public double estimatedSinkRows() {
        return estimatedRows.get(estimatedRows.size() - 1);
    }

    /**
     * A stable description of the pipeline for profiles: the table it scans and the order of magnitude of its rows,
     * its operators with the columns they read (the filters' columns, the probes' keys), and its sink with the group
     * keys; no constants. Queries that differ only in their constants share it (SSB's Q1.1 to Q1.3), queries that
     * join or group differently do not, nor the same query over ten times the rows: the fastest variant of a scan
     * of 6 million rows, whose kernels take microseconds, is not the fastest of 600 million.
     */
    public String shape() {
        StringBuilder sb = new StringBuilder(switch (source) {
            case Source.TableScan t -> "LOOP:" + t.table().name() + "@" + magnitude(t.table().rowCount());
            case Source.RelationScan r -> "LOOP:rel";
            case Source.JoinTableScan j -> j.matched() ? "LOOP:matched" : "LOOP:unmatched";
        });
        for (Operation op : operations) {
            switch (op) {
                case Operation.Filter f -> sb.append("|FILTER").append(columns(List.of(f.condition())));
                case Operation.Probe pr -> sb.append(pr.setsMarks() ? "|PROBE+MARK" : "|PROBE").append(columns(pr.keys()));
            }
        }
        sb.append('|').append(sink.getClass().getSimpleName().toUpperCase(java.util.Locale.ROOT));
        if (sink instanceof Sink.GroupAggregate ga) {
            sb.append("[").append(String.join("+", ga.keyNames().stream().map(Pipeline::bare).sorted().toList())).append("]");
        }
        return sb.toString();
    }

    /** The power of ten at or below a row count, as {@code 1eN} (0 rows: {@code 1e0}). */
    static String magnitude(long rows) {
        int e = 0;
        for (long r = rows; r >= 10; r /= 10) {
            e++;
        }
        return "1e" + e;
    }

    private static String columns(List<Expr> exprs) {
        List<Slot> slots = new java.util.ArrayList<>();
        for (Expr e : exprs) {
            Expr.slots(e, slots);
        }
        return "[" + String.join("+", slots.stream().map(s -> bare(s.name())).sorted().distinct().toList()) + "]";
    }

    /** A column name without the join qualifier the planner gives payload columns ({@code j1.c_nation}). */
    private static String bare(String name) {
        int dot = name.lastIndexOf('.');
        return dot < 0 ? name : name.substring(dot + 1);
    }

    /**
     * The pipeline as EXPLAIN prints it, one line per slot of {@link #estimatedRows} (its source, each operation,
     * its sink), without the estimates.
     */
    public List<String> lines() {
        List<String> out = new java.util.ArrayList<>(operations.size() + 2);
        out.add("pipeline " + id + ": " + source);
        for (Operation op : operations) {
            out.add("  -> " + op);
        }
        out.add("  -> " + sink);
        return out;
    }

    @Override
    public String toString() {
        List<String> lines = lines();
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < lines.size(); i++) {
            sb.append(i == 0 ? "" : "\n").append(lines.get(i)).append(rows(estimatedRows.get(i)));
        }
        return sb.toString();
    }

    /** An estimate as EXPLAIN prints it after an operator: {@code  ~1,234 rows}; nothing where none was made. */
    public static String rows(double estimate) {
        if (Double.isNaN(estimate)) {
            return "";
        }
        long rows = Math.round(estimate);
        return "  ~" + grouped(rows) + (rows == 1 ? " row" : " rows");
    }

    /**
     * {@code n} with a comma between each group of three digits, as {@code %,d} in {@code Locale.ROOT} writes it,
     * without a {@link java.util.Formatter} (every pipeline's generated source carries an estimate per operator).
     */
    static String grouped(long n) {
        String digits = Long.toString(n);
        int first = n < 0 ? 1 : 0;
        int len = digits.length() - first;
        StringBuilder sb = new StringBuilder(digits.length() + len / 3).append(digits, 0, first);
        for (int i = 0; i < len; i++) {
            if (i > 0 && (len - i) % 3 == 0) {
                sb.append(',');
            }
            sb.append(digits.charAt(first + i));
        }
        return sb.toString();
    }
}

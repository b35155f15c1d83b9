package io.tessera.plan;

import java.util.List;

/** A source, a chain of operations, a sink: a unit of code with no blocking step inside (Hawk, section 4). */
public record Pipeline(int id, Source source, List<Operation> operations, Sink sink) {

    public Pipeline {
        operations = List.copyOf(operations);
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

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder("pipeline ").append(id).append(": ").append(source);
        for (Operation op : operations) {
            sb.append("\n  -> ").append(op);
        }
        return sb.append("\n  -> ").append(sink).toString();
    }
}

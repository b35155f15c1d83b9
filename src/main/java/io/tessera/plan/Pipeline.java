package io.tessera.plan;

import java.util.List;

/** A source, a chain of operations, a sink: a unit of code with no blocking step inside (Hawk, section 4). */
public record Pipeline(int id, Source source, List<Operation> operations, Sink sink) {

    public Pipeline {
        operations = List.copyOf(operations);
    }

    /** A stable description of the pipeline's shape (operators and types, not constants), for profiles. */
    public String shape() {
        StringBuilder sb = new StringBuilder(source instanceof Source.TableScan t ? "LOOP:" + t.table().name() : "LOOP:rel");
        for (Operation op : operations) {
            sb.append(op instanceof Operation.Filter ? "|FILTER" : "|PROBE");
        }
        return sb.append('|').append(sink.getClass().getSimpleName().toUpperCase(java.util.Locale.ROOT)).toString();
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

package io.tessera.plan;

import java.util.BitSet;
import java.util.List;

/**
 * The columns of its source that a pipeline reads: those its filters, probes and sink name. A backend that cannot
 * read a column of some type asks about these, not about every column of the table, so that a query that reads only
 * a table's other columns is not held back by one it never touches.
 */
public final class SourceColumnsRead {
    private SourceColumnsRead() {
    }

    /** The indexes (into {@code p.source().columns()}) of the source columns {@code p} reads. */
    public static BitSet of(Pipeline p) {
        BitSet read = new BitSet();
        for (Operation op : p.operations()) {
            switch (op) {
                case Operation.Filter f -> add(f.condition(), read);
                case Operation.Probe pr -> {
                    addAll(pr.keys(), read);
                    add(pr.residual(), read);
                }
            }
        }
        switch (p.sink()) {
            case Sink.Build b -> {
                addAll(b.keys(), read);
                addAll(b.payload(), read);
            }
            case Sink.Aggregate a -> a.aggs().forEach(c -> add(c, read));
            case Sink.GroupAggregate g -> {
                addAll(g.keys(), read);
                g.aggs().forEach(c -> add(c, read));
            }
            case Sink.Materialize m -> addAll(m.outputs(), read);
            case Sink.Sort s -> addAll(s.outputs(), read);
            case Sink.Window w -> addAll(w.outputs(), read);
            case Sink.Marks m -> {
            }
        }
        return read;
    }

    private static void add(AggCall c, BitSet read) {
        add(c.arg(), read);
        add(c.filter(), read);
        if (c.options() != null) {
            c.options().order().forEach(k -> add(k.key(), read));
        }
    }

    private static void addAll(List<Expr> es, BitSet read) {
        es.forEach(e -> add(e, read));
    }

    private static void add(Expr e, BitSet read) {
        switch (e) {
            case null -> {
            }
            case Expr.Ref r -> {
                if (r.slot().isSource()) {
                    read.set(r.slot().index());
                }
            }
            case Expr.Literal l -> {
            }
            case Expr.Call c -> addAll(c.args(), read);
        }
    }
}

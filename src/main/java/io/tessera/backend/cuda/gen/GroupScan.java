package io.tessera.backend.cuda.gen;

import io.tessera.plan.AggCall;
import io.tessera.plan.AggFunction;
import io.tessera.plan.Expr;
import io.tessera.plan.Operation;
import io.tessera.plan.Pipeline;
import io.tessera.plan.Sink;
import io.tessera.plan.Slot;
import io.tessera.plan.Source;

import java.util.ArrayList;
import java.util.List;

/**
 * A scan of the groups a GROUP_AGGREGATE kernel left on the device ({@code LOOP rN} of its relation), or of the one
 * row of an AGGREGATE kernel's (only into a join table its NULL over no rows keeps it out of), as another
 * source of the table scan's operators: a kernel over the group table's slots, as a scan of a join table's rows is
 * ({@link MarkOps}). A slot takes part when it holds a group (rows counted, and for agg=shared its state 2); a key
 * column is decoded from the slot number (a dense table: the key's minimum plus its digit, the last key varying
 * fastest) or read from the slot's key words (agg=shared); an aggregate column is its accumulated value, a count
 * the group's rows. Its filters, probes and sink (a BUILD, an AGGREGATE, a GROUP_AGGREGATE, the rows of a
 * MATERIALIZE, SORT or WINDOW, or the MARKS of a semi or anti join whose outer side built the table: TPC-H Q20's groups of
 * lineitem marking suppliers) are the operators of every kernel, so that a HAVING's filter runs over the groups
 * where they lie and only the rows it keeps are written or mark; a GROUP_AGGREGATE groups the groups again (the
 * second aggregation of a DISTINCT aggregate). A group's final value that
 * only the host computes (AVG), and one that can be NULL (an aggregate with a FILTER clause or over values that can
 * be NULL), keep the kernel from the group table: it reads the groups as rows the host finished, copied back as
 * columns ({@code RelationColumns}: string keys as the codes of the dictionary the aggregation names). Every other value of a group is not NULL here, whatever the plan's type says
 * (a SUM over a group's rows).
 */
final class GroupScan {

    private GroupScan() {
    }

    /**
     * Whether a pipeline ends in a sink a scan of groups may feed: every sink with GPU code. A BUILD, an AGGREGATE,
     * a GROUP_AGGREGATE (the second aggregation of a DISTINCT aggregate, which groups the first one's groups again),
     * rows (a MATERIALIZE or a SORT; a SORT of the groups alone, with no operation before it, is the runtime's,
     * {@code DeviceSort}; a WINDOW, whose kernel writes rows as a SORT's does), or MARKS, which only sets the marks
     * of the slots its probe finds (a slot that holds no group is not selected, so it marks nothing).
     */
    static boolean feedsSink(Pipeline p) {
        return switch (p.sink()) {
            case Sink.Build _, Sink.Aggregate _, Sink.GroupAggregate _, Sink.Materialize _, Sink.Sort _, Sink.Window _,
                 Sink.Marks _ -> true;
        };
    }

    /**
     * Whether a pipeline ends in a join table or an aggregation: where it can neither scan the groups nor read the
     * relation's rows on the device, the placement names why it cannot scan the groups (for the other sinks, that
     * the relation is not on the device).
     */
    static boolean endsInTableOrAggregate(Pipeline p) {
        return p.sink() instanceof Sink.Build || p.sink() instanceof Sink.Aggregate
                || p.sink() instanceof Sink.GroupAggregate;
    }

    /**
     * Whether pipeline {@code p} reads groups {@code g} (null: its relation is not the groups of a GPU aggregation)
     * slot by slot, as this class emits; else a kernel reads the relation's rows as columns, the groups moved to
     * the host and their rows copied back ({@link KernelBuilder}), when it reads it at all.
     */
    static boolean scans(Pipeline p, ScannedGroups g) {
        return g != null && feedsSink(p) && reason(p, g) == null;
    }

    /** Why pipeline {@code p}, which scans groups {@code g}, has no GPU code for its source; null when it has. */
    static String reason(Pipeline p, ScannedGroups g) {
        if (!feedsSink(p)) {
            throw new IllegalArgumentException("pipeline " + p.id() + " ends in " + p.sink()
                    + ": a scan of groups feeds a BUILD, an aggregation, a MATERIALIZE, a SORT or MARKS");
        }
        int nk = g.keys().size();
        if (g.scalar() && !(p.sink() instanceof Sink.Build b && keyedByNullOverNoRows(b, g))) {
            // the scan sees the row only where the aggregation counted rows; SQL has it over no rows too
            return "it reads the row of scalar aggregation pipeline " + g.writer().id() + ", which the GPU scans only "
                    + "into a join table keyed by an aggregate that is NULL over no rows";
        }
        for (Slot s : reads(p)) {
            if (!s.isSource() || s.index() < nk) {
                continue;
            }
            int a = s.index() - nk;
            AggCall call = g.aggs().get(a);
            AggFunction f = call.function();
            if (f != AggFunction.COUNT && f != AggFunction.COUNT_STAR && f != AggFunction.SUM
                    && f != AggFunction.SUM0 && f != AggFunction.MIN && f != AggFunction.MAX) {
                return "it reads " + f + " of the groups of pipeline " + g.writer().id()
                        + ", whose final value the host computes";
            }
            if (g.layout().aggs().get(a).ownCount()) {
                return "it reads an aggregate that counts only some rows (a FILTER clause, or an argument that can be "
                        + "NULL) of the groups of pipeline " + g.writer().id() + ", which can be NULL";
            }
        }
        return null;
    }

    /**
     * Whether a BUILD from the row of a scalar aggregation has a key that is an aggregate NULL over no rows (SUM,
     * MIN, MAX): over no rows the row's key is NULL and it joins nothing, which skipping the row also gives.
     */
    private static boolean keyedByNullOverNoRows(Sink.Build b, ScannedGroups g) {
        for (Expr key : b.keys()) {
            if (key instanceof Expr.Ref r && r.slot().isSource()) {
                AggFunction f = g.aggs().get(r.slot().index()).function();
                if (f == AggFunction.SUM || f == AggFunction.MIN || f == AggFunction.MAX) {
                    return true;
                }
            }
        }
        return false;
    }

    /** Every slot the pipeline's operations and sink read. */
    private static List<Slot> reads(Pipeline p) {
        List<Slot> slots = new ArrayList<>();
        for (Operation op : p.operations()) {
            switch (op) {
                case Operation.Filter f -> Expr.slots(f.condition(), slots);
                case Operation.Probe pr -> {
                    pr.keys().forEach(e -> Expr.slots(e, slots));
                    if (pr.residual() != null) {
                        Expr.slots(pr.residual(), slots);
                    }
                }
            }
        }
        for (Expr e : Sink.exprs(p.sink())) {
            Expr.slots(e, slots);
        }
        return slots;
    }

    /** The groups pipeline p scans slot by slot ({@link #scans}), or null when it reads its relation otherwise. */
    static ScannedGroups scanned(Pipeline p, CudaPipelineEmitter.Context ctx) {
        ScannedGroups g = p.source() instanceof Source.RelationScan rs ? ctx.groups(rs.relationId()) : null;
        return scans(p, g) ? g : null;
    }

    /** The start of a group scan's tile: every item is a slot of the group table, kept when it holds a group. */
    static void presence(KernelBuilder k) {
        ScannedGroups g = k.groupScan;
        boolean shared = g.layout().mode().equals("shared");
        k.params.add(new KernelParam(KernelParam.Kind.SCAN_GROUP_ROWS, -1, "grp_rows",
                "const unsigned long long* __restrict__"));
        if (shared) {
            k.params.add(new KernelParam(KernelParam.Kind.SCAN_GROUP_STATE, -1, "grp_state", "const int* __restrict__"));
        }
        String in = KernelBuilder.IN;
        StringBuilder body = k.body;
        body.append(in).append("// ").append(KernelBuilder.comment(k.codeNames.source())).append(": the slots of pipeline ")
                .append(g.writer().id()).append("'s group table (agg=").append(g.layout().mode())
                .append(") that hold a group\n");
        body.append(in).append("#pragma unroll\n");
        body.append(in).append("for (int i = 0; i < IPT; ++i) {\n");
        body.append(in).append("    if (flags[i]) {\n");
        body.append(in).append("        const long long s = base + TileRow<TPB, IPT>(i, tile_size);\n");
        body.append(in).append("        flags[i] = grp_rows[s] != 0ull").append(shared ? " && grp_state[s] == 2" : "")
                .append(";\n");
        body.append(in).append("    }\n");
        body.append(in).append("}\n");
        k.narrowed = true;
    }

    /**
     * Loads source column {@code s} of a group scan at each selected item's slot: a group key, or an aggregate's
     * value (a count: the group's rows), in the column's stored type.
     */
    static void load(KernelBuilder k, Slot s, String in) {
        ScannedGroups g = k.groupScan;
        SinkLayout.Aggregate a = g.layout();
        int nk = g.keys().size();
        int c = s.index();
        CType t = CType.stored(s.type());
        String at = "(base + TileRow<TPB, IPT>(i, tile_size))";
        String value;
        String what;
        if (c < nk) {
            what = "key " + c;
            if (a.mode().equals("shared")) {
                k.param(new KernelParam(KernelParam.Kind.SCAN_GROUP_KEYS, -1, "grp_keys", "const long long* __restrict__"));
                value = "grp_keys[" + at + " * " + a.keyWidth() + " + " + c + "]";
            } else {
                long divisor = 1;
                for (int later = c + 1; later < nk; later++) {
                    divisor *= a.sizes()[later];
                }
                value = CudaExprGen.longLiteral(a.mins()[c]) + " + " + at + " / " + CudaExprGen.longLiteral(divisor)
                        + " % " + CudaExprGen.longLiteral(a.sizes()[c]);
            }
        } else {
            int agg = c - nk;
            SinkLayout.Agg acc = a.aggs().get(agg);
            what = k.codeNames.agg(g.aggs().get(agg));
            if (acc.valueType() == null) {
                value = "(long long)grp_rows[" + at + "]";
            } else {
                k.param(new KernelParam(KernelParam.Kind.SCAN_GROUP_VALUE, agg, "grp_v" + agg,
                        "const " + acc.valueType().c + "* __restrict__"));
                value = "grp_v" + agg + "[" + at + "]";
            }
        }
        String reg = "c" + c;
        k.loadedColumns.put(c, reg);
        k.model.column(8);
        StringBuilder body = k.body;
        body.append(in).append(t.memory()).append(' ').append(reg).append("[IPT];  // ")
                .append(KernelBuilder.comment("r" + ((Source.RelationScan) k.p.source()).relationId() + ": " + what))
                .append('\n');
        body.append(in).append("#pragma unroll\n");
        body.append(in).append("for (int i = 0; i < IPT; ++i) ").append(reg).append("[i] = flags[i] ? (")
                .append(t.memory()).append(")(").append(value).append(") : (").append(t.memory()).append(")0;\n");
    }
}

package io.tessera.backend.cuda.exec;

import io.tessera.backend.GroupRows;
import io.tessera.backend.Intermediate;
import io.tessera.backend.QueryState;
import io.tessera.backend.ValueKind;
import io.tessera.backend.host.RelationPart;
import io.tessera.backend.cuda.driver.DeviceBuffer;
import io.tessera.backend.cuda.ops.LargeSort;
import io.tessera.backend.cuda.ops.SmallSort;
import io.tessera.backend.cuda.ops.SortMethod;
import io.tessera.backend.cuda.gen.GpuPlacement;
import io.tessera.backend.cuda.gen.SinkLayout;
import io.tessera.plan.AggFunction;
import io.tessera.plan.Expr;
import io.tessera.plan.Pipeline;
import io.tessera.plan.QueryPlan;
import io.tessera.plan.Sink;
import io.tessera.plan.SortKey;
import io.tessera.plan.Source;
import io.tessera.variant.CudaVariantSpace;
import io.tessera.variant.Genome;

import java.util.ArrayList;
import java.util.List;

/**
 * ORDER BY and LIMIT over a GPU aggregation's groups, on the GPU: a pipeline that reads the groups of a
 * GROUP_AGGREGATE kernel and only sorts them (its outputs the groups' columns, its keys among them). The groups,
 * compacted on the device, are sorted there by {@link SmallSort} (the sort keys read from the compacted arrays: a
 * dense table's keys decoded from the slot numbers, agg=shared's key words, the aggregates' values with a NULL
 * flag where a group's value can be NULL), and the LIMIT's rows are read back in order. More groups than one block
 * sorts, or more key words, are sorted by {@link LargeSort} from the same key words: a radix sort, or the bitonic
 * top-k for a LIMIT of at most 1,024 rows over one varying key word (the genome's {@code topk=sort} sorts and
 * cuts instead). Groups left on the host (not compacted on the device) go there as they are, and the JVM backend
 * completes the sort.
 */
final class DeviceSort {

    private DeviceSort() {
    }

    /** The GROUP_AGGREGATE pipeline whose groups pipeline {@code p} reads, or null. */
    static Pipeline groupsRead(QueryPlan plan, Pipeline p) {
        if (!(p.source() instanceof Source.RelationScan rs)) {
            return null;
        }
        for (Pipeline w : plan.pipelines()) {
            if (w.sink() instanceof Sink.GroupAggregate ga && ga.relationId() == rs.relationId()) {
                return w;
            }
        }
        return null;
    }

    /**
     * Null when pipeline {@code p} sorts the groups of a GPU aggregation in a way the GPU can, else why not (one
     * line). {@code placement}: which pipelines have kernels.
     */
    static String unsupported(QueryPlan plan, Pipeline p, GpuPlacement placement) {
        // where this is no sort of groups alone, why the pipeline has no kernel of its own says more
        String noKernel = placement.jvmReasons().get(p.id());
        Pipeline writer = groupsRead(plan, p);
        if (writer == null) {
            return noKernel != null ? noKernel
                    : "it reads a relation, and the GPU reads only tables, relations its kernels leave on the device "
                    + "and the groups of its own aggregations";
        }
        if (!placement.onGpu(writer.id()) || !(placement.kernels().get(writer.id()).sink() instanceof SinkLayout.Aggregate a)) {
            return "it reads the groups of pipeline " + writer.id() + ", which runs on the JVM";
        }
        if (!(p.sink() instanceof Sink.Sort s)) {
            return noKernel != null ? noKernel : "the GPU only sorts and cuts the groups of its aggregations, and builds "
                    + "join tables from, aggregates and reads them (this pipeline's sink is " + p.sink() + ")";
        }
        if (!p.operations().isEmpty()) {
            return noKernel != null ? noKernel
                    : "it computes over the groups (" + p.operations().get(0) + ") before sorting them";
        }
        for (Expr e : s.outputs()) {
            if (!(e instanceof Expr.Ref r) || !r.slot().isSource()) {
                return noKernel != null ? noKernel : "it computes its output " + e + " from the groups";
            }
        }
        Sink.GroupAggregate ga = (Sink.GroupAggregate) writer.sink();
        int nk = ga.keys().size();
        for (SortKey k : s.keys()) {
            int column = ((Expr.Ref) s.outputs().get(k.column())).slot().index();
            if (column < nk) {
                if (ValueKind.stored(ga.keys().get(column).type()) == ValueKind.STRING) {
                    return "it sorts by computed strings";
                }
                continue;
            }
            int agg = column - nk;
            AggFunction f = ga.aggs().get(agg).function();
            if (f == AggFunction.AVG || f == AggFunction.COUNT_DISTINCT || f == AggFunction.SINGLE_VALUE) {
                return "it sorts by " + f + ", whose final value the host computes";
            }
            boolean accumulatesDouble = a.aggs().get(agg).valueType() == io.tessera.backend.cuda.gen.CType.DOUBLE;
            boolean isDouble = ValueKind.stored(ga.aggs().get(agg).type()) == ValueKind.DOUBLE;
            if (accumulatesDouble != isDouble && f != AggFunction.COUNT && f != AggFunction.COUNT_STAR) {
                return "it sorts by an aggregate accumulated in another type than its result's";
            }
        }
        return null;
    }

    /**
     * Sorts the groups pipeline {@code p} reads on the device and leaves the sorted, cut relation there; groups
     * the device cannot sort in one block go to the host as a part of the relation, which the host completes.
     */
    static void run(CudaQueryRun run, QueryState state, Pipeline p, Genome genome) {
        run.makeCurrent();
        Sink.Sort s = (Sink.Sort) p.sink();
        Source.RelationScan rs = (Source.RelationScan) p.source();
        Intermediate input = state.relation(rs.relationId());
        int[] columns = new int[s.outputs().size()];
        for (int c = 0; c < columns.length; c++) {
            columns[c] = ((Expr.Ref) s.outputs().get(c)).slot().index();
        }
        if (input != null && input.value() instanceof DeviceGroups.Compacted ahead && ahead.ahead() != null) {
            Intermediate.OnDevice sorted = sortedAhead(run, ahead, s, columns, genome);
            if (sorted != null) {
                state.putRelation(s.relationId(), new Intermediate(Intermediate.Kind.RELATION, CudaBackend.DEVICE, sorted));
                return;
            }
        }
        Intermediate.OnDevice sorted = input != null && input.value() instanceof DeviceGroups.Compacted g
                ? sorted(run, g.counted(), s, columns, genome) : null;
        if (sorted != null) {
            state.putRelation(s.relationId(), new Intermediate(Intermediate.Kind.RELATION, CudaBackend.DEVICE, sorted));
            return;
        }
        // groups the device did not compact (or more than LargeSort takes): the host sorts them
        RelationPart groups = (RelationPart) state.moveToHost(input).value();
        state.addPart(s.relationId(), new Intermediate(Intermediate.Kind.PART, Intermediate.HOST,
                groups.project(columns)));
    }

    /**
     * The rows of groups {@code g} (their count known) sorted and cut on the device, read back when the host asks;
     * null where there are more than {@link LargeSort} takes.
     */
    private static Intermediate.OnDevice sorted(CudaQueryRun run, DeviceGroups.Compacted g, Sink.Sort s, int[] columns,
                                                Genome genome) {
        if (!LargeSort.fits(g.count(), 1)) {
            return null;
        }
        List<SmallSort.Key> keys = keys(g, s, columns);
        long keep = s.fetch() < 0 ? g.count() : Math.min(g.count(), s.offset() + s.fetch());
        DeviceBuffer order = run.take(Math.max(1, keep) * 8);
        if (SmallSort.fits(g.count(), keys.size())) {
            run.runtime().sortSmall(keys, g.count(), keep, order);
        } else {
            // more groups than one block sorts, or more key words: the radix sort, or the top-k of a LIMIT
            run.runtime().sortLarge(keys, g.count(), keep, preference(genome), order);
        }
        long from = Math.min(keep, Math.max(0, s.offset()));
        return () -> g.rowsInOrder(order, from, keep).project(columns);
    }

    /**
     * Groups gathered ahead of their count ({@link DeviceGroups#ahead}) sorted by one block with the count read on
     * the device, queued behind their gather: the query waits once, when the host reads the rows. More groups than
     * the room are sorted again from their count then. Null where one block cannot sort the room by these keys, or
     * no row is kept (the groups are then counted first).
     */
    private static Intermediate.OnDevice sortedAhead(CudaQueryRun run, DeviceGroups.Compacted g, Sink.Sort s,
                                                     int[] columns, Genome genome) {
        int room = g.packing().n();
        List<SmallSort.Key> keys = keys(g, s, columns);
        long keepRoom = s.fetch() < 0 ? room : Math.min(room, s.offset() + s.fetch());
        if (!SmallSort.fits(room, keys.size()) || keepRoom <= 0) {
            return null;
        }
        DeviceBuffer order = run.take(keepRoom * 8);
        run.runtime().sortSmall(keys, room, g.ahead().countAt(), keepRoom, order);
        return () -> {
            RelationPart rows = g.rowsInOrderAhead(order, s.offset(), (int) keepRoom);
            if (rows != null) {
                return rows.project(columns);
            }
            Intermediate.OnDevice counted = sorted(run, g.counted(), s, columns, genome);
            if (counted == null) {
                throw new GpuFallbacks.Fallback("more groups than the GPU sorts: " + g.counted().count());
            }
            return counted.toHost();
        };
    }

    /** How a sort under {@code genome} may cut to its LIMIT: its {@code topk} value, the bitonic top-k without one. */
    static SortMethod.Preference preference(Genome genome) {
        return genome != null && genome.has(CudaVariantSpace.TOP_K) && genome.get(CudaVariantSpace.TOP_K).equals("sort")
                ? SortMethod.Preference.SORT : SortMethod.Preference.BITONIC;
    }

    /** The sort's keys as words of the compacted groups' device arrays. */
    private static List<SmallSort.Key> keys(DeviceGroups.Compacted g, Sink.Sort s, int[] columns) {
        SinkLayout.Aggregate a = g.aggregate();
        GpuGroups.Packing p = g.packing();
        int nk = g.rowLayout().keys();
        List<SmallSort.Key> keys = new ArrayList<>();
        for (SortKey k : s.keys()) {
            int column = columns[k.column()];
            boolean desc = k.descending();
            if (column < nk) {
                boolean dbl = g.rowLayout().kinds()[column] == ValueKind.DOUBLE;
                if (p.keyWidth() > 0) {
                    keys.add(SmallSort.Key.of(g.packed(), p.keysAt(), p.keyWidth(), column,
                            dbl ? SmallSort.Kind.DOUBLE : SmallSort.Kind.SIGNED, desc));
                } else {
                    long divisor = 1;
                    for (int later = column + 1; later < nk; later++) {
                        divisor *= a.sizes()[later];
                    }
                    keys.add(SmallSort.Key.denseDigit(g.slots(), a.mins()[column], divisor, a.sizes()[column], desc));
                }
                continue;
            }
            int agg = column - nk;
            GroupRows.Final f = g.rowLayout().aggs()[agg];
            // the aggregate's own count of its non-NULL inputs, else the group's rows (word 0 on: never 0)
            long countAt = p.countAt()[agg] >= 0 ? p.countAt()[agg] : 0;
            boolean counts = f.function() == AggFunction.COUNT || f.function() == AggFunction.COUNT_STAR;
            if (counts) {
                keys.add(SmallSort.Key.of(g.packed(), countAt, 1, 0, SmallSort.Kind.SIGNED, desc));
                continue;
            }
            if (p.countAt()[agg] >= 0 && f.function() != AggFunction.SUM0) {
                // NULL where no input was counted
                keys.add(SmallSort.Key.of(g.packed(), countAt, 1, 0, SmallSort.Kind.NULL_FLAG, k.nullsFirst()));
            }
            keys.add(SmallSort.Key.of(g.packed(), p.valueAt()[agg], 1, 0,
                    f.doubleValue() ? SmallSort.Kind.DOUBLE : SmallSort.Kind.SIGNED, desc));
        }
        return keys;
    }
}

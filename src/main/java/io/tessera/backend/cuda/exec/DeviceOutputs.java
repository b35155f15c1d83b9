package io.tessera.backend.cuda.exec;

import io.tessera.backend.Intermediate;
import io.tessera.backend.QueryState;
import io.tessera.backend.ValueKind;
import io.tessera.backend.cuda.driver.DeviceBuffer;
import io.tessera.backend.cuda.gen.CodeDictionaries;
import io.tessera.backend.cuda.gen.CudaKernelSource;
import io.tessera.backend.cuda.gen.KernelParam;
import io.tessera.backend.cuda.gen.MappedCodes;
import io.tessera.backend.cuda.gen.SinkLayout;
import io.tessera.plan.ColumnInfo;
import io.tessera.plan.DictionaryKeys;
import io.tessera.plan.Expr;
import io.tessera.plan.Pipeline;
import io.tessera.plan.Sink;

import java.util.List;

/**
 * What a kernel's sink made, left on the device as the query's intermediate: a BUILD's join table (probed there
 * by later kernels), the rows of a MATERIALIZE or SORT (a part of their relation, read back when the host needs
 * them; the rows of a SORT of one writer sorted and cut there first, {@link DeviceRowsSort}, those of a WINDOW of
 * one writer sorted and their functions computed, {@link DeviceWindow}), an aggregation's
 * groups (compacted on the device where the table is not small, read back and turned into rows when the host needs
 * them).
 */
final class DeviceOutputs {

    private DeviceOutputs() {
    }

    static void leave(CudaQueryRun run, QueryState state, CudaKernelSource k, CudaQueryRun.Launch l) {
        Pipeline p = k.pipeline();
        registerMappedDictionaries(state, k);
        switch (k.sink()) {
            case SinkLayout.Build b -> {
                Sink.Build build = (Sink.Build) p.sink();
                registerPayloadDictionaries(state, build);
                state.putJoin(build.joinId(), new Intermediate(Intermediate.Kind.JOIN_TABLE, CudaBackend.DEVICE,
                        run.table(build.joinId())));
            }
            case SinkLayout.Rows r -> {
                List<Expr> outputs = Sink.exprs(p.sink()); // a row sink's outputs
                int rel = switch (p.sink()) {
                    case Sink.Materialize m -> m.relationId();
                    case Sink.Sort s -> s.relationId();
                    case Sink.Window w -> w.relationId();
                    default -> throw new IllegalStateException("rows of " + p.sink());
                };
                run.checkDeferredErrors();
                long count = l.tileRows != null ? l.tileRows.readLong(l.tiles * 8) : l.cursor.readLong(0);
                noteRowsReceived(state, p, count);
                DeviceRows made = rows(run, r, l, outputs, count);
                Intermediate part = new Intermediate(Intermediate.Kind.PART, CudaBackend.DEVICE, made);
                boolean last = state.addPart(rel, part);
                if (last && state.partCount(rel) == 1 && p.sink() instanceof Sink.Materialize m && m.offset() == 0
                        && m.fetch() < 0) {
                    // the relation is these rows: it stays on the device until the host reads it
                    Intermediate whole = new Intermediate(Intermediate.Kind.RELATION, CudaBackend.DEVICE,
                            state.takeParts(rel).get(0).value());
                    state.putRelation(rel, whole);
                    run.keepRelation(rel, whole); // for the kernels that read its rows, wherever the host moves it
                } else if (last && state.partCount(rel) == 1 && p.sink() instanceof Sink.Sort s
                        && DeviceRowsSort.sorts(s, made)) {
                    // sorted and cut where they lie: only the LIMIT's rows go to the host, when it reads them
                    state.takeParts(rel);
                    DeviceRows sorted = DeviceRowsSort.sorted(run, made, s, k.genome());
                    state.actuals().rows(p, p.operations().size() + 1, sorted.count()); // the sink's rows, cut
                    state.putRelation(rel, new Intermediate(Intermediate.Kind.RELATION, CudaBackend.DEVICE, sorted));
                } else if (last && state.partCount(rel) == 1 && p.sink() instanceof Sink.Window w) {
                    // sorted by partition and order and the functions computed where the rows lie, for the host or
                    // a later kernel (the placement leaves a WINDOW of one writer on the device)
                    if (!DeviceWindow.windows(w, made)) {
                        throw new GpuFallbacks.Fallback("a WINDOW over more rows than the device sort takes");
                    }
                    DeviceRows windowed = DeviceWindow.evaluate(run, made, w, k.genome());
                    if (windowed == null) {
                        // the JVM's sums raise its error (or, where only a partial sum left the range, give the sum)
                        throw new GpuFallbacks.Fallback("a window SUM outside the 64-bit range or its DECIMAL precision");
                    }
                    state.takeParts(rel);
                    state.actuals().rows(p, p.operations().size() + 1, windowed.count());
                    Intermediate whole = new Intermediate(Intermediate.Kind.RELATION, CudaBackend.DEVICE, windowed);
                    state.putRelation(rel, whole);
                    run.keepRelation(rel, whole);
                }
                // otherwise the host completes the relation (UNION ALL of parts, sort, LIMIT, window) from its parts
            }
            case SinkLayout.Marks m -> {
                // the marks stay with the join table on the device, for the pipelines that scan them
            }
            case SinkLayout.Aggregate a -> {
                int rel = p.sink() instanceof Sink.GroupAggregate ga ? ga.relationId() : ((Sink.Aggregate) p.sink()).relationId();
                GpuGroups.RowLayout layout = GpuGroups.RowLayout.of(p, a, state.relationColumns(rel));
                registerComputedColumns(state, state.relationColumns(rel), layout.dictionaries());
                run.keepGroups(rel, l); // for the kernels that scan the groups (or a scalar one's row) on the device
                boolean sorted = run.plan().sortsOnDevice(rel);
                // groups only kernels scan are read back (compacted first where the table is large) if the host asks
                double expected = p.sink() instanceof Sink.GroupAggregate ga ? ga.estimatedGroups() : 1;
                Intermediate.OnDevice groups = !sorted && run.plan().scansGroups(rel)
                        ? () -> DeviceGroups.of(run, a, l, layout, false, expected).toHost()
                        : DeviceGroups.of(run, a, l, layout, sorted, expected);
                Intermediate made = new Intermediate(Intermediate.Kind.RELATION, CudaBackend.DEVICE, groups);
                state.putRelation(rel, made);
                run.keepRelation(rel, made);
            }
        }
    }

    /**
     * The rows the kernel's sink received, which its count already read back (EXPLAIN ANALYZE): the rows after the
     * pipeline's last operation, and a MATERIALIZE's rows where no LIMIT cuts them. The kernel's operations are
     * not counted one by one.
     */
    private static void noteRowsReceived(QueryState state, Pipeline p, long count) {
        int last = p.operations().size();
        state.actuals().rows(p, last, count);
        if (p.sink() instanceof Sink.Materialize m && m.offset() == 0 && m.fetch() < 0) {
            state.actuals().rows(p, last + 1, count);
        }
    }

    /**
     * The dictionaries of a table's string payload under the keys its probes' outputs name: a payload column on
     * the GPU is a dictionary column (a code), never a computed string.
     */
    private static void registerPayloadDictionaries(QueryState state, Sink.Build b) {
        for (int c = 0; c < b.payload().size(); c++) {
            Expr e = b.payload().get(c);
            if (e instanceof Expr.Ref r && r.slot().dictionaryKey() != null) {
                state.register(DictionaryKeys.payload(b.joinId(), c), state.dictionary(r.slot().dictionaryKey()));
            } else if (e.type().kind() == io.tessera.storage.TypeKind.VARCHAR) {
                throw new IllegalStateException("a table with computed strings was built on the GPU");
            }
        }
    }

    /**
     * The dictionaries of the results of the string functions the kernel computes as maps of codes, under the keys
     * the rows and groups it leaves name ({@link MappedCodes#dictionaryKey}).
     */
    private static void registerMappedDictionaries(QueryState state, CudaKernelSource k) {
        for (KernelParam param : k.params()) {
            if (param.value() instanceof KernelParam.Codes codes) {
                state.register(codes.dictionaryKey(), codes.results());
            }
        }
    }

    /**
     * A relation's string columns whose codes the query computes ('#' keys), under the dictionary of the codes the
     * device left in them, for the pipelines that read them (as the host does for the relations it makes).
     */
    private static void registerComputedColumns(QueryState state, List<ColumnInfo> columns, String[] dictionaries) {
        for (int c = 0; c < columns.size() && c < dictionaries.length; c++) {
            String key = columns.get(c).dictionaryKey();
            if (key != null && dictionaries[c] != null && DictionaryKeys.isComputed(key) && !key.equals(dictionaries[c])) {
                state.register(key, state.dictionary(dictionaries[c]));
            }
        }
    }

    /** A kernel's output rows on the device: one array per column (and NULL flags), their {@code count} read back. */
    private static DeviceRows rows(CudaQueryRun run, SinkLayout.Rows r, CudaQueryRun.Launch l, List<Expr> outputs,
                                   long count) {
        if (count > Integer.MAX_VALUE - 16) {
            throw new GpuFallbacks.Fallback("more than 2^31 result rows");
        }
        int width = r.types().size();
        ValueKind[] kinds = new ValueKind[width];
        String[] dicts = new String[width];
        DeviceBuffer[] columns = new DeviceBuffer[width];
        DeviceBuffer[] nulls = new DeviceBuffer[width];
        for (int c = 0; c < width; c++) {
            Expr e = outputs.get(c);
            kinds[c] = ValueKind.stored(e.type());
            dicts[c] = CodeDictionaries.of(e);
            columns[c] = l.outputs.get(c);
            nulls[c] = l.outNulls.get(c);
        }
        return new DeviceRows(run, List.copyOf(r.types()), kinds, dicts, columns, nulls, (int) count);
    }
}

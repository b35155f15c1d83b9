package io.tessera.backend.cuda.exec;

import io.tessera.backend.Backend;
import io.tessera.backend.PlacementRound;
import io.tessera.backend.QueryState;
import io.tessera.backend.ValueKind;
import io.tessera.backend.cuda.driver.CudaKernel;
import io.tessera.backend.cuda.gen.CType;
import io.tessera.backend.cuda.gen.CudaKernelSource;
import io.tessera.backend.cuda.gen.GpuPlacement;
import io.tessera.backend.cuda.gen.GpuUnsupported;
import io.tessera.backend.cuda.gen.ModelBytes;
import io.tessera.backend.cuda.gen.ScannedGroups;
import io.tessera.backend.cuda.gen.SinkLayout;
import io.tessera.backend.cuda.runtime.GpuRuntime;
import io.tessera.plan.AggCall;
import io.tessera.plan.DictionaryKeys;
import io.tessera.plan.Expr;
import io.tessera.plan.Pipeline;
import io.tessera.plan.QueryPlan;
import io.tessera.plan.Sink;
import io.tessera.plan.Source;
import io.tessera.storage.Database;
import io.tessera.storage.Dictionary;
import io.tessera.storage.TypeKind;
import io.tessera.variant.CudaVariantSpace;
import io.tessera.variant.Genome;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.IntFunction;

/**
 * The GPU side of a query: its CUDA genomes, which pipelines have kernels (and why the others do not), and the
 * kernels loaded for the pipelines placed on the GPU. Of the pipelines that read intermediate results, those that
 * sort and cut the groups of an aggregation here run here too ({@link DeviceSort}), those that build a join
 * table from them, aggregate them, write rows from them (a HAVING's filter) or mark a join table's rows with them
 * (MARKS) have kernels that scan the group table ({@code GroupScan}), and the others
 * that read a relation a kernel here left on the device read its rows as columns ({@link RelationColumns}); a
 * table scan that cannot run on the GPU is worth a notice.
 */
public final class GpuPlan implements Backend.Query {

    private final GpuRuntime rt;
    private final QueryPlan plan;
    private final Map<Integer, Genome> genomes;
    private final GpuPlacement.Rounds rounds;
    /**
     * The kernels of the last round of placement that ended, and why the other pipelines have none (null before
     * the first); volatile, as the fields below, since a query placed on one thread may run on another.
     */
    private volatile GpuPlacement placement;
    /**
     * Per pipeline that reads a relation and has no kernel: null when it only sorts the groups of an aggregation
     * here and runs here ({@link DeviceSort}), else why not. Decided with the placement.
     */
    private volatile Map<Integer, String> sortReasons = new HashMap<>();
    /** The relations whose groups a pipeline here sorts on the device. */
    private volatile Set<Integer> sortedHere = new HashSet<>();
    private final Map<Integer, CudaKernel> kernels = new LinkedHashMap<>();
    private volatile String notice;
    /** The CUDA graphs of its pipelines' device work, kept across runs (under {@link PipelineGraphs#PROPERTY}). */
    private final PipelineGraphs graphs = new PipelineGraphs();
    private double compileMillis;

    PipelineGraphs graphs() {
        return graphs;
    }

    GpuPlan(GpuRuntime rt, Database db, QueryPlan plan, Map<Integer, Genome> genomes) {
        this.rt = rt;
        this.plan = plan;
        this.genomes = genomes;
        this.rounds = new GpuPlacement.Rounds(plan, genomes, key -> dictionary(db, key));
    }

    /**
     * A round of placement: the kernel round's answer ({@link GpuPlacement.Round}), refused where the kernel's sink
     * leaves other types than the query's; a pipeline that only sorts the groups of an aggregation here runs here,
     * sorting them on the device rather than reading them back as rows into a kernel of its own. The round that
     * ends last is the plan's placement.
     */
    @Override
    public PlacementRound placementRound() {
        GpuPlacement.Round kernelRound = rounds.next();
        return new PlacementRound() {
            private final Map<Integer, CudaKernelSource> usable = new LinkedHashMap<>();
            private final Map<Integer, String> noKernel = new LinkedHashMap<>();
            private final Map<Integer, String> sorts = new HashMap<>();
            private final Set<Integer> sorted = new HashSet<>();

            @Override
            public String accepts(Pipeline p, IntFunction<String> placed) {
                String why = kernelRound.accepts(p, placed);
                CudaKernelSource k = kernelRound.kernels().get(p.id());
                if (why == null) {
                    // the kernel stays in the kernel round's view, as the tables and groups it makes do
                    why = sinkMismatch(k);
                }
                if (why == null) {
                    usable.put(p.id(), k);
                } else {
                    noKernel.put(p.id(), why);
                }
                if (!(p.source() instanceof Source.RelationScan rs)) {
                    return why;
                }
                String sortWhy = DeviceSort.unsupported(plan, p, new GpuPlacement(usable, noKernel));
                if (sortWhy == null) {
                    usable.remove(p.id());
                    sorted.add(rs.relationId());
                }
                if (!usable.containsKey(p.id())) {
                    sorts.put(p.id(), sortWhy);
                    return sortWhy;
                }
                return null;
            }

            @Override
            public void finish(Map<Integer, String> hostReasons) {
                Map<Integer, String> reasons = new LinkedHashMap<>(hostReasons);
                reasons.keySet().removeAll(sorts.keySet());
                reasons.putAll(noKernel);
                adopt(new GpuPlacement(usable, reasons), sorts, sorted);
            }
        };
    }

    /** The placement a round ended with, and the notice it gives. */
    private void adopt(GpuPlacement placed, Map<Integer, String> sorts, Set<Integer> sorted) {
        this.placement = placed;
        this.sortReasons = sorts;
        this.sortedHere = sorted;
        List<String> scans = new ArrayList<>();
        for (Pipeline p : plan.pipelines()) {
            String why = placed.jvmReasons().get(p.id());
            if (why != null && p.source() instanceof Source.TableScan) {
                scans.add("pipeline " + p.id() + " (" + p.source() + "): " + why);
            }
        }
        if (placed.kernels().isEmpty()) {
            notice = "ran on the JVM: no pipeline of this query has GPU code" + (scans.isEmpty() ? "" : "; " + scans.get(0));
        } else if (!scans.isEmpty()) {
            notice = "part ran on the JVM: " + String.join("; ", scans);
        } else {
            notice = null;
        }
    }

    /**
     * The GPU side of a query as placement sees it, on any machine: which pipelines can run on a GPU and why the
     * others cannot. It prepares and runs nothing (EXPLAIN's and the tests' view without a GPU).
     */
    public static GpuPlan placementOnly(Database db, QueryPlan plan, Map<Integer, Genome> genomes) {
        return new GpuPlan(null, db, plan, genomes);
    }

    /** Every pipeline's CUDA genome: the defaults, {@code overrides} (null: none) over them, completed. */
    public static Map<Integer, Genome> genomes(QueryPlan plan, Map<Integer, Genome> overrides) {
        Map<Integer, Genome> genomes = CudaVariantSpace.INSTANCE.defaults(plan);
        if (overrides != null) {
            Map<Integer, Genome> free = new LinkedHashMap<>(genomes);
            free.putAll(overrides);
            genomes = CudaVariantSpace.INSTANCE.completeAll(plan, free);
        }
        return genomes;
    }

    /**
     * Null when what the kernel's sink leaves is what the query's SQL types say (a row's column in its type's
     * stored width, an aggregate accumulated as a double exactly when its argument is one), else why not: the
     * relations the GPU makes are read by the JVM's pipelines as the SQL types lay them out.
     */
    private static String sinkMismatch(CudaKernelSource k) {
        Sink sink = k.pipeline().sink();
        if (k.sink() instanceof SinkLayout.Rows rows) {
            List<Expr> outputs = Sink.exprs(sink); // a row sink's outputs
            for (int c = 0; c < rows.types().size(); c++) {
                ValueKind stored = ValueKind.stored(outputs.get(c).type());
                CType t = rows.types().get(c);
                boolean same = switch (t) {
                    case INT -> stored == ValueKind.INT || stored == ValueKind.CODE;
                    case LONG -> stored == ValueKind.LONG;
                    case DOUBLE -> stored == ValueKind.DOUBLE;
                    case BOOL -> stored == ValueKind.BOOL;
                };
                if (!same) {
                    return "output column " + c + " is " + t + " on the GPU but " + outputs.get(c).type() + " in the query";
                }
            }
        }
        if (k.sink() instanceof SinkLayout.Aggregate a) {
            List<AggCall> calls = sink instanceof Sink.GroupAggregate ga ? ga.aggs() : ((Sink.Aggregate) sink).aggs();
            int i = ScannedGroups.firstNotAsDeclared(calls, a);
            if (i >= 0) {
                return "aggregate " + i + " is accumulated as " + a.aggs().get(i).valueType() + " on the GPU";
            }
        }
        return null;
    }

    /** The dictionary of a stored column by its key ({@code table.column}); computed keys have no GPU code. */
    public static Dictionary dictionary(Database db, String key) {
        int dot = key.indexOf('.');
        if (DictionaryKeys.isComputed(key) || dot < 0 || !db.hasTable(key.substring(0, dot))) {
            throw new GpuUnsupported("strings computed by the query (" + key + ")");
        }
        return db.table(key.substring(0, dot)).column(key.substring(dot + 1)).dictionary();
    }

    /** Null when pipeline {@code pipelineId} runs here under the placement, else why not. */
    public String unsupported(int pipelineId) {
        if (placement.onGpu(pipelineId)) {
            return null;
        }
        if (sortReasons.containsKey(pipelineId)) {
            return sortReasons.get(pipelineId);
        }
        String why = placement.jvmReasons().get(pipelineId);
        return why == null ? "no GPU code" : why;
    }

    /** Whether a pipeline that can run here sorts relation {@code rel}, the groups of an aggregation here. */
    boolean sortsOnDevice(int rel) {
        return sortedHere.contains(rel);
    }

    /** Whether a kernel here scans relation {@code rel}, the groups of an aggregation here. */
    boolean scansGroups(int rel) {
        return placement.kernels().values().stream().anyMatch(k -> k.pipeline().source() instanceof Source.RelationScan rs
                && rs.relationId() == rel);
    }

    /** Whether pipeline {@code id} sorts the groups of an aggregation here, on the device. */
    private boolean sortsGroups(int id) {
        return sortReasons.containsKey(id) && sortReasons.get(id) == null;
    }

    private Pipeline pipeline(int id) {
        for (Pipeline p : plan.pipelines()) {
            if (p.id() == id) {
                return p;
            }
        }
        throw new IllegalArgumentException("no pipeline " + id);
    }

    /** Compiles (NVRTC, or the disk cache) and loads the kernels of these pipelines, in parallel. */
    @Override
    public synchronized void prepare(Collection<Pipeline> pipelines) {
        if (rt == null) {
            throw new IllegalStateException("a GPU plan made for placement only cannot be prepared");
        }
        if (placement == null) {
            throw new IllegalStateException("a GPU plan is prepared after its placement (Backend.Query.placementRound)");
        }
        long t0 = System.nanoTime();
        List<CudaKernelSource> fresh = new ArrayList<>();
        for (Pipeline p : pipelines) {
            CudaKernelSource k = placement.kernels().get(p.id());
            if (k == null && sortsGroups(p.id())) {
                continue; // a sort of groups: the runtime's kernels
            }
            if (k == null) {
                throw new IllegalArgumentException("pipeline " + p.id() + " has no GPU code: " + unsupported(p.id()));
            }
            if (!kernels.containsKey(p.id())) {
                fresh.add(k);
            }
        }
        List<String[]> sources = new ArrayList<>();
        for (CudaKernelSource k : fresh) {
            sources.add(new String[] {k.source(), k.kernelName(), k.fileName()});
        }
        if (fresh.stream().anyMatch(k -> k.sink() instanceof SinkLayout.Build b && b.table().sorted())) {
            // a sorted join table's keys are sorted (and indexed) by the sort module's kernels: loaded with the query's
            rt.largeSort();
        }
        List<CudaKernel> loaded = sources.isEmpty() ? List.of() : rt.kernels(sources);
        for (int i = 0; i < fresh.size(); i++) {
            kernels.put(fresh.get(i).pipeline().id(), loaded.get(i));
        }
        compileMillis += (System.nanoTime() - t0) / 1e6;
    }

    @Override
    public void run(Pipeline pipeline, QueryState state) {
        CudaQueryRun run = state.deviceState(CudaBackend.DEVICE, CudaQueryRun.class,
                () -> new CudaQueryRun(rt, this, state.option(GpuBlocks.class), state.cancel(),
                        state.option(io.tessera.backend.KernelTiming.class) != null));
        if (pipeline.source() instanceof Source.RelationScan && !placement.onGpu(pipeline.id())) {
            DeviceSort.run(run, state, pipeline, genomes.get(pipeline.id()));
        } else {
            run.run(pipeline.id(), state);
        }
    }

    /** Pipeline {@code id}'s CUDA genome as EXPLAIN shows it: a sort of groups has no kernel, hence no genome. */
    @Override
    public String genomeText(int id) {
        return placement.onGpu(id) ? String.valueOf(genomes.get(id)) : "no kernel of its own";
    }

    /** How pipeline {@code id}'s output is laid out on the device, for EXPLAIN (null: nothing to say). */
    @Override
    public String describeOutput(int id) {
        CudaKernelSource k = placement.kernels().get(id);
        return k != null ? k.sink().describe() : "sorted on the device after pipeline "
                + DeviceSort.groupsRead(plan, pipeline(id)).id() + "'s groups";
    }

    /** The bytes the bandwidth model of the thesis charges the loaded kernels. */
    public long modelBytesTotal() {
        return model().total();
    }

    @Override
    public long modelBytes() {
        return modelBytesTotal();
    }

    @Override
    public long kernelNanos(QueryState state) {
        return CudaBackend.kernelNanos(state);
    }

    @Override
    public long uploadNanos(QueryState state) {
        return CudaBackend.uploadNanos(state);
    }

    /** The CUDA source that runs pipeline {@code id} here (EXPLAIN CODE). */
    @Override
    public String source(int id) {
        CudaKernelSource k = placement.kernels().get(id);
        if (k != null) {
            return k.source();
        }
        if (!sortsGroups(id)) {
            throw new IllegalArgumentException("pipeline " + id + " does not run on the GPU: " + unsupported(id));
        }
        Pipeline p = pipeline(id);
        return "// pipeline " + id + ": " + p.sink() + "\n// sorted by the kernels tessera_sort_keys3 and tessera_sort_small of "
                + "tessera_query.cuh over the groups of pipeline " + DeviceSort.groupsRead(plan, p).id()
                + ", compacted on the device\n";
    }

    public Map<Integer, Genome> genomes() {
        return genomes;
    }

    /** Which pipelines have GPU code, and why the others have none. */
    public GpuPlacement placement() {
        return placement;
    }

    /** The loaded kernels, by pipeline. */
    public Map<Integer, CudaKernel> kernels() {
        return kernels;
    }

    public synchronized double compileMillis() {
        return compileMillis;
    }

    /** Why a GPU that was asked for is not (fully) used, else null. */
    @Override
    public String notice() {
        return notice;
    }

    /** The pipelines whose kernels are loaded (those placed on the GPU). */
    public int gpuPipelines() {
        return kernels.size();
    }

    /** The bytes the loaded kernels must read. */
    @Override
    public long bytesRead() {
        long b = 0;
        for (int id : kernels.keySet()) {
            b += placement.kernels().get(id).bytesRead();
        }
        return b;
    }

    /** What the thesis's per-query model charges the loaded kernels, added up. */
    public ModelBytes model() {
        ModelBytes m = ModelBytes.NONE;
        for (int id : kernels.keySet()) {
            m = m.plus(placement.kernels().get(id).model());
        }
        return m;
    }
}

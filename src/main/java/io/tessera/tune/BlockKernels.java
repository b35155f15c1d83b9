package io.tessera.tune;

import io.tessera.backend.cuda.gen.CudaKernelSource;
import io.tessera.backend.cuda.gen.GpuPlacement;
import io.tessera.backend.cuda.exec.GpuBlocks;
import io.tessera.backend.cuda.exec.GpuPlan;
import io.tessera.backend.cuda.runtime.GpuRuntime;
import io.tessera.plan.QueryPlan;
import io.tessera.storage.Database;
import io.tessera.variant.Genome;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The kernels of the tuned pipeline's block genomes, emitted, compiled and loaded when a tuner first asks for
 * one. A miss compiles, in parallel, the kernel asked for, those the tuner says it will ask for next, and those one
 * step away from it in the space (a descent's next steps); the rest of the batch waits in the disk cache and
 * loads when asked for.
 */
final class BlockKernels {

    private final Database db;
    private final QueryPlan plan;
    private final TuningSpace space;
    private final Map<Genome, GpuBlocks.Kernel> loaded = new HashMap<>();
    /** The runtime of the tuned engine's GPU, which compiles and loads the kernels. */
    private final GpuRuntime rt;
    /** Sources compiled into the disk cache, by focus genome. */
    private final Map<Genome, CudaKernelSource> compiled = new HashMap<>();

    BlockKernels(GpuRuntime rt, Database db, QueryPlan plan, TuningSpace space) {
        this.rt = rt;
        this.db = db;
        this.plan = plan;
        this.space = space;
    }

    /** The loaded kernel of assignment {@code a}, compiling it with {@code upcoming} and its neighbours if new. */
    GpuBlocks.Kernel get(Map<Integer, Genome> a, List<Map<Integer, Genome>> upcoming) {
        Genome g = space.focusGenome(a);
        GpuBlocks.Kernel k = loaded.get(g);
        if (k != null) {
            return k;
        }
        if (!compiled.containsKey(g)) {
            List<Map<Integer, Genome>> batch = new ArrayList<>();
            batch.add(a);
            batch.addAll(upcoming);
            batch.addAll(space.neighbours(a, space.knobs()));
            compile(batch);
        }
        CudaKernelSource s = compiled.get(g);
        k = new GpuBlocks.Kernel(g, s, rt.kernel(s.source(), s.kernelName(), s.fileName()));
        loaded.put(g, k);
        return k;
    }

    private void compile(List<Map<Integer, Genome>> batch) {
        Map<Genome, CudaKernelSource> fresh = new LinkedHashMap<>();
        for (Map<Integer, Genome> a : batch) {
            Genome g = space.focusGenome(a);
            if (!compiled.containsKey(g) && !fresh.containsKey(g)) {
                fresh.put(g, source(a));
            }
        }
        // genomes that differ only in their grid share a source
        Map<String, String[]> sources = new LinkedHashMap<>();
        for (CudaKernelSource s : fresh.values()) {
            sources.putIfAbsent(s.source(), new String[] {s.source(), s.kernelName(), s.fileName()});
        }
        rt.compile(new ArrayList<>(sources.values()));
        compiled.putAll(fresh);
    }

    /** The tuned pipeline's kernel under assignment {@code a}, the other pipelines as in the space's start. */
    CudaKernelSource source(Map<Integer, Genome> a) {
        Map<Integer, Genome> genomes = GpuPlan.genomes(plan, space.complete(a));
        GpuPlacement placed = GpuPlacement.place(plan, genomes, key -> GpuPlan.dictionary(db, key));
        CudaKernelSource s = placed.kernels().get(space.focus());
        if (s == null) {
            throw new IllegalStateException("pipeline " + space.focus() + " has no GPU code under "
                    + genomes.get(space.focus()) + ": " + placed.jvmReasons().get(space.focus()));
        }
        return s;
    }
}

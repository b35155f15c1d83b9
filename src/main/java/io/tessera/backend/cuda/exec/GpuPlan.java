package io.tessera.backend.cuda.exec;

import io.tessera.backend.cuda.CudaKernel;
import io.tessera.backend.cuda.gen.CType;
import io.tessera.backend.cuda.gen.CudaKernelSource;
import io.tessera.backend.cuda.gen.GpuPlacement;
import io.tessera.backend.cuda.gen.SinkLayout;
import io.tessera.backend.cuda.runtime.GpuRuntime;
import io.tessera.backend.jvm.EmittedPipeline;
import io.tessera.backend.jvm.JKind;
import io.tessera.backend.jvm.JvmExecutor;
import io.tessera.plan.DictionaryKeys;
import io.tessera.plan.Pipeline;
import io.tessera.plan.QueryPlan;
import io.tessera.plan.Source;
import io.tessera.storage.Database;
import io.tessera.storage.Dictionary;
import io.tessera.variant.CudaVariantSpace;
import io.tessera.variant.Genome;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The GPU side of a prepared query: its CUDA genomes, which pipelines run as kernels (and why the others do not),
 * and the loaded kernels. Pipelines that read intermediate results (a final sort of a few groups) stay on the JVM
 * by design; a table scan that cannot run on the GPU is worth a notice.
 */
public record GpuPlan(Map<Integer, Genome> genomes, GpuPlacement placement, Map<Integer, CudaKernel> kernels,
                      double compileMillis, String notice) {

    /** Emits, compiles and loads the kernels of a plan; throws a CudaException when the GPU cannot be used. */
    public static GpuPlan prepare(GpuRuntime rt, Database db, QueryPlan plan, JvmExecutor.CompiledQuery jvm,
                           Map<Integer, Genome> overrides) {
        Map<Integer, Genome> genomes = genomes(plan, overrides);
        GpuPlacement placement = GpuPlacement.place(plan, genomes, key -> dictionary(db, key));
        Map<Integer, String> reasons = new LinkedHashMap<>(placement.jvmReasons());
        // the JVM backend finishes what a kernel leaves: its sink state must be laid out alike
        Map<Integer, CudaKernelSource> usable = new LinkedHashMap<>();
        for (EmittedPipeline e : jvm.pipelines()) {
            CudaKernelSource k = placement.kernels().get(e.pipeline().id());
            if (k == null) {
                continue;
            }
            String mismatch = sinkMismatch(k, e);
            if (mismatch != null) {
                reasons.put(e.pipeline().id(), mismatch);
            } else {
                usable.put(e.pipeline().id(), k);
            }
        }
        GpuPlacement checked = new GpuPlacement(usable, reasons);
        long t0 = System.nanoTime();
        Map<Integer, CudaKernel> kernels = new LinkedHashMap<>();
        List<String[]> sources = new ArrayList<>();
        for (CudaKernelSource k : usable.values()) {
            sources.add(new String[] {k.source(), k.kernelName(), k.fileName()});
        }
        List<CudaKernel> loaded = rt.kernels(sources);
        int i = 0;
        for (CudaKernelSource k : usable.values()) {
            kernels.put(k.pipeline().id(), loaded.get(i++));
        }
        double ms = (System.nanoTime() - t0) / 1e6;
        List<String> scans = new ArrayList<>();
        for (Pipeline p : plan.pipelines()) {
            String why = reasons.get(p.id());
            if (why != null && p.source() instanceof Source.TableScan) {
                scans.add("pipeline " + p.id() + " (" + p.source() + "): " + why);
            }
        }
        String notice = null;
        if (usable.isEmpty()) {
            notice = "ran on the JVM: no pipeline of this query has GPU code" + (scans.isEmpty() ? "" : "; " + scans.get(0));
        } else if (!scans.isEmpty()) {
            notice = "part ran on the JVM: " + String.join("; ", scans);
        }
        return new GpuPlan(genomes, checked, kernels, ms, notice);
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

    /** Null when the kernel's sink leaves what the JVM's finishing step expects, else why not. */
    private static String sinkMismatch(CudaKernelSource k, EmittedPipeline e) {
        if (k.sink() instanceof SinkLayout.Rows rows) {
            for (int c = 0; c < rows.types().size(); c++) {
                JKind j = e.bufferKinds()[c];
                CType t = rows.types().get(c);
                boolean same = switch (t) {
                    case INT -> j == JKind.INT || j == JKind.CODE;
                    case LONG -> j == JKind.LONG;
                    case DOUBLE -> j == JKind.DOUBLE;
                    case BOOL -> j == JKind.BOOL;
                };
                if (!same) {
                    return "output column " + c + " is held as " + j + " on the JVM";
                }
            }
        }
        if (k.sink() instanceof SinkLayout.Aggregate a) {
            for (int i = 0; i < a.aggs().size(); i++) {
                SinkLayout.Agg g = a.aggs().get(i);
                boolean jvmDouble = e.aggs()[i].doubleValue();
                if (g.valueType() != null && (g.valueType() == CType.DOUBLE) != jvmDouble) {
                    return "aggregate " + i + " is accumulated in another type on the JVM";
                }
            }
        }
        return null;
    }

    /** The dictionary of a stored column by its key ({@code table.column}); computed keys have no GPU code. */
    public static Dictionary dictionary(Database db, String key) {
        int dot = key.indexOf('.');
        if (DictionaryKeys.isComputed(key) || dot < 0 || !db.hasTable(key.substring(0, dot))) {
            throw new io.tessera.backend.cuda.gen.GpuUnsupported("strings computed by the query (" + key + ")");
        }
        return db.table(key.substring(0, dot)).column(key.substring(dot + 1)).dictionary();
    }

    public int gpuPipelines() {
        return kernels.size();
    }

    public long bytesRead() {
        long b = 0;
        for (CudaKernelSource k : placement.kernels().values()) {
            b += k.bytesRead();
        }
        return b;
    }

    /** What the thesis's per-query model charges the kernels, added up. */
    public io.tessera.backend.cuda.gen.ModelBytes model() {
        io.tessera.backend.cuda.gen.ModelBytes m = io.tessera.backend.cuda.gen.ModelBytes.NONE;
        for (CudaKernelSource k : placement.kernels().values()) {
            m = m.plus(k.model());
        }
        return m;
    }
}

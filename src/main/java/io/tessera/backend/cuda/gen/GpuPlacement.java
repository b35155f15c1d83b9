package io.tessera.backend.cuda.gen;

import io.tessera.plan.Operation;
import io.tessera.plan.Pipeline;
import io.tessera.plan.QueryPlan;
import io.tessera.plan.Sink;
import io.tessera.storage.Dictionary;
import io.tessera.variant.Genome;

import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * Which pipelines of a plan run as CUDA kernels and which on the JVM, and why: a pipeline runs on the GPU when it
 * scans a table and every operator it holds has CUDA code; a BUILD runs there only when every pipeline that probes
 * its table does too (the table lives on the device), and a probe of a table built on the JVM stays on the JVM.
 */
public record GpuPlacement(Map<Integer, CudaKernelSource> kernels, Map<Integer, String> jvmReasons) {

    public boolean onGpu(int pipelineId) {
        return kernels.containsKey(pipelineId);
    }

    public static GpuPlacement place(QueryPlan plan, Map<Integer, Genome> genomes, Function<String, Dictionary> dictionaries) {
        Set<Integer> forcedJvm = new HashSet<>();
        Map<Integer, String> forcedReasons = new HashMap<>();
        while (true) {
            Map<Integer, CudaKernelSource> kernels = new LinkedHashMap<>();
            Map<Integer, String> reasons = new LinkedHashMap<>(forcedReasons);
            Map<Integer, JoinLayout> layouts = new HashMap<>();
            CudaPipelineEmitter.Context ctx = new CudaPipelineEmitter.Context() {
                @Override
                public Dictionary dictionary(String key) {
                    return dictionaries.apply(key);
                }

                @Override
                public JoinLayout join(int joinId) {
                    return layouts.get(joinId);
                }
            };
            for (Pipeline p : plan.pipelines()) {
                if (forcedJvm.contains(p.id())) {
                    continue;
                }
                try {
                    CudaKernelSource k = CudaPipelineEmitter.emit(p, genomes.get(p.id()), ctx);
                    kernels.put(p.id(), k);
                    if (k.sink() instanceof SinkLayout.Build b) {
                        layouts.put(b.table().joinId(), b.table());
                    }
                } catch (GpuUnsupported e) {
                    reasons.put(p.id(), e.getMessage());
                }
            }
            // a table built on the GPU but probed on the JVM would be needed on the host: build it there instead
            boolean changed = false;
            for (Pipeline p : plan.pipelines()) {
                if (kernels.containsKey(p.id()) || forcedJvm.contains(p.id())) {
                    continue;
                }
                for (Operation op : p.operations()) {
                    if (op instanceof Operation.Probe probe) {
                        Pipeline build = builder(plan, probe.joinId());
                        if (build != null && kernels.containsKey(build.id())) {
                            forcedJvm.add(build.id());
                            forcedReasons.put(build.id(), "its table j" + probe.joinId() + " is probed by pipeline " + p.id()
                                    + ", which runs on the JVM");
                            changed = true;
                        }
                    }
                }
            }
            if (!changed) {
                return new GpuPlacement(kernels, reasons);
            }
        }
    }

    private static Pipeline builder(QueryPlan plan, int joinId) {
        for (Pipeline p : plan.pipelines()) {
            if (p.sink() instanceof Sink.Build b && b.joinId() == joinId) {
                return p;
            }
        }
        return null;
    }
}

package io.tessera.backend.cuda.gen;

import io.tessera.plan.Operation;
import io.tessera.plan.Pipeline;
import io.tessera.plan.QueryPlan;
import io.tessera.plan.Sink;
import io.tessera.plan.Source;
import io.tessera.storage.Dictionary;
import io.tessera.variant.Genome;

import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * Which pipelines of a plan run as CUDA kernels and which on the JVM, and why: a pipeline runs on the GPU when
 * {@link CudaCapabilities} finds CUDA code for everything it holds (then it is emitted); a BUILD runs there only when every pipeline that probes
 * or scans its table does too (the table lives on the device), and a probe of a table built on the JVM stays on the JVM.
 */
public record GpuPlacement(Map<Integer, CudaKernelSource> kernels, Map<Integer, String> jvmReasons) {

    public boolean onGpu(int pipelineId) {
        return kernels.containsKey(pipelineId);
    }

    public static GpuPlacement place(QueryPlan plan, Map<Integer, Genome> genomes, Function<String, Dictionary> dictionaries) {
        Set<Integer> forcedJvm = new HashSet<>();
        Map<Integer, String> forcedReasons = new HashMap<>();
        // the first reason each pipeline was refused for: a later round may refuse it only because a table it
        // probes moved to the JVM for its sake, which would hide the cause
        Map<Integer, String> firstReasons = new HashMap<>();
        while (true) {
            Map<Integer, CudaKernelSource> kernels = new LinkedHashMap<>();
            Map<Integer, String> reasons = new LinkedHashMap<>(forcedReasons);
            Map<Integer, JoinLayout> layouts = new HashMap<>();
            Map<Integer, ScannedGroups> groups = new HashMap<>();
            CudaPipelineEmitter.Context ctx = new CudaPipelineEmitter.Context() {
                @Override
                public Dictionary dictionary(String key) {
                    return dictionaries.apply(key);
                }

                @Override
                public JoinLayout join(int joinId) {
                    return layouts.get(joinId);
                }

                @Override
                public ScannedGroups groups(int relationId) {
                    return groups.get(relationId);
                }

                @Override
                public boolean relationOnDevice(int relationId) {
                    return leftOnDevice(plan, relationId, kernels);
                }
            };
            for (Pipeline p : plan.pipelines()) {
                if (forcedJvm.contains(p.id())) {
                    continue;
                }
                Genome genome = genomes.get(p.id());
                String why = CudaCapabilities.reason(p, genome, layouts::get, groups::get, ctx::relationOnDevice,
                        dictionaries);
                if (why != null && p.source() instanceof Source.RelationScan rs && writers(plan, rs.relationId()) > 1
                        && GroupScan.endsInTableOrAggregate(p)) {
                    why = "it reads r" + rs.relationId() + ", which " + writers(plan, rs.relationId())
                            + " pipelines write (the GPU scans the groups of one aggregation)";
                }
                if (why == null && p.source() instanceof Source.JoinTableScan js && builder(plan, js.joinId()) != null
                        && builder(plan, js.joinId()).sink() instanceof Sink.Build b && !b.uniqueKeys()
                        && !ChainedRows.chains(b)) {
                    // a table of the distinct keys alone: a scan would see each repeated key once
                    why = "it scans join table j" + js.joinId() + ", whose keys may repeat and which keeps no rows";
                }
                if (why != null) {
                    firstReasons.putIfAbsent(p.id(), why);
                    reasons.put(p.id(), firstReasons.get(p.id()));
                    continue;
                }
                CudaKernelSource k = emit(p, genome, ctx);
                kernels.put(p.id(), k);
                if (k.sink() instanceof SinkLayout.Build b) {
                    layouts.put(b.table().joinId(), b.table());
                }
                if (k.sink() instanceof SinkLayout.Aggregate a && p.sink() instanceof Sink.GroupAggregate ga
                        && writers(plan, ga.relationId()) == 1 && ScannedGroups.accumulatedAsDeclared(ga.aggs(), a)) {
                    // its groups stay on the device, where later kernels may scan them
                    groups.put(ga.relationId(), new ScannedGroups(p, a));
                }
                if (k.sink() instanceof SinkLayout.Aggregate a && p.sink() instanceof Sink.Aggregate sa
                        && writers(plan, sa.relationId()) == 1 && ScannedGroups.accumulatedAsDeclared(sa.aggs(), a)) {
                    groups.put(sa.relationId(), new ScannedGroups(p, a)); // its one row, likewise
                }
            }
            // a table built on the GPU but probed on the JVM would be needed on the host: build it there instead
            boolean changed = false;
            for (Pipeline p : plan.pipelines()) {
                if (kernels.containsKey(p.id()) || forcedJvm.contains(p.id())) {
                    continue;
                }
                if (p.source() instanceof Source.JoinTableScan js) {
                    Pipeline build = builder(plan, js.joinId());
                    if (build != null && kernels.containsKey(build.id())) {
                        forcedJvm.add(build.id());
                        forcedReasons.put(build.id(), "its table j" + js.joinId() + " is scanned by pipeline " + p.id()
                                + ", which runs on the JVM");
                        changed = true;
                    }
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

    /** The kernel of a pipeline the capability check accepted: the expression generator must have its code. */
    private static CudaKernelSource emit(Pipeline p, Genome genome, CudaPipelineEmitter.Context ctx) {
        try {
            return CudaPipelineEmitter.emit(p, genome, ctx);
        } catch (GpuUnsupported e) {
            throw new IllegalStateException("pipeline " + p.id() + " passed the CUDA capability check, yet its code "
                    + "generator has none for " + e.getMessage(), e);
        }
    }

    /**
     * Whether relation {@code relationId} stays on the device where {@code kernels} (the kernels emitted so far) make
     * it: its one writer has a kernel whose sink leaves it there, all of a MATERIALIZE's rows (without LIMIT or
     * OFFSET, which the host applies) or an aggregation's groups. A SORT's rows, and a relation of several writers
     * (a UNION ALL), the host completes.
     */
    private static boolean leftOnDevice(QueryPlan plan, int relationId, Map<Integer, CudaKernelSource> kernels) {
        if (writers(plan, relationId) != 1) {
            return false;
        }
        for (Pipeline w : plan.pipelines()) {
            boolean stays = switch (w.sink()) {
                case Sink.Materialize m -> m.relationId() == relationId && m.offset() == 0 && m.fetch() < 0;
                case Sink.GroupAggregate ga -> ga.relationId() == relationId;
                case Sink.Aggregate a -> a.relationId() == relationId;
                default -> false;
            };
            if (stays) {
                return kernels.containsKey(w.id());
            }
        }
        return false;
    }

    /** The pipelines that write relation {@code relationId} (a UNION ALL's parts have several). */
    private static long writers(QueryPlan plan, int relationId) {
        return plan.pipelines().stream().filter(p -> switch (p.sink()) {
            case Sink.GroupAggregate ga -> ga.relationId() == relationId;
            case Sink.Aggregate a -> a.relationId() == relationId;
            case Sink.Materialize m -> m.relationId() == relationId;
            case Sink.Sort s -> s.relationId() == relationId;
            case Sink.Window w -> w.relationId() == relationId;
            case Sink.Build b -> false;
            case Sink.Marks m -> false;
        }).count();
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

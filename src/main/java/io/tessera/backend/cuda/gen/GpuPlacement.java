package io.tessera.backend.cuda.gen;

import io.tessera.backend.DevicePlacement;
import io.tessera.backend.PlacementRound;
import io.tessera.plan.Pipeline;
import io.tessera.plan.QueryPlan;
import io.tessera.plan.Sink;
import io.tessera.plan.Source;
import io.tessera.storage.Dictionary;
import io.tessera.variant.Genome;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Function;
import java.util.function.IntFunction;

/**
 * Which pipelines of a plan run as CUDA kernels and which on the JVM, and why, as the GPU's rounds of placement
 * decide it ({@link DevicePlacement#askRounds}): a pipeline runs on the GPU when {@link CudaCapabilities} finds CUDA
 * code for everything it holds (then it is emitted); a BUILD runs there only when every pipeline that probes or scans
 * its table does too (the table lives on the device), and a probe of a table built on the JVM stays on the JVM.
 */
public record GpuPlacement(Map<Integer, CudaKernelSource> kernels, Map<Integer, String> jvmReasons) {

    /** The device name the rounds answer for (the CUDA backend's). */
    private static final String DEVICE = "cuda";

    public boolean onGpu(int pipelineId) {
        return kernels.containsKey(pipelineId);
    }

    /** The GPU's rounds alone, without the placement's later moves to the host (the tuners' and tests' view). */
    public static GpuPlacement place(QueryPlan plan, Map<Integer, Genome> genomes, Function<String, Dictionary> dictionaries) {
        Rounds rounds = new Rounds(plan, genomes, dictionaries);
        DevicePlacement.Placed placed = DevicePlacement.askRounds(plan, DEVICE, rounds::next);
        return new GpuPlacement(rounds.latest().kernels(), placed.hostReasons());
    }

    /**
     * One query's rounds of placement on the GPU ({@link DevicePlacement#askRounds}): each round emits the kernels of
     * the pipelines it accepts afresh; the first reason each pipeline was refused for is kept across them, since a
     * later round may refuse it only because a table it probes moved to the JVM for its sake, which would hide the
     * cause.
     */
    public static final class Rounds {
        private final QueryPlan plan;
        private final Map<Integer, Genome> genomes;
        private final Function<String, Dictionary> dictionaries;
        private final Map<Integer, String> firstReasons = new HashMap<>();
        private Round latest;

        public Rounds(QueryPlan plan, Map<Integer, Genome> genomes, Function<String, Dictionary> dictionaries) {
            this.plan = plan;
            this.genomes = genomes;
            this.dictionaries = dictionaries;
        }

        /** A fresh round. */
        public Round next() {
            latest = new Round(this);
            return latest;
        }

        /** The last round begun (null before the first). */
        public Round latest() {
            return latest;
        }
    }

    /**
     * One round: a pipeline runs on the GPU when {@link CudaCapabilities} finds CUDA code for everything it holds,
     * given the join tables, groups and relations of the pipelines this round accepted before it; then it is emitted.
     */
    public static final class Round implements PlacementRound {
        private final Rounds rounds;
        private final Map<Integer, CudaKernelSource> kernels = new LinkedHashMap<>();
        private final Map<Integer, JoinLayout> layouts = new HashMap<>();
        private final Map<Integer, ScannedGroups> groups = new HashMap<>();
        private final CudaPipelineEmitter.Context ctx;

        private Round(Rounds rounds) {
            this.rounds = rounds;
            QueryPlan plan = rounds.plan;
            this.ctx = new CudaPipelineEmitter.Context() {
                @Override
                public Dictionary dictionary(String key) {
                    return rounds.dictionaries.apply(key);
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
        }

        /** The kernels this round emitted, by pipeline. */
        public Map<Integer, CudaKernelSource> kernels() {
            return kernels;
        }

        /**
         * The inputs this round knows are its own kernels' (a table, groups or rows a kernel it emitted leaves on the
         * device): the pipelines it accepted, and those a caller refused after all for what their kernels leave
         * (whose readers the placement then moves to the host itself).
         */
        @Override
        public String accepts(Pipeline p, IntFunction<String> placed) {
            QueryPlan plan = rounds.plan;
            Genome genome = rounds.genomes.get(p.id());
            String why = CudaCapabilities.reason(p, genome, layouts::get, groups::get, ctx::relationOnDevice,
                    rounds.dictionaries);
            if (why != null && p.source() instanceof Source.RelationScan rs && writers(plan, rs.relationId()) > 1
                    && GroupScan.endsInTableOrAggregate(p)) {
                why = "it reads r" + rs.relationId() + ", which " + writers(plan, rs.relationId())
                        + " pipelines write (the GPU scans the groups of one aggregation)";
            }
            if (why == null && p.source() instanceof Source.JoinTableScan js
                    && DevicePlacement.builder(plan, js.joinId()) != null
                    && DevicePlacement.builder(plan, js.joinId()).sink() instanceof Sink.Build b && !b.uniqueKeys()
                    && !ChainedRows.chains(b)) {
                // a table of the distinct keys alone: a scan would see each repeated key once
                why = "it scans join table j" + js.joinId() + ", whose keys may repeat and which keeps no rows";
            }
            if (why != null) {
                rounds.firstReasons.putIfAbsent(p.id(), why);
                return rounds.firstReasons.get(p.id());
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
            return null;
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
     * OFFSET, which the host applies), a WINDOW's rows with its functions' columns, or an aggregation's groups. A SORT's rows, and a relation of several writers
     * (a UNION ALL), the host completes.
     */
    private static boolean leftOnDevice(QueryPlan plan, int relationId, Map<Integer, CudaKernelSource> kernels) {
        if (writers(plan, relationId) != 1) {
            return false;
        }
        for (Pipeline w : plan.pipelines()) {
            boolean stays = switch (w.sink()) {
                case Sink.Materialize m -> m.relationId() == relationId && m.offset() == 0 && m.fetch() < 0;
                case Sink.Window win -> win.relationId() == relationId;
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

    /** How many pipelines write relation {@code relationId} (a UNION ALL's parts are several). */
    private static long writers(QueryPlan plan, int relationId) {
        return DevicePlacement.writers(plan, relationId).size();
    }
}

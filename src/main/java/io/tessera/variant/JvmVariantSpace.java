package io.tessera.variant;

import io.tessera.plan.Operation;
import io.tessera.plan.Pipeline;
import io.tessera.plan.QueryPlan;
import io.tessera.plan.Sink;
import io.tessera.tune.DefaultGenomes;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The JVM backend's variant space over the dimensions the emitter and executor read: worker threads (powers of
 * two up to the cores, and the cores), morsel size, predication (only where the pipeline filters), and the sink's
 * choices: a BUILD's table kind and hash, a GROUP_AGGREGATE's table kind and hash. The hash is a nested dimension:
 * a perfect table or a dense array does not hash, so there it must keep the default (multiply-shift) and no
 * duplicate variants exist. A probe's table kind and hash are derived from its build ({@link #complete}).
 */
public final class JvmVariantSpace implements VariantSpace {

    /** Morsel sizes in rows, ascending. */
    public static final List<String> MORSELS = List.of("4096", "16384", "65536", "262144");
    static final String DEFAULT_MORSEL = "16384";
    static final String MULSHIFT = "mulshift";

    private final int cores;

    /** The space of this machine: as many workers as the JVM has processors. */
    public JvmVariantSpace() {
        this(java.lang.Runtime.getRuntime().availableProcessors());
    }

    /** The space of a processor with {@code cores} hardware threads. */
    public JvmVariantSpace(int cores) {
        if (cores < 1) {
            throw new IllegalArgumentException("cores must be at least 1, got " + cores);
        }
        this.cores = cores;
    }

    public int cores() {
        return cores;
    }

    @Override
    public String backend() {
        return "jvm";
    }

    /** 1, 2, 4, ... below the cores, then the cores. */
    List<String> workerValues() {
        List<String> out = new ArrayList<>();
        for (int w = 1; w < cores; w *= 2) {
            out.add(Integer.toString(w));
        }
        out.add(Integer.toString(cores));
        return out;
    }

    @Override
    public List<Dimension> dimensions(QueryPlan plan, Pipeline p) {
        List<Dimension> out = new ArrayList<>();
        out.add(new Dimension(JvmDimensions.WORKERS, workerValues()));
        out.add(new Dimension(JvmDimensions.MORSEL, MORSELS));
        if (p.operations().stream().anyMatch(op -> op instanceof Operation.Filter)) {
            out.add(Dimension.of(JvmDimensions.PREDICATION, "branch", "predicated"));
        }
        switch (p.sink()) {
            case Sink.Build b -> {
                out.add(DefaultGenomes.perfectAllowed(b) ? Dimension.of(JvmDimensions.HASH_TABLE, "perfect", "linear")
                        : Dimension.of(JvmDimensions.HASH_TABLE, "linear"));
                out.add(Dimension.of(JvmDimensions.HASH, MULSHIFT, "murmur"));
            }
            case Sink.GroupAggregate ga -> {
                out.add(DefaultGenomes.denseAllowed(ga) ? Dimension.of(JvmDimensions.AGGREGATION, "dense", "hash")
                        : Dimension.of(JvmDimensions.AGGREGATION, "hash"));
                out.add(Dimension.of(JvmDimensions.HASH, MULSHIFT, "murmur"));
            }
            default -> {
            }
        }
        return out;
    }

    @Override
    public boolean valid(QueryPlan plan, Pipeline p, Genome g) {
        if (!g.backend().equals(backend())) {
            return false;
        }
        for (Dimension d : dimensions(plan, p)) {
            if (!g.has(d.name()) || !d.values().contains(g.get(d.name()))) {
                return false;
            }
        }
        switch (p.sink()) {
            case Sink.Build b -> {
                if (g.get(JvmDimensions.HASH_TABLE).equals("perfect") && !g.get(JvmDimensions.HASH).equals(MULSHIFT)) {
                    return false;
                }
            }
            case Sink.GroupAggregate ga -> {
                if (g.get(JvmDimensions.AGGREGATION).equals("dense") && !g.get(JvmDimensions.HASH).equals(MULSHIFT)) {
                    return false;
                }
            }
            default -> {
            }
        }
        return true;
    }

    @Override
    public Genome defaultGenome(QueryPlan plan, Pipeline p) {
        Map<String, String> m = new LinkedHashMap<>();
        m.put(JvmDimensions.WORKERS, Integer.toString(cores));
        m.put(JvmDimensions.MORSEL, DEFAULT_MORSEL);
        m.put(JvmDimensions.PREDICATION, "branch");
        switch (p.sink()) {
            case Sink.Build b -> {
                m.put(JvmDimensions.HASH_TABLE, DefaultGenomes.perfectAllowed(b) ? "perfect" : "linear");
                m.put(JvmDimensions.HASH, MULSHIFT);
            }
            case Sink.GroupAggregate ga -> {
                m.put(JvmDimensions.AGGREGATION, DefaultGenomes.denseAllowed(ga) ? "dense" : "hash");
                m.put(JvmDimensions.HASH, MULSHIFT);
            }
            default -> {
            }
        }
        return Genome.of(backend(), m);
    }

    /**
     * Adds each probe's {@code ht.jN} and {@code hash.jN} from the genome of the build of join N, in the order the
     * default genomes have them (thread configuration and predication, probes, then the sink's dimensions).
     */
    @Override
    public Genome complete(QueryPlan plan, Pipeline p, Genome g, Map<Integer, Genome> genomesByPipeline) {
        Map<Integer, Genome> builds = new java.util.HashMap<>();
        for (Pipeline q : plan.pipelines()) {
            if (q.sink() instanceof Sink.Build b && genomesByPipeline.containsKey(q.id())) {
                builds.put(b.joinId(), genomesByPipeline.get(q.id()));
            }
        }
        Map<String, String> m = new LinkedHashMap<>();
        for (String k : List.of(JvmDimensions.WORKERS, JvmDimensions.MORSEL, JvmDimensions.PREDICATION)) {
            if (g.has(k)) {
                m.put(k, g.get(k));
            }
        }
        for (Operation op : p.operations()) {
            if (op instanceof Operation.Probe probe) {
                Genome b = builds.get(probe.joinId());
                if (b == null) {
                    throw new IllegalArgumentException("no genome for the build of join " + probe.joinId()
                            + " that pipeline " + p.id() + " probes");
                }
                m.put(JvmDimensions.probeTable(probe.joinId()), b.get(JvmDimensions.HASH_TABLE));
                m.put(JvmDimensions.probeHash(probe.joinId()), b.get(JvmDimensions.HASH));
            }
        }
        for (Map.Entry<String, String> e : g.values().entrySet()) {
            if (!e.getKey().contains(".j")) {
                m.putIfAbsent(e.getKey(), e.getValue());
            }
        }
        return Genome.of(g.backend(), m);
    }
}

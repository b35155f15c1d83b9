package io.tessera.variant;

import io.tessera.plan.JoinKind;
import io.tessera.plan.Operation;
import io.tessera.plan.Pipeline;
import io.tessera.plan.QueryPlan;
import io.tessera.plan.Sink;
import org.junit.jupiter.api.Test;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Enumeration, counting and covering samples over a space other than the JVM's: a GPU-like space with threads
 * per block, items per thread, grid, predication, materialization, table, hash and aggregation, and constraints
 * between them.
 */
class GenomesTest {

    static final List<String> TPB = List.of("32", "64", "128", "256", "512", "1024");
    static final List<String> IPT = List.of("1", "2", "4", "8");
    static final List<String> GRID = List.of("1", "2", "4");
    static final List<String> PRED = List.of("branch", "predicated");
    static final List<String> MAT = List.of("tile-atomic", "multi-pass", "bitmap");
    static final List<String> HT = List.of("perfect", "linear", "cuckoo2");
    static final List<String> HASH = List.of("mulshift", "murmur");
    static final List<String> AGG = List.of("shared", "workgrouplocal", "independent");

    /** tpb * ipt at most 2048; a perfect table hashes nothing; a bitmap is written by predicated code only. */
    static boolean holds(Map<String, String> g) {
        if (Integer.parseInt(g.get("tpb")) * Integer.parseInt(g.get("ipt")) > 2048) {
            return false;
        }
        if ("perfect".equals(g.get("ht")) && !"mulshift".equals(g.get("hash"))) {
            return false;
        }
        return !"bitmap".equals(g.get("mat")) || "predicated".equals(g.get("pred"));
    }

    /** Builds get tpb, ipt, grid, pred, mat, ht, hash; the probing pipeline tpb, ipt, grid, pred, agg, hash. */
    static final class GpuLikeSpace implements VariantSpace {
        @Override
        public String backend() {
            return "gpu-like";
        }

        @Override
        public List<Dimension> dimensions(QueryPlan plan, Pipeline p) {
            List<Dimension> d = new ArrayList<>(List.of(new Dimension("tpb", TPB), new Dimension("ipt", IPT),
                    new Dimension("grid", GRID), new Dimension("pred", PRED)));
            if (p.sink() instanceof Sink.Build) {
                d.add(new Dimension("mat", MAT));
                d.add(new Dimension("ht", HT));
            } else {
                d.add(new Dimension("agg", AGG));
            }
            d.add(new Dimension("hash", HASH));
            return d;
        }

        @Override
        public boolean valid(QueryPlan plan, Pipeline p, Genome g) {
            for (Dimension d : dimensions(plan, p)) {
                if (!g.has(d.name()) || !d.values().contains(g.get(d.name()))) {
                    return false;
                }
            }
            return holds(g.values());
        }

        @Override
        public Genome defaultGenome(QueryPlan plan, Pipeline p) {
            Map<String, String> m = new LinkedHashMap<>();
            for (Dimension d : dimensions(plan, p)) {
                m.put(d.name(), d.values().get(0));
            }
            return Genome.of(backend(), m);
        }

        @Override
        public Genome complete(QueryPlan plan, Pipeline p, Genome g, Map<Integer, Genome> genomesByPipeline) {
            Genome out = g;
            for (Operation op : p.operations()) {
                if (op instanceof Operation.Probe probe) {
                    out = out.with("ht.j" + probe.joinId(), genomesByPipeline.get(probe.joinId()).get("ht"));
                }
            }
            return out;
        }
    }

    static final VariantSpace SPACE = new GpuLikeSpace();
    static final QueryPlan PLAN = ConstructedPlans.star(new double[] {10, 20},
            ConstructedPlans.kinds(JoinKind.INNER, JoinKind.INNER), null);

    /** The valid genomes counted with nested loops over the value lists. */
    static long independentCount(boolean build) {
        long n = 0;
        for (String tpb : TPB) {
            for (String ipt : IPT) {
                for (String grid : GRID) {
                    for (String pred : PRED) {
                        for (String hash : HASH) {
                            for (String x : build ? MAT : AGG) {
                                for (String ht : build ? HT : List.of("-")) {
                                    Map<String, String> g = new LinkedHashMap<>(Map.of("tpb", tpb, "ipt", ipt,
                                            "grid", grid, "pred", pred, "hash", hash, build ? "mat" : "agg", x));
                                    if (build) {
                                        g.put("ht", ht);
                                    }
                                    n += holds(g) ? 1 : 0;
                                }
                            }
                        }
                    }
                }
            }
        }
        return n;
    }

    @Test
    void countsAndEnumerationAgreeWithNestedLoops() {
        for (Pipeline p : PLAN.pipelines()) {
            boolean build = p.sink() instanceof Sink.Build;
            long expected = independentCount(build);
            assertEquals(expected, Genomes.count(SPACE, PLAN, p));
            List<Genome> all = Genomes.all(SPACE, PLAN, p);
            assertEquals(expected, all.size());
            assertEquals(expected, new HashSet<>(all).size(), "no genome twice");
            long product = 1;
            for (Dimension d : SPACE.dimensions(PLAN, p)) {
                product *= d.values().size();
            }
            assertEquals(BigInteger.valueOf(product), Genomes.productSize(SPACE, PLAN, p));
            long walked = 0;
            for (Genome g : Genomes.product(SPACE, PLAN, p)) {
                walked++;
                assertEquals(SPACE.dimensions(PLAN, p).size(), g.values().size());
            }
            assertEquals(product, walked);
            assertTrue(expected < product, "the constraints exclude something");
        }
    }

    @Test
    void coveringSampleUsesEveryValueOfEveryDimensionWithValidGenomes() {
        for (Pipeline p : PLAN.pipelines()) {
            List<Genome> sample = Genomes.coveringSample(SPACE, PLAN, p);
            Set<String> used = new HashSet<>();
            for (Genome g : sample) {
                assertTrue(SPACE.valid(PLAN, p, g), g.toString());
                g.values().forEach((k, v) -> used.add(k + "=" + v));
            }
            int most = 0;
            for (Dimension d : SPACE.dimensions(PLAN, p)) {
                most = Math.max(most, d.values().size());
                for (String v : d.values()) {
                    assertTrue(used.contains(d.name() + "=" + v), d.name() + "=" + v + " not in " + sample);
                }
            }
            assertTrue(sample.size() >= most && sample.size() <= most + 2,
                    "close to the largest dimension (" + most + "): " + sample.size());
            assertEquals(sample, Genomes.coveringSample(SPACE, PLAN, p), "deterministic");
        }
    }

    @Test
    void coveringPlansCompleteDerivedDimensionsAndCoverEveryPipeline() {
        List<Map<Integer, Genome>> plans = Genomes.coveringPlans(SPACE, PLAN);
        Set<String> used = new HashSet<>();
        for (Map<Integer, Genome> m : plans) {
            assertEquals(PLAN.pipelines().size(), m.size());
            Genome probe = m.get(2);
            assertEquals(m.get(0).get("ht"), probe.get("ht.j0"));
            assertEquals(m.get(1).get("ht"), probe.get("ht.j1"));
            m.forEach((id, g) -> g.values().forEach((k, v) -> used.add(id + ":" + k + "=" + v)));
        }
        for (Pipeline p : PLAN.pipelines()) {
            for (Dimension d : SPACE.dimensions(PLAN, p)) {
                for (String v : d.values()) {
                    assertTrue(used.contains(p.id() + ":" + d.name() + "=" + v));
                }
            }
        }
        Map<Integer, Genome> defaults = Genomes.defaults(SPACE, PLAN);
        assertEquals("perfect", defaults.get(2).get("ht.j1"));
    }
}

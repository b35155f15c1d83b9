package io.tessera.bench;

import io.tessera.api.QueryResult;
import io.tessera.exec.Device;
import io.tessera.exec.QueryEngine;
import io.tessera.plan.Pipeline;
import io.tessera.plan.QueryPlan;
import io.tessera.storage.Database;
import io.tessera.variant.CudaVariantSpace;
import io.tessera.variant.Dimension;
import io.tessera.variant.Genome;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Runs queries on the GPU and on the JVM backend over the same database and compares every result: each query
 * under its default CUDA genomes, and under variants that together use every value of every CUDA dimension of its
 * pipelines at least once (one dimension moved away from the default at a time, where the constraints allow).
 */
public final class GpuSelfTest {

    /** One comparison: query, variant, where it ran, and the difference (null: the same rows). */
    public record Check(String query, String variant, String device, String difference) {
        public boolean passed() {
            return difference == null;
        }
    }

    private final Database db;
    private final QueryEngine jvm;
    private final QueryEngine gpu;
    private final PrintStream log;

    public GpuSelfTest(Database db, PrintStream log) {
        this.db = db;
        int cores = java.lang.Runtime.getRuntime().availableProcessors();
        this.jvm = new QueryEngine(db, cores, Device.CPU);
        this.gpu = new QueryEngine(db, cores, Device.GPU);
        this.log = log;
    }

    /** Every check of one query; {@code variants}: also run the covering set of genomes. */
    public List<Check> run(String name, String sql, boolean variants) {
        List<Check> out = new ArrayList<>();
        QueryResult expected;
        try {
            expected = jvm.run(jvm.prepare(sql));
        } catch (RuntimeException e) {
            out.add(new Check(name, "default", "cpu", "the JVM backend failed: " + e.getMessage()));
            return out;
        }
        out.add(check(name, "default", sql, null, expected));
        if (variants) {
            QueryPlan plan = jvm.plan(sql);
            for (Map.Entry<String, Map<Integer, Genome>> v : coveringVariants(plan).entrySet()) {
                out.add(check(name, v.getKey(), sql, v.getValue(), expected));
            }
        }
        return out;
    }

    private Check check(String name, String variant, String sql, Map<Integer, Genome> genomes, QueryResult expected) {
        try {
            QueryResult r = gpu.run(gpu.prepare(sql, genomes));
            String diff = ResultMatch.difference(expected, r);
            String device = r.execution().device();
            if (diff == null && r.execution().notice() != null && device.equals("cpu")) {
                diff = "did not run on the GPU: " + r.execution().notice();
            }
            Check c = new Check(name, variant, device, diff);
            log.println((c.passed() ? "PASS " : "FAIL ") + name + " " + variant + " [" + device + "]"
                    + (c.passed() ? "" : ": " + diff));
            return c;
        } catch (RuntimeException e) {
            log.println("FAIL " + name + " " + variant + ": " + e);
            return new Check(name, variant, "gpu", "failed: " + e.getMessage());
        }
    }

    /**
     * Genome sets that move one dimension of one pipeline to each of its other values (when valid), all other
     * pipelines and dimensions at their defaults: every value of every dimension is used at least once.
     */
    public static Map<String, Map<Integer, Genome>> coveringVariants(QueryPlan plan) {
        CudaVariantSpace space = CudaVariantSpace.INSTANCE;
        Map<Integer, Genome> defaults = new HashMap<>();
        for (Pipeline p : plan.pipelines()) {
            defaults.put(p.id(), space.defaultGenome(plan, p));
        }
        Map<String, Map<Integer, Genome>> out = new LinkedHashMap<>();
        for (Pipeline p : plan.pipelines()) {
            Genome base = defaults.get(p.id());
            for (Dimension d : space.dimensions(plan, p)) {
                for (String value : d.values()) {
                    if (value.equals(base.get(d.name()))) {
                        continue;
                    }
                    Genome g = base.with(d.name(), value);
                    if (!space.valid(plan, p, g)) {
                        // the hash function only matters with a hash table: move to one
                        Genome alt = base.has(CudaVariantSpace.HASH_TABLE) ? g.with(CudaVariantSpace.HASH_TABLE, "linear")
                                : base.has(CudaVariantSpace.AGGREGATION) ? g.with(CudaVariantSpace.AGGREGATION, "shared") : null;
                        if (alt == null || alt.equals(base) || !space.valid(plan, p, alt)) {
                            continue;
                        }
                        g = alt;
                    }
                    Map<Integer, Genome> m = new HashMap<>(defaults);
                    m.put(p.id(), g);
                    out.put("p" + p.id() + "." + d.name() + "=" + value, m);
                }
            }
        }
        return out;
    }

    public Database database() {
        return db;
    }
}

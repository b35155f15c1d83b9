package io.tessera.tune;

import io.tessera.plan.KeyRange;
import io.tessera.plan.Operation;
import io.tessera.plan.Pipeline;
import io.tessera.plan.QueryPlan;
import io.tessera.plan.Sink;
import io.tessera.storage.TypeKind;
import io.tessera.variant.Genome;
import io.tessera.variant.JvmDimensions;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The JVM backend's default genome per pipeline, used when no profile says better: all cores, a perfect table
 * where the build key range is known and small, a dense array where every group key's range is, branches.
 * Probe pipelines mirror the table kind and hash of the builds they probe, so both sides agree.
 */
public final class DefaultGenomes {

    /** Largest dense aggregation array, in groups (per worker). */
    public static final long MAX_DENSE_GROUPS = 1L << 21;
    /** Largest perfect join table, in slots. */
    public static final long MAX_PERFECT_SLOTS = 1L << 24;

    private DefaultGenomes() {
    }

    public static Map<Integer, Genome> forPlan(QueryPlan plan, int workers) {
        Map<Integer, Genome> out = new HashMap<>();
        Map<Integer, Genome> builds = new HashMap<>();
        for (Pipeline p : plan.pipelines()) {
            Map<String, String> m = new LinkedHashMap<>();
            m.put(JvmDimensions.WORKERS, Integer.toString(workers));
            m.put(JvmDimensions.MORSEL, "16384");
            m.put(JvmDimensions.PREDICATION, "branch");
            for (Operation op : p.operations()) {
                if (op instanceof Operation.Probe probe) {
                    Genome b = builds.get(probe.joinId());
                    m.put(JvmDimensions.probeTable(probe.joinId()), b.get(JvmDimensions.HASH_TABLE));
                    m.put(JvmDimensions.probeHash(probe.joinId()), b.get(JvmDimensions.HASH));
                }
            }
            switch (p.sink()) {
                case Sink.Build b -> {
                    m.put(JvmDimensions.HASH_TABLE, perfectAllowed(b) ? "perfect" : "linear");
                    m.put(JvmDimensions.HASH, "mulshift");
                }
                case Sink.GroupAggregate ga -> {
                    m.put(JvmDimensions.AGGREGATION, denseAllowed(ga) ? "dense" : "hash");
                    m.put(JvmDimensions.HASH, "mulshift");
                }
                default -> {
                }
            }
            Genome g = Genome.of("jvm", m);
            out.put(p.id(), g);
            if (p.sink() instanceof Sink.Build b) {
                builds.put(b.joinId(), g);
            }
        }
        return out;
    }

    /** Constraint of ht=perfect: one integer key whose range is known and not too large. */
    public static boolean perfectAllowed(Sink.Build b) {
        if (b.keys().size() != 1 || b.range() == null || b.range().size() > MAX_PERFECT_SLOTS) {
            return false;
        }
        TypeKind k = b.keys().get(0).type().kind();
        return k == TypeKind.INTEGER || k == TypeKind.DATE || k == TypeKind.BIGINT || k == TypeKind.VARCHAR;
    }

    /** Constraint of agg=dense: every key's range known, and the product of (range + NULL slot) small. */
    public static boolean denseAllowed(Sink.GroupAggregate ga) {
        long slots = 1;
        for (int i = 0; i < ga.keys().size(); i++) {
            KeyRange r = ga.ranges().get(i);
            if (r == null) {
                return false;
            }
            TypeKind k = ga.keys().get(i).type().kind();
            if (k == TypeKind.DOUBLE || k == TypeKind.DECIMAL) {
                return false;
            }
            slots *= r.size() + 1;
            if (slots > MAX_DENSE_GROUPS) {
                return false;
            }
        }
        return true;
    }
}

package io.tessera.profile;

import io.tessera.plan.QueryPlan;
import io.tessera.plan.Sink;
import io.tessera.variant.Genome;
import io.tessera.variant.Genomes;
import io.tessera.variant.JvmVariantSpace;

import java.util.Map;

/**
 * The JVM backend's default genome per pipeline, used when no profile says better: the defaults that
 * {@link JvmVariantSpace} declares (all cores, a perfect table where the build key range is known and small, a
 * dense array where every group key's range is, branches, the written probe order, scalar filters). Probe
 * pipelines mirror the table kind and hash of the builds they probe, so both sides agree.
 */
public final class DefaultGenomes {

    /** Largest dense aggregation array, in groups (per worker). */
    public static final long MAX_DENSE_GROUPS = JvmVariantSpace.MAX_DENSE_GROUPS;
    /** Largest perfect join table, in slots. */
    public static final long MAX_PERFECT_SLOTS = JvmVariantSpace.MAX_PERFECT_SLOTS;

    private DefaultGenomes() {
    }

    /** The default genome of every pipeline of the plan, for {@code workers} worker threads. */
    public static Map<Integer, Genome> forPlan(QueryPlan plan, int workers) {
        return Genomes.defaults(new JvmVariantSpace(Math.max(1, workers)), plan);
    }

    /** Constraint of ht=perfect (declared in {@link JvmVariantSpace#perfectAllowed}). */
    public static boolean perfectAllowed(Sink.Build b) {
        return JvmVariantSpace.perfectAllowed(b);
    }

    /** Constraint of agg=dense (declared in {@link JvmVariantSpace#denseAllowed}). */
    public static boolean denseAllowed(Sink.GroupAggregate ga) {
        return JvmVariantSpace.denseAllowed(ga);
    }
}

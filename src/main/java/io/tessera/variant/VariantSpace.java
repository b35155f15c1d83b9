package io.tessera.variant;

import io.tessera.plan.Pipeline;
import io.tessera.plan.QueryPlan;

import java.util.List;

/**
 * The code variants of one backend: for a pipeline of a plan, the free dimensions that apply to it (in
 * importance order, most important first) and the constraints that exclude invalid combinations. Dimensions
 * derived from another pipeline (a probe mirrors the table kind and hash of the build it probes) are not free
 * and are not listed; {@link #complete} fills them in.
 */
public interface VariantSpace {

    /** The backend name, as in a genome's text form ("jvm", "cuda"). */
    String backend();

    /** The free dimensions of pipeline {@code p}, most important first. */
    List<Dimension> dimensions(QueryPlan plan, Pipeline p);

    /** Whether a genome holding a value for every free dimension satisfies the declared constraints. */
    boolean valid(QueryPlan plan, Pipeline p, Genome g);

    /** The genome used when nothing better is known. */
    Genome defaultGenome(QueryPlan plan, Pipeline p);

    /** Adds the derived dimensions of {@code g} (a probe's mirrored table kind and hash) given the builds' genomes. */
    Genome complete(QueryPlan plan, Pipeline p, Genome g, java.util.Map<Integer, Genome> genomesByPipeline);
}

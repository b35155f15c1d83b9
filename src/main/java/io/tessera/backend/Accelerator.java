package io.tessera.backend;

import io.tessera.plan.QueryPlan;
import io.tessera.profile.DeviceInfo;
import io.tessera.variant.Genome;

import java.util.Map;

/**
 * A device beside the host (a GPU): it runs the pipelines it has code for ({@link Backend.Query#placementRound} says
 * why not for the others), keeps what they make until the host or another pipeline needs it, and fails with a
 * {@link DeviceException}, after which the host runs the query. Its genomes come from its own profile, kept under
 * its {@link #info()}'s fingerprint. The registry of the database it serves ({@link Devices}) opens it on first
 * use and closes it with the database.
 */
public interface Accelerator extends Backend, AutoCloseable {

    /** The device: its name, cores (SMs), memory and fingerprint, under which its profile is kept. */
    DeviceInfo info();

    /**
     * Every pipeline's complete genome for this device: its defaults, {@code overrides} (null: none) over them,
     * completed.
     */
    Map<Integer, Genome> genomes(QueryPlan plan, Map<Integer, Genome> overrides);

    /** Releases what the device holds for its database (contexts, kernels, cached columns, pools). */
    @Override
    void close();
}

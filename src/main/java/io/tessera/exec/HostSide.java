package io.tessera.exec;

import io.tessera.backend.Backend;
import io.tessera.variant.Genome;

import java.util.Map;
import java.util.function.Supplier;

/**
 * A prepared query's side on the host: every pipeline's JVM genome, where each came from, and the host's query,
 * which compiles the JVM code of the pipelines placed there. Made at once where the host runs a pipeline or a tuner
 * chooses the genomes, else on first need (the query falls back to the JVM, EXPLAIN prints the genomes): a query
 * wholly on a GPU builds no JVM genomes.
 */
final class HostSide {

    /** The genomes, their origins (profile, default, tuned now) and the host's query under them. */
    record Made(Map<Integer, Genome> genomes, Map<Integer, String> origins, Backend.Query query) {
    }

    private Supplier<Made> make;
    private Made made;

    HostSide(Supplier<Made> make) {
        this.make = make;
    }

    /** A side made already. */
    static HostSide of(Map<Integer, Genome> genomes, Map<Integer, String> origins, Backend.Query query) {
        HostSide s = new HostSide(null);
        s.made = new Made(genomes, origins, query);
        return s;
    }

    /** The side, made now if it was not yet (once: every later call gets the same). */
    synchronized Made get() {
        if (made == null) {
            made = make.get();
            make = null;
        }
        return made;
    }
}

package io.tessera.backend.jvm.run;

import io.tessera.backend.QueryState;
import io.tessera.backend.host.HostWorkers;
import io.tessera.variant.Genome;
import io.tessera.variant.JvmDimensions;
import io.tessera.variant.JvmVariantSpace;

/**
 * The threads that the end of a SORT, top-k or WINDOW sink runs on, from the genome of the pipeline that finished
 * it: the pipeline's workers where its strategy dimension holds the parallel value, the calling thread where it
 * holds {@code serial} or is absent (one core). Rows a device made have no JVM genome: there size decides, as the
 * dimensions' defaults do.
 */
final class SinkEndWorkers {

    private SinkEndWorkers() {
    }

    /**
     * The workers for strategy dimension {@code dim} of genome {@code g} (null: none), whose parallel value is
     * {@code parallel}, over {@code rows} rows.
     */
    static HostWorkers of(QueryState state, Genome g, String dim, String parallel, long rows) {
        int threads;
        if (g == null) {
            int cores = java.lang.Runtime.getRuntime().availableProcessors();
            threads = rows >= JvmVariantSpace.PARALLEL_END_ROWS ? cores : 1;
        } else if (g.has(dim) && parallel.equals(g.get(dim))) {
            threads = g.has(JvmDimensions.WORKERS) ? Math.max(1, g.getInt(JvmDimensions.WORKERS)) : 1;
        } else {
            threads = 1;
        }
        return threads == 1 ? new HostWorkers(null, 1, state::checkCancel)
                : new HostWorkers(MorselRunner.pool(state), threads, state::checkCancel);
    }
}

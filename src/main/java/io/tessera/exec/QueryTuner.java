package io.tessera.exec;

import io.tessera.plan.QueryPlan;
import io.tessera.profile.GenomeChooser;
import io.tessera.storage.Database;

/**
 * Tuning a query as it is prepared ({@link QueryEngine#tuneWith}). The engine defines it and the tuner, a layer
 * above the engine (QueryTuning in the tune package), implements it; whoever turns tuning on installs one.
 */
@FunctionalInterface
public interface QueryTuner {

    /**
     * The genomes of {@code plan}'s pipelines after tuning the query {@code sql} on the CPU with {@code workers}
     * cores, starting from {@code current} (what {@code chooser} chose); the pipelines tuned are marked
     * {@link GenomeChooser#TUNED_NOW}. What is learned may be stored in the chooser's profile store.
     */
    GenomeChooser.Choice tune(Database db, String sql, QueryPlan plan, GenomeChooser.Choice current,
                              GenomeChooser chooser, int workers);
}

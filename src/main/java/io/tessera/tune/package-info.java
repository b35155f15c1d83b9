/**
 * The search for genomes, above the engine: strategies ({@link io.tessera.tune.Exhaustive},
 * {@link io.tessera.tune.FeatureWise}, {@link io.tessera.tune.PlateauDescent}, {@link io.tessera.tune.OnlinePool}),
 * targets that run a query on a device through the engine ({@link io.tessera.tune.Target},
 * {@link io.tessera.tune.Targets}), measurement ({@link io.tessera.tune.TimedRuns}, {@link io.tessera.tune.WholeRuns},
 * {@link io.tessera.tune.Remeasure}) and reports ({@link io.tessera.tune.TuneReport},
 * {@link io.tessera.tune.TuningBench}). What it learns goes into the profiles of {@code io.tessera.profile}, which
 * queries read at run time without this package; {@link io.tessera.tune.QueryTuning} tunes queries as they are
 * prepared, installed in an engine as its {@link io.tessera.exec.QueryTuner}.
 */
package io.tessera.tune;

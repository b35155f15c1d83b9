package io.tessera.tune;

import io.tessera.variant.Genome;
import io.tessera.variant.VariantSpaces;

import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The strategies by name, and what each tunes of a query on a device: exhaustive search the tuned (focus)
 * pipeline's free dimensions, feature-wise those and (by default) the build dimensions its probes mirror, both
 * measuring whole queries; plateau descent and the online pool the dimensions a block may change (plateau descent
 * stepping along the thread configuration from a starting point per combination of the others), both on blocks
 * while the query runs, or, where the tuned pipeline cannot run in blocks, on whole runs of it ({@link WholeRuns}).
 */
public final class Strategies {

    public static final List<String> NAMES = List.of(Exhaustive.NAME, FeatureWise.NAME, PlateauDescent.NAME,
            OnlinePool.NAME);

    /**
     * Settings of a tuning run.
     *
     * @param prune          exhaustive and feature-wise stop a run at this factor times the best so far
     * @param limitSeconds   no run lasts longer
     * @param plateauBlock   rows per block for plateau descent
     * @param plateauRuns    at most this many query runs for plateau descent
     * @param poolBlock      rows per block for the online pool
     * @param poolQueries    queries the online pool runs (the pool evolves between them)
     * @param poolSize       members of the online pool
     * @param seed           the online pool's random seed
     * @param featureWiseBuilds whether feature-wise search also tunes the build dimensions the probes mirror
     * @param held           dimensions every strategy leaves at their start values (a space small enough for
     *                       exhaustive search)
     */
    public record Settings(double prune, double limitSeconds, long plateauBlock, int plateauRuns, long poolBlock,
                           int poolQueries, int poolSize, long seed, boolean featureWiseBuilds, Set<String> held) {
        public static final Settings DEFAULT = new Settings(Exhaustive.DEFAULT_PRUNE, Exhaustive.DEFAULT_LIMIT_SECONDS,
                1 << 20, 40, 1 << 19, 8, OnlinePool.DEFAULT_SIZE, 42, true);

        public Settings {
            held = Set.copyOf(held);
        }

        public Settings(double prune, double limitSeconds, long plateauBlock, int plateauRuns, long poolBlock,
                        int poolQueries, int poolSize, long seed, boolean featureWiseBuilds) {
            this(prune, limitSeconds, plateauBlock, plateauRuns, poolBlock, poolQueries, poolSize, seed,
                    featureWiseBuilds, Set.of());
        }

        /** These settings with feature-wise search on exhaustive search's space (the tuned pipeline's own dimensions). */
        public Settings sameSpaceAsExhaustive() {
            return new Settings(prune, limitSeconds, plateauBlock, plateauRuns, poolBlock, poolQueries, poolSize, seed,
                    false, held);
        }

        /** These settings with the given dimensions held at their start values. */
        public Settings holding(Set<String> dimensions) {
            return new Settings(prune, limitSeconds, plateauBlock, plateauRuns, poolBlock, poolQueries, poolSize, seed,
                    featureWiseBuilds, dimensions);
        }
    }

    private Strategies() {
    }

    /** The canonical name of a strategy, accepting a few spellings (featurewise, plateau-descent, pool, ...). */
    public static String canonical(String name) {
        String n = name.strip().toLowerCase(Locale.ROOT).replace('_', '-');
        return switch (n) {
            case "exhaustive", "full" -> Exhaustive.NAME;
            case "feature-wise", "featurewise", "hawk" -> FeatureWise.NAME;
            case "plateau", "plateau-descent" -> PlateauDescent.NAME;
            case "online-pool", "pool", "online" -> OnlinePool.NAME;
            default -> throw new IllegalArgumentException("unknown strategy '" + name + "' (" + String.join(", ", NAMES) + ")");
        };
    }

    /** Whether a strategy tunes while the query runs (on blocks) rather than over whole queries. */
    public static boolean inQuery(String name) {
        String n = canonical(name);
        return n.equals(PlateauDescent.NAME) || n.equals(OnlinePool.NAME);
    }

    /** The space a strategy searches for a target with the default settings, starting from {@code start}. */
    public static TuningSpace space(String name, Target t, Map<Integer, Genome> start) {
        return space(name, t, start, Settings.DEFAULT);
    }

    /**
     * The space a strategy searches for a target, starting from {@code start}: the tuned pipeline's free
     * dimensions; for the in-query strategies those a block may change (plateau descent descends along the thread
     * configuration among them and starts once from every combination of the others); and for feature-wise search,
     * when the settings say so, the build dimensions its probes mirror.
     */
    public static TuningSpace space(String name, Target t, Map<Integer, Genome> start, Settings s) {
        return unheld(name, t, start, s).withoutDimensions(s.held());
    }

    private static TuningSpace unheld(String name, Target t, Map<Integer, Genome> start, Settings s) {
        String n = canonical(name);
        int focus = t.focus();
        if (n.equals(PlateauDescent.NAME)) {
            if (descentDimensions(t).isEmpty()) {
                throw new IllegalArgumentException("device " + t.device().name() + " cannot change its thread "
                        + "configuration between blocks or runs, so plateau descent cannot run there");
            }
            return inQuerySpace(t, start, focus);
        }
        if (n.equals(OnlinePool.NAME)) {
            if (inQuerySwitchable(t).isEmpty()) {
                throw new IllegalArgumentException("device " + t.device().name() + " cannot change genomes between "
                        + "blocks or runs, so the online pool cannot run there");
            }
            return inQuerySpace(t, start, focus);
        }
        return TuningSpace.forPipeline(t.space(), t.plan(), start, focus, null,
                n.equals(FeatureWise.NAME) && s.featureWiseBuilds());
    }

    /**
     * What in-query tuning may change of the focus pipeline: what its blocks may, less the values fixed for blocks;
     * where it cannot run in blocks, what a whole run may ({@link Target#runSwitchable}).
     */
    private static TuningSpace inQuerySpace(Target t, Map<Integer, Genome> start, int focus) {
        TuningSpace space = TuningSpace.forPipeline(t.space(), t.plan(), start, focus, inQuerySwitchable(t), false);
        return inBlocks(t) ? space.withoutValues(t.blockFixedValues()) : space;
    }

    /** Whether the focus pipeline runs in blocks on the target; the in-query strategies take whole runs otherwise. */
    static boolean inBlocks(Target t) {
        return !t.blockSwitchable().isEmpty();
    }

    /** The dimensions in-query tuning may change on a target: a block's, or where there are no blocks, a run's. */
    static Set<String> inQuerySwitchable(Target t) {
        return inBlocks(t) ? t.blockSwitchable() : t.runSwitchable();
    }

    /** The dimensions plateau descent steps along on a target: its thread configuration, where blocks may change it. */
    static Set<String> descentDimensions(Target t) {
        Set<String> dims = new HashSet<>(VariantSpaces.threadDimensions(t.space().backend()));
        dims.retainAll(inQuerySwitchable(t));
        return dims;
    }

    /**
     * Feature-wise search as the settings give it, walking the backend's line dimensions and checking close code
     * decisions where threads follow code.
     */
    static FeatureWise featureWise(Target t, Settings s) {
        String backend = t.space().backend();
        FeatureWise fw = new FeatureWise(FeatureWise.DEFAULT_PASSES, s.prune(), s.limitSeconds())
                .alongLines(VariantSpaces.lineDimensions(backend));
        return VariantSpaces.threadsFollowCode(backend) ? fw.retuning(VariantSpaces.threadDimensions(backend)) : fw;
    }

    /** Runs strategy {@code name} on a target from {@code start} (usually its defaults). */
    public static TuningResult run(String name, Target t, Map<Integer, Genome> start, Settings s) {
        String n = canonical(name);
        TuningSpace space = space(n, t, start, s);
        return switch (n) {
            case Exhaustive.NAME -> new Exhaustive(s.prune(), s.limitSeconds()).search(space, t.objective());
            case FeatureWise.NAME -> featureWise(t, s).search(space, t.objective());
            case PlateauDescent.NAME -> inBlocks(t)
                    ? InQueryTuning.plateau(space, descentDimensions(t), t.blocks(space, s.plateauBlock()), s.plateauRuns())
                    : InQueryTuning.plateauOverRuns(space, descentDimensions(t), t.objective(), s.limitSeconds(),
                            s.plateauRuns());
            case OnlinePool.NAME -> inBlocks(t)
                    ? InQueryTuning.pool(space, t.blocks(space, s.poolBlock()), s.poolQueries(), s.poolSize(), s.seed())
                    : InQueryTuning.poolOverRuns(space, t.objective(), s.limitSeconds(), s.poolQueries(), s.poolSize(),
                            s.seed());
            default -> throw new IllegalStateException(n);
        };
    }
}

package io.tessera.tune;

import io.tessera.plan.Pipeline;
import io.tessera.profile.GenomeChooser;
import io.tessera.profile.Profile;
import io.tessera.profile.ProfileStore;
import io.tessera.storage.Database;
import io.tessera.variant.Genome;

import java.io.PrintStream;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Learns a device's profile from a workload: each query's tuned pipeline (and what the strategy tunes with it)
 * is tuned from the defaults; where queries share a pipeline shape but found different genomes, each candidate
 * is measured on every query of that shape (where it does not fit a query, that query falls back to its
 * default, as it would when run) and the one with the lowest geometric mean of time ratios wins; the profile is
 * stored; then each query is measured with the default genomes and with the profile, interleaved, and a shape whose
 * queries were slower with the profile than with the defaults (beyond the noise) goes back to what the profile held
 * before.
 */
public final class WorkloadTuner {

    /** A query of the workload. */
    public record Query(String label, String sql) {
    }

    /**
     * One query's tuning on one device: its target, what the strategy searched and found, the assignment the
     * stored profile gives it, and its time with the default genomes and with the profile (medians).
     */
    public record QueryOutcome(Query query, Target target, TuningSpace space, TuningResult result,
                               Map<Integer, Genome> profiled, Map<Integer, String> origins, double defaultSeconds,
                               double tunedSeconds) {
        public String focusShape() {
            return target.pipeline(target.focus()).shape();
        }

        public Genome focusGenome() {
            return profiled.get(target.focus());
        }
    }

    /**
     * A device's outcome: per query, and the profile stored. It holds the queries' targets, still open for measuring
     * across devices: its owner closes it.
     */
    public record DeviceOutcome(TuningDevice device, String strategy, List<QueryOutcome> queries, Profile profile,
                                List<String> notes) implements AutoCloseable {
        /** Closes the queries' targets. */
        @Override
        public void close() {
            Targets.closeAll(queries.stream().map(QueryOutcome::target).toList());
        }
    }

    /** How much slower than the defaults a tuned genome may measure and still be stored (a tie within the noise). */
    static final double STORE_MARGIN = 0.05;

    private final Database db;
    private final String strategy;
    private final Strategies.Settings settings;
    private final ProfileStore store;
    private final PrintStream log;
    private final int rounds;

    public WorkloadTuner(Database db, String strategy, Strategies.Settings settings, ProfileStore store, int rounds,
                         PrintStream log) {
        this.db = db;
        this.strategy = Strategies.canonical(strategy);
        this.settings = settings;
        this.store = store;
        this.rounds = rounds;
        this.log = log;
    }

    private void log(String fmt, Object... args) {
        if (log != null) {
            log.printf(Locale.ROOT, fmt + "%n", args);
        }
    }

    /**
     * Tunes the workload on {@code device}; the outcome holds the queries' targets open, for the caller to close
     * ({@link DeviceOutcome#close}). Where tuning fails, the targets made so far are closed before the error goes on.
     */
    public DeviceOutcome tune(TuningDevice device, List<Query> workload) {
        List<Target> targets = new ArrayList<>();
        try {
            return tune(device, workload, targets);
        } catch (RuntimeException | Error e) {
            Targets.closeAll(targets, e);
            throw e;
        }
    }

    /** {@link #tune(TuningDevice, List)}, adding each target it makes to {@code targets}. */
    private DeviceOutcome tune(TuningDevice device, List<Query> workload, List<Target> targets) {
        List<TuningSpace> spaces = new ArrayList<>();
        List<TuningResult> results = new ArrayList<>();
        for (Query q : workload) {
            Target t = device.target(db, q.sql());
            targets.add(t);
            TuningSpace space = Strategies.space(strategy, t, t.defaults(), settings);
            long t0 = System.nanoTime();
            TuningResult r = Strategies.run(strategy, t, t.defaults(), settings);
            log("%s on %s: %s measured %d variant(s) in %.1f s; its choice measured %.3f ms: %s", q.label(),
                    device.name(), strategy, r.variants(), (System.nanoTime() - t0) / 1e9, r.bestSeconds() * 1e3,
                    describe(space.pipelines(), r.best()));
            spaces.add(space);
            results.add(r);
        }
        // candidates per shape: genome (free part) -> queries that chose it
        Map<String, Map<Genome, List<Integer>>> candidates = new TreeMap<>();
        Map<String, List<Integer>> queriesOfShape = new TreeMap<>();
        for (int i = 0; i < workload.size(); i++) {
            Target t = targets.get(i);
            for (int id : spaces.get(i).pipelines()) {
                Pipeline p = t.pipeline(id);
                Genome g = GenomeChooser.freePart(t.space(), t.plan(), p, results.get(i).best().get(id));
                candidates.computeIfAbsent(p.shape(), k -> new LinkedHashMap<>()).computeIfAbsent(g, k -> new ArrayList<>()).add(i);
                List<Integer> qs = queriesOfShape.computeIfAbsent(p.shape(), k -> new ArrayList<>());
                if (!qs.contains(i)) {
                    qs.add(i);
                }
            }
        }
        List<String> notes = new ArrayList<>();
        Map<String, Genome> winners = new TreeMap<>();
        for (Map.Entry<String, Map<Genome, List<Integer>>> e : candidates.entrySet()) {
            if (e.getValue().size() == 1) {
                winners.put(e.getKey(), e.getValue().keySet().iterator().next());
                continue;
            }
            winners.put(e.getKey(), resolve(e.getKey(), e.getValue(), queriesOfShape.get(e.getKey()), targets, results, notes));
        }
        // store the profile, then measure default against profile for every query
        String fp = device.fingerprint();
        Profile earlier = store.load(fp);
        Profile profile = earlier;
        String now = Instant.now().toString();
        for (Map.Entry<String, Genome> w : winners.entrySet()) {
            List<String> labels = new ArrayList<>();
            int variants = 0;
            double cost = 0;
            for (int i : queriesOfShape.get(w.getKey())) {
                labels.add(workload.get(i).label());
                variants += results.get(i).variants();
                cost += results.get(i).costSeconds();
            }
            profile = profile.with(w.getKey(), new Profile.Entry(w.getValue(), strategy, labels, Double.NaN, Double.NaN,
                    variants, cost, now));
        }
        store.save(profile);
        List<QueryOutcome> out = new ArrayList<>();
        Map<String, double[]> secondsOfShape = new TreeMap<>();
        for (int i = 0; i < workload.size(); i++) {
            Target t = targets.get(i);
            GenomeChooser.Choice c = new GenomeChooser(t.space(), store, fp).choose(t.plan());
            Map<Integer, Genome> free = new TreeMap<>();
            for (Pipeline p : t.plan().pipelines()) {
                Genome g = t.defaults().get(p.id());
                for (Map.Entry<String, String> kv : GenomeChooser.freePart(t.space(), t.plan(), p, c.genomes().get(p.id()))
                        .values().entrySet()) {
                    g = g.with(kv.getKey(), kv.getValue());
                }
                free.put(p.id(), g);
            }
            double[] m = Remeasure.medians(t.objective(), List.of(spaces.get(i).complete(t.defaults()),
                    spaces.get(i).complete(free)), rounds);
            log("%s on %s: %.3f ms with the default genomes, %.3f ms with the profile's: %s", workload.get(i).label(),
                    device.name(), m[0] * 1e3, m[1] * 1e3, describe(spaces.get(i).pipelines(), free));
            out.add(new QueryOutcome(workload.get(i), t, spaces.get(i), results.get(i), free, c.origins(), m[0], m[1]));
            for (int id : spaces.get(i).pipelines()) {
                double[] s = secondsOfShape.computeIfAbsent(t.pipeline(id).shape(), k -> new double[2]);
                s[0] += m[1];
                s[1] += m[0];
            }
        }
        for (Map.Entry<String, double[]> e : secondsOfShape.entrySet()) {
            if (!worthStoring(e.getValue()[0], e.getValue()[1])) {
                // a search that followed noise (kernels of microseconds) must not leave its queries slower than they were
                notes.add(String.format(Locale.ROOT, "%s: %.3f ms with the tuned genome against %.3f ms with the "
                        + "defaults; not stored%s", e.getKey(), e.getValue()[0] * 1e3, e.getValue()[1] * 1e3,
                        earlier.entry(e.getKey()) == null ? "" : " (the earlier entry stays)"));
                log("%s", notes.get(notes.size() - 1));
                profile = earlier.entry(e.getKey()) == null ? profile.without(e.getKey())
                        : profile.with(e.getKey(), earlier.entry(e.getKey()));
                continue;
            }
            Profile.Entry old = profile.entry(e.getKey());
            profile = profile.with(e.getKey(), new Profile.Entry(old.genome(), old.strategy(), old.queries(),
                    e.getValue()[0], e.getValue()[1], old.variants(), old.costSeconds(), old.tunedAt()));
        }
        store.save(profile);
        return new DeviceOutcome(device, strategy, out, profile, notes);
    }

    /** The genomes of the given pipelines, for the log: "p1 cuda{...}, p0 cuda{...}". */
    private static String describe(List<Integer> pipelines, Map<Integer, Genome> genomes) {
        StringBuilder sb = new StringBuilder();
        for (int id : pipelines) {
            sb.append(sb.isEmpty() ? "" : ", ").append('p').append(id).append(' ').append(genomes.get(id));
        }
        return sb.toString();
    }

    /**
     * Whether a shape's tuned genome goes into the profile: unless its queries measured slower with it than with the
     * defaults by more than {@link #STORE_MARGIN}, the final measurement's noise.
     */
    static boolean worthStoring(double tunedSeconds, double defaultSeconds) {
        return tunedSeconds <= defaultSeconds * (1 + STORE_MARGIN);
    }

    /** The candidate for a shared shape with the lowest geometric mean of time over each query's own choice. */
    private Genome resolve(String shape, Map<Genome, List<Integer>> cands, List<Integer> queries, List<Target> targets,
                           List<TuningResult> results, List<String> notes) {
        Map<Integer, Objective> objectives = new TreeMap<>();
        Genome best = null;
        double bestScore = Double.POSITIVE_INFINITY;
        StringBuilder sb = new StringBuilder();
        for (Genome c : cands.keySet()) {
            double[] ratios = new double[queries.size()];
            for (int k = 0; k < queries.size(); k++) {
                int i = queries.get(k);
                Target t = targets.get(i);
                Objective o = objectives.computeIfAbsent(i, x -> t.objective());
                Map<Integer, Genome> own = results.get(i).best();
                Map<Integer, Genome> with = new TreeMap<>(own);
                GenomeChooser chooser = new GenomeChooser(t.space(), null, "");
                for (Pipeline p : t.plan().pipelines()) {
                    if (p.shape().equals(shape)) {
                        Genome g = t.defaults().get(p.id());
                        if (chooser.misfit(t.plan(), p, c) == null) {
                            for (Map.Entry<String, String> kv : c.values().entrySet()) {
                                g = g.with(kv.getKey(), kv.getValue());
                            }
                        }
                        with.put(p.id(), g);
                    }
                }
                double[] m = Remeasure.medians(o, List.of(CrossDevice.complete(t, own), CrossDevice.complete(t, with)), 1);
                ratios[k] = m[1] / m[0];
            }
            double score = Remeasure.geomean(ratios);
            sb.append(String.format(Locale.ROOT, " %s: %.3f", c, score));
            if (score < bestScore) {
                bestScore = score;
                best = c;
            }
        }
        notes.add(String.format(Locale.ROOT, "shared shape %s: %d queries found %d genomes; geometric mean of time ratios:%s; chose %s",
                shape, queries.size(), cands.size(), sb, best));
        log("%s", notes.get(notes.size() - 1));
        return best;
    }
}

package io.tessera.tune;

import io.tessera.exec.QueryTuner;
import io.tessera.plan.Pipeline;
import io.tessera.plan.QueryPlan;
import io.tessera.profile.GenomeChooser;
import io.tessera.profile.Profile;
import io.tessera.profile.ProfileStore;
import io.tessera.storage.Database;
import io.tessera.variant.Genome;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Tuning one query as it is prepared (an engine with tuning on: {@code engine.tuneWith(new QueryTuning(strategy))}),
 * storing what it learns in the profile.
 */
public final class QueryTuning implements QueryTuner {

    private final String strategy;

    /** Tunes with {@code strategy} (a name {@link Strategies#canonical} knows). */
    public QueryTuning(String strategy) {
        this.strategy = Strategies.canonical(strategy);
    }

    public String strategy() {
        return strategy;
    }

    /**
     * Tunes the query's focus pipeline (and what the strategy tunes with it) on the CPU with {@code workers} cores,
     * starting from {@code current}; returns the choice with those pipelines marked {@code tuned now}, and stores
     * their genomes in the chooser's profile store (when it has one).
     */
    @Override
    public GenomeChooser.Choice tune(Database db, String sql, QueryPlan plan, GenomeChooser.Choice current,
                                     GenomeChooser chooser, int workers) {
        int all = java.lang.Runtime.getRuntime().availableProcessors();
        try (TuningDevice device = TuningDevice.parse(workers >= all ? "cpu" : "cpu:" + workers);
             Target t = device.target(db, sql)) {
            for (Pipeline p : plan.pipelines()) {
                if (!t.pipeline(p.id()).shape().equals(p.shape())) {
                    throw new IllegalStateException("the query planned differently for tuning");
                }
            }
            Map<Integer, Genome> start = new TreeMap<>();
            for (Pipeline p : t.plan().pipelines()) {
                Genome g = t.defaults().get(p.id());
                Genome chosen = GenomeChooser.freePart(t.space(), t.plan(), p, current.genomes().get(p.id()));
                for (Map.Entry<String, String> kv : chosen.values().entrySet()) {
                    g = g.with(kv.getKey(), kv.getValue());
                }
                start.put(p.id(), g);
            }
            TuningSpace space = Strategies.space(strategy, t, start);
            TuningResult r = Strategies.run(strategy, t, start, Strategies.Settings.DEFAULT);
            Map<Integer, Genome> free = new TreeMap<>(start);
            Map<Integer, String> origins = new TreeMap<>(current.origins());
            ProfileStore store = chooser.store();
            Profile profile = store == null ? null : store.load(chooser.fingerprint());
            String now = Instant.now().toString();
            for (int id : space.pipelines()) {
                free.put(id, r.best().get(id));
                origins.put(id, GenomeChooser.TUNED_NOW);
                if (profile != null) {
                    Pipeline p = t.pipeline(id);
                    profile = profile.with(p.shape(), new Profile.Entry(
                            GenomeChooser.freePart(t.space(), t.plan(), p, r.best().get(id)), r.strategy(),
                            List.of(label(sql)), Strategies.inQuery(strategy) ? Double.NaN : r.bestSeconds(), Double.NaN,
                            r.variants(), r.costSeconds(), now));
                }
            }
            if (profile != null) {
                store.save(profile);
            }
            return new GenomeChooser.Choice(chooser.complete(plan, free), origins);
        }
    }

    /** A short label of a query text for a profile entry. */
    static String label(String sql) {
        String s = sql.strip().replaceAll("\\s+", " ");
        return s.length() > 60 ? s.substring(0, 57) + "..." : s;
    }
}

package io.tessera.profile;

import io.tessera.plan.Pipeline;
import io.tessera.plan.QueryPlan;
import io.tessera.variant.Dimension;
import io.tessera.variant.Genome;
import io.tessera.variant.VariantSpace;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * Chooses each pipeline's genome for a query on one device: the device's profile entry for the pipeline's shape
 * when it fits the pipeline, else the space's default. A profile entry fits when it is for this backend, names only
 * free dimensions of the pipeline, and with the default's values for the dimensions it does not name satisfies the
 * space's constraints; otherwise the default is used and the origin says why. Derived dimensions always come from
 * the chosen build genomes, so probes and builds agree whatever the profile holds.
 */
public final class GenomeChooser {

    /** Origins as EXPLAIN shows them. */
    public static final String PROFILE = "profile";
    public static final String DEFAULT = "default";
    public static final String TUNED_NOW = "tuned now";
    /** A genome the caller gave explicitly (a benchmark's override, a tuner's variant). */
    public static final String GIVEN = "given";

    /** The genomes of a query's pipelines (derived dimensions included) and where each came from. */
    public record Choice(Map<Integer, Genome> genomes, Map<Integer, String> origins) {
    }

    private final VariantSpace space;
    private final ProfileStore store;
    private final String fingerprint;

    /** {@code store} may be null: no profiles, only defaults. */
    public GenomeChooser(VariantSpace space, ProfileStore store, String fingerprint) {
        this.space = space;
        this.store = store;
        this.fingerprint = fingerprint;
    }

    public VariantSpace space() {
        return space;
    }

    public ProfileStore store() {
        return store;
    }

    public String fingerprint() {
        return fingerprint;
    }

    public Choice choose(QueryPlan plan) {
        ProfileStore.Loaded loaded = store == null ? new ProfileStore.Loaded(Profile.empty(fingerprint), null)
                : store.loadWithProblem(fingerprint);
        Profile profile = loaded.profile();
        String problem = loaded.problem();
        Map<Integer, Genome> free = new TreeMap<>();
        Map<Integer, String> origins = new TreeMap<>();
        for (Pipeline p : plan.pipelines()) {
            Genome d = space.defaultGenome(plan, p);
            // a pipeline's shape is text made from its operators: not made where no profile has entries
            Profile.Entry e = profile.entries().isEmpty() ? null : profile.entry(p.shape());
            if (e == null) {
                free.put(p.id(), d);
                origins.put(p.id(), problem == null ? DEFAULT : DEFAULT + "; profile not read: " + problem);
                continue;
            }
            String why = misfit(plan, p, e.genome());
            if (why == null) {
                free.put(p.id(), overlay(d, e.genome()));
                origins.put(p.id(), PROFILE);
            } else {
                free.put(p.id(), d);
                origins.put(p.id(), DEFAULT + "; profile genome " + e.genome() + " not used: " + why);
            }
        }
        return new Choice(complete(plan, free), origins);
    }

    /** Every pipeline's genome with its derived dimensions. */
    public Map<Integer, Genome> complete(QueryPlan plan, Map<Integer, Genome> free) {
        Map<Integer, Genome> out = new HashMap<>();
        for (Pipeline p : plan.pipelines()) {
            out.put(p.id(), space.complete(plan, p, free.get(p.id()), free));
        }
        return out;
    }

    /** Why a stored genome does not fit pipeline {@code p}, or null when it does. */
    public String misfit(QueryPlan plan, Pipeline p, Genome stored) {
        if (!stored.backend().equals(space.backend())) {
            return "it is for the " + stored.backend() + " backend, not " + space.backend();
        }
        Map<String, Dimension> dims = new LinkedHashMap<>();
        for (Dimension d : space.dimensions(plan, p)) {
            dims.put(d.name(), d);
        }
        for (Map.Entry<String, String> kv : stored.values().entrySet()) {
            Dimension d = dims.get(kv.getKey());
            if (d == null) {
                return "pipeline " + p.id() + " has no free dimension " + kv.getKey();
            }
            if (!d.values().contains(kv.getValue())) {
                return kv.getKey() + "=" + kv.getValue() + " is not one of " + d.values() + " for pipeline " + p.id();
            }
        }
        Genome g = overlay(space.defaultGenome(plan, p), stored);
        if (!space.valid(plan, p, g)) {
            return g + " breaks the " + space.backend() + " space's constraints for pipeline " + p.id();
        }
        return null;
    }

    private static Genome overlay(Genome base, Genome stored) {
        Genome g = base;
        for (Map.Entry<String, String> kv : stored.values().entrySet()) {
            g = g.with(kv.getKey(), kv.getValue());
        }
        return g;
    }

    /** The free dimensions of {@code g} for pipeline {@code p}: what a profile stores. */
    public static Genome freePart(VariantSpace space, QueryPlan plan, Pipeline p, Genome g) {
        Map<String, String> m = new LinkedHashMap<>();
        for (Dimension d : space.dimensions(plan, p)) {
            if (g.has(d.name())) {
                m.put(d.name(), g.get(d.name()));
            }
        }
        return Genome.of(g.backend(), m);
    }
}

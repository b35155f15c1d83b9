package io.tessera.tune;

import io.tessera.plan.Pipeline;
import io.tessera.plan.QueryPlan;
import io.tessera.variant.Dimension;
import io.tessera.variant.Genome;
import io.tessera.variant.VariantSpace;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Predicate;

/**
 * What a strategy searches: knobs (one free dimension of one pipeline each, most important first) over an
 * assignment of genomes to a query's pipelines. An assignment maps every pipeline id to its genome without
 * derived dimensions; {@link #complete} adds those, giving what an objective runs. The knobs are those of one
 * <em>focus</em> pipeline and, when asked, the dimensions of other pipelines that change the focus pipeline's
 * derived dimensions (the table kind and hash of the builds it probes).
 */
public final class TuningSpace {

    /** One free dimension of one pipeline. */
    public record Knob(int pipeline, Dimension dimension) {
        public String name() {
            return dimension.name();
        }

        public List<String> values() {
            return dimension.values();
        }

        public String label() {
            return "p" + pipeline + "." + dimension.name();
        }
    }

    /** Validity of one pipeline's genome and completion of an assignment. */
    public interface Rules {
        boolean valid(int pipeline, Genome g);

        Map<Integer, Genome> complete(Map<Integer, Genome> assignment);
    }

    private final int focus;
    private final List<Knob> knobs;
    private final Map<Integer, Genome> start;
    private final Rules rules;

    public TuningSpace(int focus, List<Knob> knobs, Map<Integer, Genome> start, Rules rules) {
        if (knobs.isEmpty()) {
            throw new IllegalArgumentException("a tuning space needs at least one knob");
        }
        this.focus = focus;
        this.knobs = List.copyOf(knobs);
        this.start = freeze(start);
        this.rules = rules;
        for (Knob k : knobs) {
            Genome g = start.get(k.pipeline());
            if (g == null || !g.has(k.name()) || !k.values().contains(g.get(k.name()))) {
                throw new IllegalArgumentException("the start genome " + g + " of pipeline " + k.pipeline()
                        + " has no value of " + k.dimension());
            }
        }
        if (!valid(this.start)) {
            throw new IllegalArgumentException("the start assignment is not valid: " + this.start);
        }
    }

    /**
     * The space of pipeline {@code focus} of a plan: its free dimensions (only those named in {@code only} when
     * that is not null) and, when {@code linked}, the free dimensions of other pipelines that change its derived
     * dimensions, found by trying each of their values.
     */
    public static TuningSpace forPipeline(VariantSpace space, QueryPlan plan, Map<Integer, Genome> start, int focus,
                                          Set<String> only, boolean linked) {
        Map<Integer, Pipeline> byId = new HashMap<>();
        for (Pipeline p : plan.pipelines()) {
            byId.put(p.id(), p);
        }
        Pipeline fp = byId.get(focus);
        if (fp == null) {
            throw new IllegalArgumentException("the plan has no pipeline " + focus);
        }
        Rules rules = new Rules() {
            @Override
            public boolean valid(int pipeline, Genome g) {
                return space.valid(plan, byId.get(pipeline), g);
            }

            @Override
            public Map<Integer, Genome> complete(Map<Integer, Genome> a) {
                Map<Integer, Genome> out = new TreeMap<>();
                for (Pipeline p : plan.pipelines()) {
                    out.put(p.id(), space.complete(plan, p, a.get(p.id()), a));
                }
                return out;
            }
        };
        List<Knob> knobs = new ArrayList<>();
        for (Dimension d : space.dimensions(plan, fp)) {
            if (only == null || only.contains(d.name())) {
                knobs.add(new Knob(focus, d));
            }
        }
        if (linked) {
            Genome base = rules.complete(start).get(focus);
            for (Pipeline p : plan.pipelines()) {
                if (p.id() == focus) {
                    continue;
                }
                for (Dimension d : space.dimensions(plan, p)) {
                    for (String v : d.values()) {
                        Map<Integer, Genome> a = new HashMap<>(start);
                        a.put(p.id(), start.get(p.id()).with(d.name(), v));
                        if (!rules.complete(a).get(focus).equals(base)) {
                            knobs.add(new Knob(p.id(), d));
                            break;
                        }
                    }
                }
            }
        }
        return new TuningSpace(focus, knobs, start, rules);
    }

    /** A space of one pipeline (id 0) with the given dimensions and constraint, nothing derived: for tests and tools. */
    public static TuningSpace of(List<Dimension> dims, Genome start, Predicate<Genome> valid) {
        List<Knob> knobs = new ArrayList<>();
        for (Dimension d : dims) {
            knobs.add(new Knob(0, d));
        }
        return new TuningSpace(0, knobs, Map.of(0, start), new Rules() {
            @Override
            public boolean valid(int pipeline, Genome g) {
                return valid.test(g);
            }

            @Override
            public Map<Integer, Genome> complete(Map<Integer, Genome> a) {
                return a;
            }
        });
    }

    /**
     * This space without the given values, by dimension: a knob loses them, or is left out (kept at its start value)
     * when its start value is one of them or fewer than two values remain.
     */
    public TuningSpace withoutValues(Map<String, Set<String>> excluded) {
        List<Knob> kept = new ArrayList<>();
        for (Knob k : knobs) {
            Set<String> out = excluded.getOrDefault(k.name(), Set.of());
            if (out.contains(value(start, k))) {
                continue;
            }
            List<String> values = k.values().stream().filter(v -> !out.contains(v)).toList();
            if (values.size() >= 2) {
                kept.add(values.size() == k.values().size() ? k
                        : new Knob(k.pipeline(), new Dimension(k.name(), values)));
            }
        }
        return kept.equals(knobs) ? this : new TuningSpace(focus, kept, start, rules);
    }

    /**
     * This space with the given dimensions left out (kept at their start values, on every pipeline); an error when
     * nothing would be left to tune.
     */
    public TuningSpace withoutDimensions(Set<String> held) {
        if (held.isEmpty()) {
            return this;
        }
        List<Knob> kept = knobs.stream().filter(k -> !held.contains(k.name())).toList();
        if (kept.isEmpty()) {
            throw new IllegalArgumentException("holding " + new java.util.TreeSet<>(held) + " leaves nothing to tune (the "
                    + "knobs are " + knobs.stream().map(Knob::name).distinct().toList() + ")");
        }
        return kept.size() == knobs.size() ? this : new TuningSpace(focus, kept, start, rules);
    }

    private static Map<Integer, Genome> freeze(Map<Integer, Genome> a) {
        return Collections.unmodifiableMap(new TreeMap<>(a));
    }

    public int focus() {
        return focus;
    }

    public List<Knob> knobs() {
        return knobs;
    }

    public Map<Integer, Genome> start() {
        return start;
    }

    public String value(Map<Integer, Genome> a, Knob k) {
        return a.get(k.pipeline()).get(k.name());
    }

    public Map<Integer, Genome> with(Map<Integer, Genome> a, Knob k, String value) {
        Map<Integer, Genome> m = new TreeMap<>(a);
        m.put(k.pipeline(), a.get(k.pipeline()).with(k.name(), value));
        return Collections.unmodifiableMap(m);
    }

    /**
     * The valid assignments one value away from {@code a} in one of {@code along}, knob by knob, each knob's value
     * below before the one above.
     */
    public List<Map<Integer, Genome>> neighbours(Map<Integer, Genome> a, List<Knob> along) {
        List<Map<Integer, Genome>> out = new ArrayList<>();
        for (Knob k : along) {
            int i = k.values().indexOf(value(a, k));
            for (int j : new int[] {i - 1, i + 1}) {
                if (j >= 0 && j < k.values().size()) {
                    Map<Integer, Genome> n = with(a, k, k.values().get(j));
                    if (valid(n)) {
                        out.add(n);
                    }
                }
            }
        }
        return out;
    }

    /** Whether every pipeline a knob touches has a valid genome. */
    public boolean valid(Map<Integer, Genome> a) {
        for (int pid : pipelines()) {
            if (!rules.valid(pid, a.get(pid))) {
                return false;
            }
        }
        return true;
    }

    /** The pipelines the knobs belong to, focus first. */
    public List<Integer> pipelines() {
        List<Integer> out = new ArrayList<>();
        out.add(focus);
        for (Knob k : knobs) {
            if (!out.contains(k.pipeline())) {
                out.add(k.pipeline());
            }
        }
        return out;
    }

    /**
     * Makes {@code a}, just changed at knob {@code changed}, valid by changing as few other knobs of the same
     * pipeline as it takes (a nested dimension that the new value does not allow goes back to its start value, or
     * to the first value that is allowed); null when no single or double change does.
     */
    public Map<Integer, Genome> repair(Map<Integer, Genome> a, Knob changed) {
        if (valid(a)) {
            return a;
        }
        List<Knob> others = new ArrayList<>();
        for (Knob k : knobs) {
            if (k.pipeline() == changed.pipeline() && !k.equals(changed)) {
                others.add(k);
            }
        }
        for (Knob k : others) {
            for (String v : preferStart(k)) {
                Map<Integer, Genome> b = with(a, k, v);
                if (valid(b)) {
                    return b;
                }
            }
        }
        for (int i = 0; i < others.size(); i++) {
            for (int j = i + 1; j < others.size(); j++) {
                for (String v : preferStart(others.get(i))) {
                    for (String w : preferStart(others.get(j))) {
                        Map<Integer, Genome> b = with(with(a, others.get(i), v), others.get(j), w);
                        if (valid(b)) {
                            return b;
                        }
                    }
                }
            }
        }
        return null;
    }

    private List<String> preferStart(Knob k) {
        List<String> out = new ArrayList<>();
        out.add(value(start, k));
        for (String v : k.values()) {
            if (!out.contains(v)) {
                out.add(v);
            }
        }
        return out;
    }

    /** Every pipeline's genome with its derived dimensions: what an objective runs. */
    public Map<Integer, Genome> complete(Map<Integer, Genome> a) {
        return rules.complete(a);
    }

    /** The focus pipeline's genome with its derived dimensions. */
    public Genome focusGenome(Map<Integer, Genome> a) {
        return complete(a).get(focus);
    }

    /** The number of knob combinations, valid or not. */
    public long size() {
        long n = 1;
        for (Knob k : knobs) {
            n = Math.multiplyExact(n, k.values().size());
        }
        return n;
    }

    /**
     * Every valid assignment, the first knob changing fastest (so that variants sharing code, which differ in the
     * first knobs, the thread configuration, come one after another).
     */
    public List<Map<Integer, Genome>> all() {
        List<Map<Integer, Genome>> out = new ArrayList<>();
        int[] idx = new int[knobs.size()];
        while (true) {
            Map<Integer, Genome> a = start;
            Map<Integer, Map<String, String>> changes = new LinkedHashMap<>();
            for (int i = 0; i < idx.length; i++) {
                Knob k = knobs.get(i);
                changes.computeIfAbsent(k.pipeline(), x -> new LinkedHashMap<>()).put(k.name(), k.values().get(idx[i]));
            }
            Map<Integer, Genome> m = new TreeMap<>(a);
            for (Map.Entry<Integer, Map<String, String>> e : changes.entrySet()) {
                Genome g = m.get(e.getKey());
                for (Map.Entry<String, String> kv : e.getValue().entrySet()) {
                    g = g.with(kv.getKey(), kv.getValue());
                }
                m.put(e.getKey(), g);
            }
            Map<Integer, Genome> frozen = Collections.unmodifiableMap(m);
            if (valid(frozen)) {
                out.add(frozen);
            }
            int i = 0;
            while (i < idx.length && ++idx[i] == knobs.get(i).values().size()) {
                idx[i] = 0;
                i++;
            }
            if (i == idx.length) {
                return out;
            }
        }
    }

    /**
     * The start assignment with the knobs that {@code vary} set to every valid combination of their values (the
     * others at their start values), the start assignment first.
     */
    public List<Map<Integer, Genome>> combinations(Predicate<Knob> vary) {
        List<Map<Integer, Genome>> points = new ArrayList<>();
        points.add(start);
        for (Knob k : knobs) {
            if (!vary.test(k)) {
                continue;
            }
            List<Map<Integer, Genome>> crossed = new ArrayList<>();
            for (Map<Integer, Genome> a : points) {
                for (String v : k.values()) {
                    crossed.add(with(a, k, v));
                }
            }
            points = crossed;
        }
        java.util.Set<Map<Integer, Genome>> valid = new java.util.LinkedHashSet<>();
        valid.add(start);
        for (Map<Integer, Genome> a : points) {
            if (valid(a)) {
                valid.add(a);
            }
        }
        return new ArrayList<>(valid);
    }

    /** The knob values of an assignment, as {@code p4.workers=2,...}: how reports name a variant. */
    public String describe(Map<Integer, Genome> a) {
        StringBuilder sb = new StringBuilder();
        for (Knob k : knobs) {
            sb.append(sb.isEmpty() ? "" : ",").append(k.label()).append('=').append(value(a, k));
        }
        return sb.toString();
    }
}

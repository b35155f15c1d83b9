package io.tessera.variant;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The code variant of one pipeline on one backend: a value for every dimension that applies, e.g.
 * {@code jvm{workers=2,morsel=16384,pred=branch,agg=dense}}. Immutable; its text form is stable and is used in
 * EXPLAIN, profiles and cache keys. Emitters read every choice from here.
 */
public final class Genome {

    private final String backend;
    private final Map<String, String> values;

    private Genome(String backend, Map<String, String> values) {
        this.backend = backend;
        this.values = Collections.unmodifiableMap(new LinkedHashMap<>(values));
    }

    public static Genome of(String backend, Map<String, String> values) {
        return new Genome(backend, values);
    }

    public String backend() {
        return backend;
    }

    public Map<String, String> values() {
        return values;
    }

    public boolean has(String dimension) {
        return values.containsKey(dimension);
    }

    public String get(String dimension) {
        String v = values.get(dimension);
        if (v == null) {
            throw new IllegalArgumentException("genome " + this + " has no dimension " + dimension);
        }
        return v;
    }

    public int getInt(String dimension) {
        return Integer.parseInt(get(dimension));
    }

    public Genome with(String dimension, String value) {
        Map<String, String> m = new LinkedHashMap<>(values);
        m.put(dimension, value);
        return new Genome(backend, m);
    }

    /** This genome without one dimension (the same genome when it has none). */
    public Genome without(String dimension) {
        if (!values.containsKey(dimension)) {
            return this;
        }
        Map<String, String> m = new LinkedHashMap<>(values);
        m.remove(dimension);
        return new Genome(backend, m);
    }

    /** Parses the text form {@code backend{k=v,...}}. */
    public static Genome parse(String text) {
        int b = text.indexOf('{');
        if (b < 0 || !text.endsWith("}")) {
            throw new IllegalArgumentException("not a genome: " + text);
        }
        Map<String, String> m = new LinkedHashMap<>();
        String body = text.substring(b + 1, text.length() - 1);
        if (!body.isEmpty()) {
            for (String kv : body.split(",")) {
                int eq = kv.indexOf('=');
                if (eq < 0) {
                    throw new IllegalArgumentException("not a genome: " + text);
                }
                m.put(kv.substring(0, eq), kv.substring(eq + 1));
            }
        }
        return new Genome(text.substring(0, b), m);
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder(backend).append('{');
        boolean first = true;
        for (Map.Entry<String, String> e : values.entrySet()) {
            sb.append(first ? "" : ",").append(e.getKey()).append('=').append(e.getValue());
            first = false;
        }
        return sb.append('}').toString();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Genome g && g.backend.equals(backend) && g.values.equals(values);
    }

    @Override
    public int hashCode() {
        return backend.hashCode() * 31 + values.hashCode();
    }
}

package io.tessera.profile;

import io.tessera.variant.Genome;

import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What tuning learned on one device: per pipeline shape, the genome to use (its free dimensions only; derived
 * ones are filled in from the builds when a query runs) and the measurements behind it.
 *
 * @param fingerprint the device's fingerprint ({@code cpu|model|coresN|Java ...}, {@code gpu|name|ccX.Y|smN|driverV})
 * @param entries     by pipeline shape
 */
public record Profile(String fingerprint, Map<String, Entry> entries) {

    public Profile {
        entries = Collections.unmodifiableMap(new TreeMap<>(entries));
    }

    public static Profile empty(String fingerprint) {
        return new Profile(fingerprint, Map.of());
    }

    /**
     * The genome for one pipeline shape and how it was found.
     *
     * @param genome         the genome, free dimensions only
     * @param strategy       the strategy that found it
     * @param queries        the queries it was tuned on (suite/name or the workload's labels)
     * @param seconds        the time of its queries with the profile, in seconds (medians of the final
     *                       measurement, summed over the queries; NaN when not measured)
     * @param defaultSeconds the same queries' time with the default genomes, measured alongside
     * @param variants       variants the strategy measured
     * @param costSeconds    what tuning cost, in seconds
     * @param tunedAt        when (ISO-8601)
     */
    public record Entry(Genome genome, String strategy, List<String> queries, double seconds, double defaultSeconds,
                        int variants, double costSeconds, String tunedAt) {
        public Entry {
            queries = List.copyOf(queries);
        }
    }

    public Entry entry(String shape) {
        return entries.get(shape);
    }

    /** This profile without an entry for {@code shape}. */
    public Profile without(String shape) {
        Map<String, Entry> m = new TreeMap<>(entries);
        m.remove(shape);
        return new Profile(fingerprint, m);
    }

    /** This profile with {@code e} stored under {@code shape} (replacing what was there). */
    public Profile with(String shape, Entry e) {
        Map<String, Entry> m = new TreeMap<>(entries);
        m.put(shape, e);
        return new Profile(fingerprint, m);
    }
}

package io.tessera.tune;

import io.tessera.variant.Genome;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Hawk's Table 8: the genomes tuned for each device, run on every device. Cell [i][j] is the time of device i's
 * genomes on device j; the diagonal is each device's own. A genome tuned on a device of another backend is carried
 * over by its dimensions that both backends have (predication, join table, hash function, aggregation where the
 * kind exists on both, probe order), the rest at the running device's defaults, as Hawk carries a variant's features
 * from one processor to the next. On a machine with one CPU the devices can be CPU configurations (cpu and cpu:1).
 */
public final class CrossDevice {

    /** One query's matrix: device names, and seconds [tuned for][run on]. */
    public record Matrix(String query, List<String> devices, double[][] seconds) {

        /** Cell [i][j] over the diagonal cell of its column: how much slower than the genome tuned for that device. */
        public double ratio(int i, int j) {
            return seconds[i][j] / seconds[j][j];
        }
    }

    private CrossDevice() {
    }

    /**
     * Measures one query: {@code targets[j]} is the query on device j, {@code tuned[i]} device i's tuned
     * assignment (free genomes). Each column's cells are measured interleaved over {@code rounds} rounds.
     */
    public static Matrix measure(String query, List<Target> targets, List<Map<Integer, Genome>> tuned, int rounds) {
        int n = targets.size();
        double[][] s = new double[n][n];
        List<String> names = new ArrayList<>();
        for (Target t : targets) {
            names.add(t.device().name());
        }
        for (int j = 0; j < n; j++) {
            Target on = targets.get(j);
            List<Map<Integer, Genome>> runs = new ArrayList<>();
            List<Integer> rows = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                boolean same = targets.get(i).space().backend().equals(on.space().backend());
                runs.add(complete(on, same ? tuned.get(i) : translate(on, tuned.get(i))));
                rows.add(i);
            }
            double[] m = Remeasure.medians(on.objective(), runs, rounds);
            for (int k = 0; k < rows.size(); k++) {
                s[rows.get(k)][j] = m[k];
            }
        }
        return new Matrix(query, names, s);
    }

    /**
     * An assignment tuned on another backend, as this device's genomes: each pipeline's default with every dimension
     * of this device's space that the foreign genome sets to a value this space has (and that keeps it valid).
     */
    static Map<Integer, Genome> translate(Target on, Map<Integer, Genome> foreign) {
        Map<Integer, Genome> out = new java.util.TreeMap<>();
        for (io.tessera.plan.Pipeline p : on.plan().pipelines()) {
            Genome g = on.defaults().get(p.id());
            Genome from = foreign.get(p.id());
            if (from != null) {
                for (io.tessera.variant.Dimension d : on.space().dimensions(on.plan(), p)) {
                    if (from.has(d.name()) && d.values().contains(from.get(d.name()))) {
                        Genome moved = g.with(d.name(), from.get(d.name()));
                        if (on.space().valid(on.plan(), p, moved)) {
                            g = moved;
                        }
                    }
                }
            }
            out.put(p.id(), g);
        }
        return out;
    }

    /** An assignment of one device's genomes, completed on another's plan (the same query, the same pipelines). */
    static Map<Integer, Genome> complete(Target on, Map<Integer, Genome> free) {
        Map<Integer, Genome> out = new java.util.TreeMap<>();
        for (io.tessera.plan.Pipeline p : on.plan().pipelines()) {
            Genome g = free.get(p.id());
            if (g == null) {
                throw new IllegalArgumentException("no genome for pipeline " + p.id());
            }
            out.put(p.id(), on.space().complete(on.plan(), p, g, free));
        }
        return out;
    }
}

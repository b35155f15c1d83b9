package io.tessera.tune;

import io.tessera.variant.Genome;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Hawk's Table 8: the genomes tuned for each device, run on every device. Cell [i][j] is the time of device i's
 * genomes on device j; the diagonal is each device's own. Devices of different backends cannot run each other's
 * genomes (NaN). On a machine with one CPU the devices can be CPU configurations (cpu and cpu:1).
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
                if (!targets.get(i).space().backend().equals(on.space().backend())) {
                    s[i][j] = Double.NaN;
                    continue;
                }
                runs.add(complete(on, tuned.get(i)));
                rows.add(i);
            }
            double[] m = Remeasure.medians(on.objective(), runs, rounds);
            for (int k = 0; k < rows.size(); k++) {
                s[rows.get(k)][j] = m[k];
            }
        }
        return new Matrix(query, names, s);
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

package io.tessera.tune;

import io.tessera.variant.Genome;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** The charts of a tuning report, made from strategies' results and cross-device matrices. */
public final class TuningReports {

    private TuningReports() {
    }

    /** Each distinct variant's time (its fastest measurement, pruned ones left out), ascending. */
    public static double[] sortedRuntimes(TuningResult r) {
        Map<Map<Integer, Genome>, Double> best = new HashMap<>();
        for (TuningResult.Evaluation e : r.trace()) {
            if (!e.pruned()) {
                best.merge(e.assignment(), e.seconds(), Math::min);
            }
        }
        double[] v = best.values().stream().mapToDouble(Double::doubleValue).toArray();
        Arrays.sort(v);
        return v;
    }

    /**
     * A chart of sorted variant runtimes, one line per result: x is the variant's rank as a fraction of the
     * variants (0 fastest, 1 slowest), y its time over the fastest's.
     */
    public static TuneReport.Chart runtimes(String id, String title, Map<String, TuningResult> byLine) {
        List<TuneReport.Line> lines = new ArrayList<>();
        for (Map.Entry<String, TuningResult> e : byLine.entrySet()) {
            double[] s = sortedRuntimes(e.getValue());
            double[] x = new double[s.length];
            double[] y = new double[s.length];
            for (int i = 0; i < s.length; i++) {
                x[i] = s.length == 1 ? 0 : (double) i / (s.length - 1);
                y[i] = s[i] / s[0];
            }
            lines.add(new TuneReport.Line(e.getKey() + " (" + s.length + ")", x, y));
        }
        return new TuneReport.Chart(id, title, "variants, fastest to slowest", "time / fastest", true, lines);
    }

    /**
     * A chart of convergence, one line per result: x the tuning time spent, y the best time known over
     * {@code reference} (the line's own final best when NaN).
     */
    public static TuneReport.Chart convergence(String id, String title, Map<String, TuningResult> byLine,
                                               double reference) {
        List<TuneReport.Line> lines = new ArrayList<>();
        for (Map.Entry<String, TuningResult> e : byLine.entrySet()) {
            List<TuningResult.Evaluation> t = e.getValue().trace();
            double ref = Double.isNaN(reference) ? e.getValue().bestSeconds() : reference;
            double[] x = new double[t.size()];
            double[] y = new double[t.size()];
            for (int i = 0; i < t.size(); i++) {
                x[i] = t.get(i).costSoFar();
                y[i] = t.get(i).bestSoFar() / ref;
            }
            lines.add(new TuneReport.Line(e.getKey(), x, y));
        }
        return new TuneReport.Chart(id, title, "tuning time, s", "best known / " + (Double.isNaN(reference)
                ? "final best" : "reference"), true, lines);
    }

    /** The cross-device matrices as one heat map: a row per query and device tuned for, a column per device run on. */
    public static TuneReport.HeatMap matrix(String id, String title, List<CrossDevice.Matrix> ms) {
        List<String> rows = new ArrayList<>();
        List<String> cols = ms.isEmpty() ? List.of() : ms.get(0).devices();
        List<double[]> values = new ArrayList<>();
        List<String[]> text = new ArrayList<>();
        for (CrossDevice.Matrix m : ms) {
            for (int i = 0; i < m.devices().size(); i++) {
                rows.add(m.query() + " tuned for " + m.devices().get(i));
                double[] v = new double[cols.size()];
                String[] t = new String[cols.size()];
                for (int j = 0; j < cols.size(); j++) {
                    v[j] = m.ratio(i, j);
                    t[j] = Double.isNaN(m.seconds()[i][j]) ? "n/a" : String.format(Locale.ROOT, "%.1f ms (%.2fx)",
                            m.seconds()[i][j] * 1e3, v[j]);
                }
                values.add(v);
                text.add(t);
            }
        }
        return new TuneReport.HeatMap(id, title, rows, cols, values.toArray(new double[0][]), text.toArray(new String[0][]));
    }
}

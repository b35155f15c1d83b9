package io.tessera.tune;

import io.tessera.storage.Database;
import io.tessera.variant.Genome;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Measures the strategies against exhaustive search, query by query, on the first device: the optimum, each
 * strategy's genome re-measured next to it (median of interleaved rounds, spread over
 * {@link Target#remeasureCompiles} compiles of each) as a ratio, each strategy's cost (variants, time) as a
 * fraction of exhaustive search's, the best-to-worst spread, and the cross-device matrix
 * (the optimum of the first device and the feature-wise genomes of the others, run on every device). Each
 * strategy, exhaustive search too, starts with nothing compiled ({@link Target#coldStart}): on the GPU the kernels
 * exhaustive search compiled would otherwise come from the disk cache for every later strategy.
 */
public final class TuningBench {

    /** The strategies compared with exhaustive search, in output order. */
    public static final List<String> COMPARED = List.of(FeatureWise.NAME, PlateauDescent.NAME, OnlinePool.NAME);

    /**
     * One strategy on one query: its genome's time and ratio to the optimum; for a strategy whose space is smaller
     * than exhaustive search's (plateau descent: the thread configuration; online pool: what a block may change),
     * also the ratio to the best variant of its own space (NaN otherwise); its cost as shares of exhaustive's.
     */
    public record StrategyRow(String strategy, TuningResult result, double seconds, double ratio, double ownRatio,
                              double variantsFraction, double timeFraction) {
    }

    /**
     * One query: the exhaustive search, its optimum and the default re-measured, the spread of the variants'
     * times (a lower bound when the slowest was cut at the limit), the strategies, and the cross-device matrix
     * (null with one device).
     */
    public record QueryRow(String query, String tunedShape, TuningSpace space, TuningResult exhaustive,
                           double optimumSeconds, double defaultSeconds, double optimumAgainSeconds, double spread,
                           boolean spreadIsLowerBound, List<StrategyRow> strategies, CrossDevice.Matrix matrix) {
        /** The optimum's second compile over its first. */
        public double optimumAgainRatio() {
            return optimumAgainSeconds / optimumSeconds;
        }

        public StrategyRow strategy(String name) {
            for (StrategyRow r : strategies) {
                if (r.strategy().equals(name)) {
                    return r;
                }
            }
            return null;
        }
    }

    private final Database db;
    private final List<TuningDevice> devices;
    private final List<String> strategies;
    private final Strategies.Settings settings;
    private final int rounds;
    private final PrintStream log;

    public TuningBench(Database db, List<TuningDevice> devices, List<String> strategies, Strategies.Settings settings,
                       int rounds, PrintStream log) {
        if (devices.isEmpty()) {
            throw new IllegalArgumentException("no device");
        }
        this.db = db;
        this.devices = devices;
        this.strategies = strategies.stream().map(Strategies::canonical).filter(s -> !s.equals(Exhaustive.NAME)).toList();
        // feature-wise searches exhaustive search's space here, so that their results compare
        this.settings = settings.sameSpaceAsExhaustive();
        this.rounds = rounds;
        this.log = log;
    }

    /** The objectives that compile each candidate for the final re-measurement, one per compile. */
    private static List<Objective> compiles(Target t) {
        List<Objective> out = new ArrayList<>();
        for (int c = 0; c < t.remeasureCompiles(); c++) {
            out.add(t.objective());
        }
        return out;
    }

    private void log(String fmt, Object... args) {
        if (log != null) {
            log.printf(Locale.ROOT, fmt + "%n", args);
        }
    }

    public QueryRow run(WorkloadTuner.Query q) {
        List<Target> opened = new ArrayList<>();
        Throwable failure = null;
        try {
            return run(q, opened);
        } catch (RuntimeException | Error e) {
            failure = e;
            throw e;
        } finally {
            Targets.closeAll(opened, failure);
        }
    }

    /** {@link #run(WorkloadTuner.Query)}, adding every target it makes to {@code opened}, for the caller to close. */
    private QueryRow run(WorkloadTuner.Query q, List<Target> opened) {
        Target t = devices.get(0).target(db, q.sql());
        opened.add(t);
        TuningSpace space = Strategies.space(Exhaustive.NAME, t, t.defaults(), settings);
        log("%s: exhaustive search over %d combinations of %s on %s ...", q.label(), space.size(),
                space.knobs().stream().map(TuningSpace.Knob::name).toList(), devices.get(0).name());
        t.coldStart();
        TuningResult ex = Strategies.run(Exhaustive.NAME, t, t.defaults(), settings);
        log("%s: exhaustive ran %d variants in %.1f s, optimum %s", q.label(), ex.variants(), ex.costSeconds(),
                space.describe(ex.best()));
        List<TuningResult> found = new ArrayList<>();
        List<Map<Integer, Genome>> ownBest = new ArrayList<>();
        for (String s : strategies) {
            t.coldStart(); // each strategy compiles what it runs, as exhaustive search did
            TuningResult r = Strategies.run(s, t, t.defaults(), settings);
            log("%s: %s measured %d variants in %.2f s, found %s (%s)", q.label(), s, r.variants(), r.costSeconds(),
                    space.describe(r.best()), r.note());
            found.add(r);
            ownBest.add(bestWithin(ex, space, Strategies.space(s, t, t.defaults(), settings)));
        }
        List<Map<Integer, Genome>> candidates = new ArrayList<>();
        candidates.add(space.complete(ex.best()));
        candidates.add(space.complete(t.defaults()));
        for (TuningResult r : found) {
            candidates.add(space.complete(r.best()));
        }
        for (Map<Integer, Genome> o : ownBest) {
            if (o != null) {
                candidates.add(space.complete(o));
            }
        }
        // the optimum once more, compiled by objectives of its own: two sets of compiles of one genome, measured as
        // the strategies' genomes are, show how far apart equal genomes measure (the resolution of every ratio)
        List<List<Objective>> objectives = new ArrayList<>(java.util.Collections.nCopies(candidates.size(), compiles(t)));
        candidates.add(candidates.get(0));
        objectives.add(compiles(t));
        double[] m = Remeasure.mediansOverCompiles(objectives, candidates, rounds);
        double optimumAgain = m[m.length - 1];
        List<StrategyRow> rows = new ArrayList<>();
        int k = 2 + found.size();
        for (int i = 0; i < found.size(); i++) {
            TuningResult r = found.get(i);
            double own = ownBest.get(i) == null ? Double.NaN : m[i + 2] / m[k++];
            rows.add(new StrategyRow(r.strategy(), r, m[i + 2], m[i + 2] / m[0], own,
                    (double) r.variants() / ex.variants(), r.costSeconds() / ex.costSeconds()));
        }
        double min = Double.POSITIVE_INFINITY;
        double max = 0;
        boolean maxPruned = false;
        for (TuningResult.Evaluation e : ex.trace()) {
            if (!e.pruned()) {
                min = Math.min(min, e.seconds());
            }
            if (e.seconds() > max) {
                max = e.seconds();
                maxPruned = e.pruned();
            }
        }
        CrossDevice.Matrix matrix = null;
        if (devices.size() > 1) {
            List<Target> targets = new ArrayList<>();
            List<Map<Integer, Genome>> tuned = new ArrayList<>();
            targets.add(t);
            tuned.add(ex.best());
            for (TuningDevice d : devices.subList(1, devices.size())) {
                Target td = d.target(db, q.sql());
                opened.add(td);
                TuningResult fw = Strategies.run(FeatureWise.NAME, td, td.defaults(), settings);
                log("%s: feature-wise on %s measured %d variants", q.label(), d.name(), fw.variants());
                targets.add(td);
                tuned.add(fw.best());
            }
            matrix = CrossDevice.measure(q.label(), targets, tuned, rounds);
        }
        return new QueryRow(q.label(), t.pipeline(t.focus()).shape(), space, ex, m[0], m[1], optimumAgain, max / min,
                maxPruned, rows, matrix);
    }

    /**
     * The fastest variant of exhaustive search's first pass that lies in a strategy's smaller space (the
     * dimensions it does not tune at their start values, those it tunes at values it may take); null when the
     * strategy searches exhaustive search's whole space.
     */
    static Map<Integer, Genome> bestWithin(TuningResult ex, TuningSpace whole, TuningSpace own) {
        Map<String, List<String>> ownValues = new java.util.HashMap<>();
        for (TuningSpace.Knob k : own.knobs()) {
            ownValues.put(k.label(), k.values());
        }
        boolean smaller = false;
        for (TuningSpace.Knob k : whole.knobs()) {
            List<String> values = ownValues.get(k.label());
            smaller |= values == null || values.size() < k.values().size();
        }
        if (!smaller) {
            return null;
        }
        Map<Integer, Genome> best = null;
        double bestSeconds = Double.POSITIVE_INFINITY;
        for (TuningResult.Evaluation e : ex.trace()) {
            if (e.pruned() || e.seconds() >= bestSeconds) {
                continue;
            }
            boolean inside = true;
            for (TuningSpace.Knob k : whole.knobs()) {
                String v = whole.value(e.assignment(), k);
                List<String> values = ownValues.get(k.label());
                inside &= values == null ? v.equals(whole.value(whole.start(), k)) : values.contains(v);
            }
            if (inside) {
                best = e.assignment();
                bestSeconds = e.seconds();
            }
        }
        return best;
    }

    // ---- output ----

    private static String pct(double f) {
        return Double.isNaN(f) ? "-" : f >= 0.1 ? String.format(Locale.ROOT, "%.0f%%", f * 100)
                : String.format(Locale.ROOT, "%.1f%%", f * 100);
    }

    private static String ms(double s) {
        return Double.isNaN(s) ? "-" : String.format(Locale.ROOT, "%.2f", s * 1e3);
    }

    /** A summary's ratio cells: how many within 1.05x and within 1.3x, the worst, the geometric mean. */
    private static List<String> ratioCells(double[] ratios) {
        return List.of(Arrays.stream(ratios).filter(x -> x <= 1.05).count() + " of " + ratios.length,
                Arrays.stream(ratios).filter(x -> x <= 1.3).count() + " of " + ratios.length,
                String.format(Locale.ROOT, "%.3f", Arrays.stream(ratios).max().orElse(Double.NaN)),
                String.format(Locale.ROOT, "%.3f", Remeasure.geomean(ratios)));
    }

    /** A summary row of ratios that no strategy found (the defaults, the optimum again): no own space, no cost. */
    private static String[] referenceRow(String label, double[] ratios) {
        List<String> cells = new ArrayList<>(List.of(label));
        cells.addAll(ratioCells(ratios));
        cells.addAll(java.util.Collections.nCopies(5, "-"));
        return cells.toArray(new String[0]);
    }

    /** The tables: exhaustive search per query, the strategies per query, a summary, the cross-device matrices. */
    public static String format(List<QueryRow> rows, List<String> strategies) {
        StringBuilder sb = new StringBuilder();
        sb.append("Exhaustive search: every valid variant of the tuned pipeline (the largest table scan)\n");
        Table ex = new Table("query", "tuned pipeline", "combinations", "ran", "pruned", "optimum ms", "default ms",
                "spread", "cost s", "optimum genome");
        for (QueryRow r : rows) {
            long pruned = r.exhaustive().trace().stream().filter(TuningResult.Evaluation::pruned).count();
            ex.add(r.query(), r.tunedShape(), Long.toString(r.space().size()), Integer.toString(r.exhaustive().variants()),
                    Long.toString(pruned), ms(r.optimumSeconds()), ms(r.defaultSeconds()),
                    (r.spreadIsLowerBound() ? ">=" : "") + String.format(Locale.ROOT, "%.2f", r.spread()),
                    String.format(Locale.ROOT, "%.1f", r.exhaustive().costSeconds()),
                    r.space().complete(r.exhaustive().best()).get(r.space().focus()).toString());
        }
        sb.append(ex);
        sb.append("\nStrategies: the found genome's time over the optimum's (both re-measured, median of interleaved "
                + "rounds spread over compiles of each: three on the JVM, one on the GPU); 'own': over the best variant "
                + "of the strategy's own, smaller space (the dimensions it does not tune at their defaults); cost as a "
                + "share of exhaustive search's variants and time; 'optimum again': the optimum compiled apart once "
                + "more over the first (equal genomes measure this far apart)\n");
        List<String> header = new ArrayList<>(List.of("query", "optimum again"));
        boolean[] own = new boolean[strategies.size()];
        for (int i = 0; i < strategies.size(); i++) {
            String s = strategies.get(i);
            int si = i;
            own[i] = rows.stream().map(r -> r.strategy(s)).anyMatch(x -> x != null && !Double.isNaN(x.ownRatio()));
            header.addAll(own[si] ? List.of(s + " ratio", "own", "variants", "time") : List.of(s + " ratio", "variants", "time"));
        }
        Table st = new Table(header.toArray(new String[0]));
        for (QueryRow r : rows) {
            List<String> cells = new ArrayList<>(List.of(r.query(),
                    String.format(Locale.ROOT, "%.3f", r.optimumAgainRatio())));
            for (int i = 0; i < strategies.size(); i++) {
                StrategyRow x = r.strategy(strategies.get(i));
                if (x == null) {
                    cells.addAll(own[i] ? List.of("-", "-", "-", "-") : List.of("-", "-", "-"));
                    continue;
                }
                cells.add(String.format(Locale.ROOT, "%.3f", x.ratio()));
                if (own[i]) {
                    cells.add(Double.isNaN(x.ownRatio()) ? "-" : String.format(Locale.ROOT, "%.3f", x.ownRatio()));
                }
                cells.add(pct(x.variantsFraction()));
                cells.add(pct(x.timeFraction()));
            }
            st.add(cells.toArray(new String[0]));
        }
        sb.append(st);
        sb.append("\nSummary over ").append(rows.size()).append(" queries\n");
        Table sum = new Table("strategy", "within 1.05x", "within 1.3x", "worst ratio", "geomean ratio",
                "own: within 1.05x", "own: worst", "median variants", "median time", "max time");
        for (String s : strategies) {
            double[] ratios = rows.stream().map(r -> r.strategy(s)).filter(x -> x != null).mapToDouble(StrategyRow::ratio).toArray();
            double[] vf = rows.stream().map(r -> r.strategy(s)).filter(x -> x != null).mapToDouble(StrategyRow::variantsFraction).toArray();
            double[] tf = rows.stream().map(r -> r.strategy(s)).filter(x -> x != null).mapToDouble(StrategyRow::timeFraction).toArray();
            if (ratios.length == 0) {
                continue;
            }
            double[] owns = rows.stream().map(r -> r.strategy(s)).filter(x -> x != null && !Double.isNaN(x.ownRatio()))
                    .mapToDouble(StrategyRow::ownRatio).toArray();
            List<String> cells = new ArrayList<>(List.of(s));
            cells.addAll(ratioCells(ratios));
            cells.addAll(List.of(owns.length == 0 ? "-" : Arrays.stream(owns).filter(x -> x <= 1.05).count() + " of " + owns.length,
                    owns.length == 0 ? "-" : String.format(Locale.ROOT, "%.3f", Arrays.stream(owns).max().orElseThrow()),
                    pct(Remeasure.median(vf)), pct(Remeasure.median(tf)), pct(Arrays.stream(tf).max().orElseThrow())));
            sum.add(cells.toArray(new String[0]));
        }
        double[] defaults = rows.stream().mapToDouble(r -> r.defaultSeconds() / r.optimumSeconds()).toArray();
        sum.add(referenceRow("(default genomes)", defaults));
        // equal genomes: a ratio below 1 is as far off as its inverse
        double[] again = rows.stream().mapToDouble(QueryRow::optimumAgainRatio).map(x -> Math.max(x, 1 / x)).toArray();
        sum.add(referenceRow("(optimum again)", again));
        sb.append(sum);
        double[] spreads = rows.stream().mapToDouble(QueryRow::spread).toArray();
        sb.append(String.format(Locale.ROOT, "best-to-worst spread: %.2f to %.2f (geomean %.2f)%n",
                Arrays.stream(spreads).min().orElse(Double.NaN), Arrays.stream(spreads).max().orElse(Double.NaN),
                Remeasure.geomean(spreads)));
        List<CrossDevice.Matrix> ms = rows.stream().map(QueryRow::matrix).filter(x -> x != null).toList();
        if (!ms.isEmpty()) {
            sb.append("\nCross-device matrix: rows tuned for a device (the first device's optimum, the others' "
                    + "feature-wise genomes), columns run on a device; ms (ratio to the column's own)\n");
            List<String> h = new ArrayList<>(List.of("query", "tuned for"));
            for (String d : ms.get(0).devices()) {
                h.add("on " + d);
            }
            Table mt = new Table(h.toArray(new String[0]));
            for (CrossDevice.Matrix m : ms) {
                for (int i = 0; i < m.devices().size(); i++) {
                    List<String> c = new ArrayList<>(List.of(i == 0 ? m.query() : "", m.devices().get(i)));
                    for (int j = 0; j < m.devices().size(); j++) {
                        c.add(Double.isNaN(m.seconds()[i][j]) ? "n/a" : ms(m.seconds()[i][j])
                                + String.format(Locale.ROOT, " (%.2fx)", m.ratio(i, j)));
                    }
                    mt.add(c.toArray(new String[0]));
                }
            }
            sb.append(mt);
        }
        return sb.toString();
    }

    /** The report page: sorted runtimes per query, convergence per query (all strategies), the matrices. */
    public static String report(List<QueryRow> rows, List<String> facts) {
        List<TuneReport.Chart> runtimes = new ArrayList<>();
        Map<String, TuningResult> all = new LinkedHashMap<>();
        for (QueryRow r : rows) {
            all.put(r.query(), r.exhaustive());
        }
        runtimes.add(TuningReports.runtimes("runtimes", "exhaustive search: every variant, sorted", all));
        List<TuneReport.Chart> conv = new ArrayList<>();
        for (QueryRow r : rows) {
            Map<String, TuningResult> by = new LinkedHashMap<>();
            by.put(Exhaustive.NAME, r.exhaustive());
            for (StrategyRow s : r.strategies()) {
                if (s.result().strategy().equals(FeatureWise.NAME) || s.result().strategy().equals(Exhaustive.NAME)) {
                    by.put(s.strategy(), s.result());
                }
            }
            conv.add(TuningReports.convergence("convergence-" + r.query(), r.query() + ": whole-query strategies", by,
                    r.exhaustive().bestSeconds()));
            Map<String, TuningResult> blocks = new LinkedHashMap<>();
            for (StrategyRow s : r.strategies()) {
                if (!by.containsKey(s.strategy())) {
                    blocks.put(s.strategy(), s.result());
                }
            }
            if (!blocks.isEmpty()) {
                conv.add(TuningReports.convergence("blocks-" + r.query(), r.query() + ": in-query strategies (per block)",
                        blocks, Double.NaN));
            }
        }
        List<TuneReport.Section> sections = new ArrayList<>();
        sections.add(new TuneReport.Section("Variant runtimes", "Every variant exhaustive search ran, per query, "
                + "fastest to slowest, as a multiple of the fastest (cut runs left out).", runtimes, List.of()));
        sections.add(new TuneReport.Section("Convergence", "Best time known against tuning time. Whole-query "
                + "strategies relative to the exhaustive optimum; in-query strategies' block times relative to their "
                + "own final best.", conv, List.of()));
        List<CrossDevice.Matrix> ms = rows.stream().map(QueryRow::matrix).filter(x -> x != null).toList();
        if (!ms.isEmpty()) {
            sections.add(new TuneReport.Section("Cross-device matrix", "Genomes tuned for each device run on every "
                    + "device; ratio to the genomes tuned for the device they ran on.", List.of(),
                    List.of(TuningReports.matrix("matrix", "tuned for (rows), run on (columns)", ms))));
        }
        return TuneReport.html("Tessera tuning benchmark", facts, sections);
    }

    /** Aligned text columns (first two left, the rest right, the last left). */
    static final class Table {
        private final List<String[]> rows = new ArrayList<>();
        private final int n;

        Table(String... header) {
            n = header.length;
            rows.add(header);
        }

        void add(String... cells) {
            if (cells.length != n) {
                throw new IllegalArgumentException(cells.length + " cells, " + n + " columns");
            }
            rows.add(cells);
        }

        @Override
        public String toString() {
            boolean lastLeft = rows.get(0)[n - 1].contains("genome");
            int[] w = new int[n];
            for (String[] r : rows) {
                for (int i = 0; i < n; i++) {
                    w[i] = Math.max(w[i], r[i].length());
                }
            }
            StringBuilder sb = new StringBuilder();
            for (int k = 0; k < rows.size(); k++) {
                String[] r = rows.get(k);
                StringBuilder line = new StringBuilder();
                for (int i = 0; i < n; i++) {
                    boolean left = i < 2 || i == n - 1 && lastLeft;
                    String cell = left ? r[i] + " ".repeat(w[i] - r[i].length()) : " ".repeat(w[i] - r[i].length()) + r[i];
                    line.append(i == 0 ? "" : "  ").append(cell);
                }
                sb.append(line.toString().stripTrailing()).append('\n');
                if (k == 0) {
                    StringBuilder rule = new StringBuilder();
                    for (int i = 0; i < n; i++) {
                        rule.append(i == 0 ? "" : "  ").append("-".repeat(w[i]));
                    }
                    sb.append(rule).append('\n');
                }
            }
            return sb.toString();
        }
    }
}

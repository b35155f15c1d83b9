package io.tessera.bench;

import io.tessera.api.QueryResult;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Runs benchmark queries warm in Tessera and in a peer (DuckDB) on the same data in one process: warm-up runs
 * ({@link #warmUp}) and then {@code runs} timed runs of each query on each side, reported as medians in one table
 * with the Tessera/peer ratio, the result rows, Tessera's compile time, and a geometric-mean row; beside them
 * Tessera's first run of each query (its time and compile time: a query met for the first time is planned and
 * compiled, a later run of the same text reuses its plan where nothing has changed).
 */
public final class SsbBench {

    /** Most warm-up runs of a query on one side. */
    static final int MAX_WARM_UPS = 4;
    /**
     * A warm-up run this much faster than the one before says the side is still warming up, and another follows.
     * The first query of a process is the one that needs more than one: its pipeline's first compiled code waits
     * behind the JIT's compiles of the engine itself (TPC-H Q1 at SF 10 on 16 cores measured 230 ms after one
     * warm-up where a third run in a process took 130 ms).
     */
    static final double STILL_WARMING = 0.8;

    /** Something that answers SQL: Tessera through its API, or the peer. */
    public interface Runner {
        QueryResult query(String sql);
    }

    /** The measurements of one query; a side that failed has NaN times and its error. */
    public record Row(String query, double tesseraMs, double peerMs, long rows, double compileMs,
                      double firstMs, double firstCompileMs, String tesseraError, String peerError,
                      boolean rowCountsDiffer) {
        public double ratio() {
            return tesseraMs / peerMs;
        }

        boolean bothRan() {
            return tesseraError == null && peerError == null;
        }
    }

    private SsbBench() {
    }

    /** Runs every query; {@code peer} may be null (no peer column). Progress lines go to {@code log} if given. */
    public static List<Row> run(Runner tessera, Runner peer, List<Queries.Query> queries, int runs, PrintStream log) {
        if (runs < 1) {
            throw new IllegalArgumentException("--runs must be at least 1, got " + runs);
        }
        List<Row> out = new ArrayList<>();
        for (Queries.Query q : queries) {
            if (log != null) {
                log.println("running " + q.name() + " ...");
            }
            Measured t = measure(tessera, q.sql(), runs);
            Measured p = peer == null ? new Measured(Double.NaN, Double.NaN, Double.NaN, Double.NaN, -1, "no peer")
                    : measure(peer, q.sql(), runs);
            long rows = t.error == null ? t.rows : p.rows;
            boolean differ = t.error == null && p.error == null && t.rows != p.rows;
            Row row = new Row(q.name(), t.medianMs, p.medianMs, rows, t.compileMs, t.firstMs, t.firstCompileMs, t.error,
                    peer == null ? null : p.error, differ);
            out.add(row);
            if (log != null) {
                // each query's numbers as soon as they are known, so a run stopped part-way still reports them
                log.printf(Locale.ROOT, "  %s: Tessera %.2f ms, peer %.2f ms, ratio %.2f, compile %.2f ms, first run"
                                + " %.2f ms (compile %.2f)%s%n", q.name(), row.tesseraMs(), row.peerMs(), row.ratio(),
                        row.compileMs(), row.firstMs(), row.firstCompileMs(),
                        row.bothRan() ? "" : " (" + (t.error != null ? t.error : p.error) + ")");
            }
        }
        return out;
    }

    /**
     * A query's median time and compile time over the timed runs after its warm-up, and its first run's; NaN times
     * and the error when it failed.
     */
    record Measured(double medianMs, double compileMs, double firstMs, double firstCompileMs, long rows,
                    String error) {
    }

    static Measured measure(Runner r, String sql, int runs) {
        try {
            double[] first = {Double.NaN, Double.NaN};
            warmUp(() -> {
                long t0 = System.nanoTime();
                QueryResult res = r.query(sql);
                double ms = (System.nanoTime() - t0) / 1e6;
                if (Double.isNaN(first[0])) {
                    first[0] = ms;
                    first[1] = res.compileNanos() / 1e6;
                }
                return ms;
            });
            double[] ms = new double[runs];
            double[] compile = new double[runs];
            long rows = -1;
            for (int i = 0; i < runs; i++) {
                long t0 = System.nanoTime();
                QueryResult res = r.query(sql);
                ms[i] = (System.nanoTime() - t0) / 1e6;
                compile[i] = res.compileNanos() / 1e6;
                rows = res.rowCount();
            }
            return new Measured(median(ms), median(compile), first[0], first[1], rows, null);
        } catch (RuntimeException e) {
            String msg = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
            return new Measured(Double.NaN, Double.NaN, Double.NaN, Double.NaN, -1,
                    msg.lines().findFirst().orElse(msg));
        }
    }

    /**
     * Runs a query until it stops getting faster: twice at least (the first run compiles, caches and pages in),
     * again while a run took less than {@link #STILL_WARMING} of the time of the one before, at most
     * {@link #MAX_WARM_UPS} times. {@code timedRun} runs the query once and returns its milliseconds. Returns the runs
     * made.
     */
    static int warmUp(java.util.function.DoubleSupplier timedRun) {
        double before = Double.NaN;
        for (int i = 1; ; i++) {
            double ms = timedRun.getAsDouble();
            if (i >= MAX_WARM_UPS || (i >= 2 && !(ms < STILL_WARMING * before))) {
                return i;
            }
            before = ms;
        }
    }

    static double median(double[] v) {
        double[] s = v.clone();
        Arrays.sort(s);
        int n = s.length;
        return n % 2 == 1 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
    }

    /** Geometric mean of the positive values (NaN when there are none). */
    public static double geomean(List<Double> values) {
        double logSum = 0;
        int n = 0;
        for (double v : values) {
            if (v > 0 && Double.isFinite(v)) {
                logSum += Math.log(v);
                n++;
            }
        }
        return n == 0 ? Double.NaN : Math.exp(logSum / n);
    }

    /** The result table, with a geometric-mean row over the queries both sides ran, and the errors below it. */
    public static String format(List<Row> rows, String peerName) {
        StringBuilder sb = new StringBuilder();
        String header = String.format(Locale.ROOT, "%-8s %12s %12s %10s %10s %12s %12s %14s", "query", "Tessera ms",
                peerName + " ms", "ratio", "rows", "compile ms", "first ms", "first compile");
        sb.append(header).append('\n').append("-".repeat(header.length())).append('\n');
        List<Double> t = new ArrayList<>();
        List<Double> p = new ArrayList<>();
        List<Double> r = new ArrayList<>();
        List<Double> c = new ArrayList<>();
        List<Double> f = new ArrayList<>();
        List<Double> fc = new ArrayList<>();
        for (Row row : rows) {
            sb.append(String.format(Locale.ROOT, "%-8s %12s %12s %10s %10s %12s %12s %14s", row.query(),
                    ms(row.tesseraMs()), ms(row.peerMs()), ratio(row.ratio()),
                    row.rows() < 0 ? "-" : Long.toString(row.rows()), ms(row.compileMs()), ms(row.firstMs()),
                    ms(row.firstCompileMs())));
            if (row.rowCountsDiffer()) {
                sb.append("  (row counts differ)");
            }
            sb.append('\n');
            if (row.bothRan()) {
                t.add(row.tesseraMs());
                p.add(row.peerMs());
                r.add(row.ratio());
                c.add(row.compileMs());
                f.add(row.firstMs());
                fc.add(row.firstCompileMs());
            }
        }
        sb.append("-".repeat(header.length())).append('\n');
        sb.append(String.format(Locale.ROOT, "%-8s %12s %12s %10s %10s %12s %12s %14s", "geomean", ms(geomean(t)),
                ms(geomean(p)), ratio(geomean(r)), "", ms(geomean(c)), ms(geomean(f)), ms(geomean(fc))))
                .append('\n');
        for (Row row : rows) {
            if (row.tesseraError() != null) {
                sb.append(row.query()).append(": Tessera failed: ").append(row.tesseraError()).append('\n');
            }
            if (row.peerError() != null) {
                sb.append(row.query()).append(": ").append(peerName).append(" failed: ").append(row.peerError())
                        .append('\n');
            }
        }
        return sb.toString();
    }

    private static String ms(double v) {
        return Double.isNaN(v) ? "-" : String.format(Locale.ROOT, "%.2f", v);
    }

    private static String ratio(double v) {
        return Double.isNaN(v) || Double.isInfinite(v) ? "-" : String.format(Locale.ROOT, "%.2f", v);
    }
}

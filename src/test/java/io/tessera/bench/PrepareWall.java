package io.tessera.bench;

import io.tessera.exec.QueryEngine;
import io.tessera.storage.Database;

import java.lang.management.CompilationMXBean;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * A benchmark, not a test: where the wall time of a prepare goes in the order {@code bench tpch} runs the queries.
 * Each TPC-H query in turn is warmed up as {@link SsbBench#warmUp} does (whole runs), then prepared and run
 * {@code RUNS} times; of each prepare it records the wall time (what {@code QueryResult.compileNanos} reports), the
 * main thread's CPU, the main thread's time waiting for a core (Linux's schedstat), the CPU of the whole process (so
 * the JIT's and the collector's threads too), the collectors' time and the JIT's compile time. After the 22 queries
 * {@code ROUNDS} more rounds of all of them measure the same warm, as {@link PrepareCpu} does. Prints medians, asserts
 * nothing.
 *
 * <pre>java -cp target/tessera.jar:target/lib/*:target/test-classes io.tessera.bench.PrepareWall DB [RUNS [ROUNDS]]</pre>
 */
public final class PrepareWall {

    private static final String[] COLUMNS = {"wall", "cpu", "runq", "blocked", "jit thr", "gc thr", "other thr",
            "gc", "jit", "alloc MB",
            "run wall", "run cpu"};

    private PrepareWall() {
    }

    /** What one prepare cost, in ms (allocation in MB). */
    private static double[] measurePrepare(QueryEngine engine, String sql, Counters c) {
        double[] others0 = c.otherThreads();
        double[] before = c.read();
        long t0 = System.nanoTime();
        QueryEngine.Prepared p = engine.prepare(sql);
        long wall = System.nanoTime() - t0;
        double[] after = c.read();
        double[] others1 = c.otherThreads();
        long r0 = System.nanoTime();
        engine.run(p);
        long runWall = System.nanoTime() - r0;
        double[] others2 = c.otherThreads();
        double[] done = c.read();
        double cpu = after[0] - before[0];
        double runq = after[1] - before[1];
        double[] out = new double[COLUMNS.length];
        out[0] = wall / 1e6;
        out[1] = cpu;
        out[2] = runq;
        out[3] = Math.max(0, wall / 1e6 - cpu - runq);
        for (int k = 0; k < 3; k++) {
            out[4 + k] = others1[k] - others0[k];
        }
        out[7] = after[2] - before[2];
        out[8] = after[3] - before[3];
        out[9] = after[4] - before[4];
        out[10] = runWall / 1e6;
        // the run's CPU on every thread: the main thread's, the workers', the JIT's and the collector's
        out[11] = done[0] - after[0] + others2[0] + others2[1] + others2[2] - others1[0] - others1[1] - others1[2];
        return out;
    }

    /** The counters read before and after a prepare. */
    private static final class Counters {
        final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        final List<GarbageCollectorMXBean> gcs = ManagementFactory.getGarbageCollectorMXBeans();
        final CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
        final Path schedstat = Path.of("/proc/thread-self/schedstat");
        final String self;

        Counters() {
            String s;
            try {
                s = Path.of("/proc/thread-self").toRealPath().getFileName().toString();
            } catch (java.io.IOException e) {
                s = "";
            }
            self = s;
        }

        /** Main thread CPU ms, its run-queue wait ms, GC ms, JIT ms, MB allocated by this thread. */
        double[] read() {
            double cpu = threads.getCurrentThreadCpuTime() / 1e6;
            double wait;
            try {
                wait = Long.parseLong(Files.readString(schedstat).trim().split(" ")[1]) / 1e6;
            } catch (Exception e) {
                wait = Double.NaN;
            }
            long gc = 0;
            for (GarbageCollectorMXBean b : gcs) {
                gc += b.getCollectionTime();
            }
            double alloc = ((com.sun.management.ThreadMXBean) threads).getCurrentThreadAllocatedBytes() / 1e6;
            return new double[] {cpu, wait, gc, jit.getTotalCompilationTime(), alloc};
        }

        /**
         * CPU ms (Linux's schedstat, nanoseconds) of the process's other threads: the JIT's compiler threads, the
         * collector's threads (and the VM thread), and the rest.
         */
        double[] otherThreads() {
            double[] out = new double[3];
            try (var tasks = Files.list(Path.of("/proc/self/task"))) {
                for (Path t : tasks.toList()) {
                    if (t.getFileName().toString().equals(self)) {
                        continue;
                    }
                    try {
                        String name = Files.readString(t.resolve("comm")).trim();
                        long ns = Long.parseLong(Files.readString(t.resolve("schedstat")).trim().split(" ")[0]);
                        int k = name.startsWith("C1 Compiler") || name.startsWith("C2 Compiler") ? 0
                                : name.startsWith("GC Thread") || name.equals("VM Thread") ? 1 : 2;
                        out[k] += ns / 1e6;
                    } catch (java.io.IOException | RuntimeException e) {
                        // a thread that ended meanwhile
                    }
                }
            } catch (java.io.IOException e) {
                java.util.Arrays.fill(out, Double.NaN);
            }
            return out;
        }
    }

    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args[0]);
        int runs = args.length > 1 ? Integer.parseInt(args[1]) : 3;
        int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 8;
        Counters counters = new Counters();
        io.tessera.exec.WarmUp.start(); // as Tessera.open does, ahead of the first query
        try (Database db = Database.open(dir)) {
            QueryEngine engine = new QueryEngine(db, Runtime.getRuntime().availableProcessors());
            List<Queries.Query> queries = Queries.all(Queries.TPCH).stream()
                    .map(q -> Queries.atScale(q, Queries.tpchScale(db))).toList();
            List<double[]> inBench = new ArrayList<>();
            for (Queries.Query q : queries) {
                SsbBench.warmUp(() -> {
                    long t0 = System.nanoTime();
                    engine.execute(q.sql());
                    return (System.nanoTime() - t0) / 1e6;
                });
                double[][] m = new double[runs][];
                for (int i = 0; i < runs; i++) {
                    m[i] = measurePrepare(engine, q.sql(), counters);
                }
                inBench.add(medians(m));
            }
            double[][][] warm = new double[queries.size()][rounds][];
            for (int r = 0; r < rounds; r++) {
                for (int q = 0; q < queries.size(); q++) {
                    warm[q][r] = measurePrepare(engine, queries.get(q).sql(), counters);
                }
            }
            List<double[]> warmMedians = new ArrayList<>();
            for (double[][] w : warm) {
                warmMedians.add(medians(w));
            }
            print("in the bench's order (each query after its warm-up), medians of " + runs, queries, inBench);
            print("after all 22, " + rounds + " rounds, medians", queries, warmMedians);
        }
    }

    private static double[] medians(double[][] m) {
        double[] out = new double[COLUMNS.length];
        for (int c = 0; c < COLUMNS.length; c++) {
            double[] col = new double[m.length];
            for (int i = 0; i < m.length; i++) {
                col[i] = m[i][c];
            }
            out[c] = median(col);
        }
        return out;
    }

    private static void print(String title, List<Queries.Query> queries, List<double[]> rows) {
        System.out.println(title + " (ms; alloc in MB)");
        StringBuilder head = new StringBuilder(String.format(Locale.ROOT, "%-6s", "query"));
        for (String s : COLUMNS) {
            head.append(String.format(Locale.ROOT, " %9s", s));
        }
        System.out.println(head);
        double[] logSum = new double[COLUMNS.length];
        for (int q = 0; q < rows.size(); q++) {
            StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "%-6s", queries.get(q).name()));
            for (int c = 0; c < COLUMNS.length; c++) {
                line.append(String.format(Locale.ROOT, " %9.2f", rows.get(q)[c]));
                logSum[c] += Math.log(Math.max(rows.get(q)[c], 0.01));
            }
            System.out.println(line);
        }
        StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "%-6s", "geomean"));
        for (int c = 0; c < COLUMNS.length; c++) {
            line.append(String.format(Locale.ROOT, " %9.2f", Math.exp(logSum[c] / rows.size())));
        }
        System.out.println(line);
    }

    private static double median(double[] v) {
        double[] s = v.clone();
        Arrays.sort(s);
        return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
    }
}

package io.tessera.bench;

import io.tessera.exec.QueryEngine;
import io.tessera.optimize.Optimizer;
import io.tessera.plan.PhysicalPlanner;
import io.tessera.sql.SqlFrontEnd;
import io.tessera.storage.Database;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * A benchmark, not a test: the main thread's CPU time of a warm prepare of each TPC-H query (SQL text to runnable
 * code, its classes cached after the first round), and of its stages (parse, front end, optimizer, physical
 * planning). Prints medians, asserts nothing.
 *
 * <pre>java -cp target/tessera.jar:target/lib/*:target/test-classes io.tessera.bench.PrepareCpu DB [ROUNDS [WARM [q2,q17]]]</pre>
 *
 * Each round prepares every query once, so the process is as warm for each query as for the others; the first
 * {@code WARM} rounds are not counted.
 */
public final class PrepareCpu {

    private static final String[] STAGES = {"whole prepare", "parse", "front end", "optimizer", "physical"};

    private PrepareCpu() {
    }

    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args[0]);
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 20;
        int warm = args.length > 2 ? Integer.parseInt(args[2]) : 20;
        List<String> names = args.length > 3 ? List.of(args[3].split(",")) : Queries.names(Queries.TPCH);
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        try (Database db = Database.open(dir)) {
            QueryEngine engine = new QueryEngine(db, 1);
            SqlFrontEnd front = new SqlFrontEnd(db);
            double[][][] nanos = new double[names.size()][STAGES.length][rounds];
            for (int r = 0; r < warm + rounds; r++) {
                for (int q = 0; q < names.size(); q++) {
                    String sql = Queries.sql(Queries.TPCH, names.get(q));
                    long c0 = mx.getCurrentThreadCpuTime();
                    engine.prepare(sql);
                    long c1 = mx.getCurrentThreadCpuTime();
                    var parsed = SqlFrontEnd.parse(sql);
                    long c2 = mx.getCurrentThreadCpuTime();
                    var logical = front.plan(parsed);
                    long c3 = mx.getCurrentThreadCpuTime();
                    var optimized = Optimizer.optimize(logical);
                    long c4 = mx.getCurrentThreadCpuTime();
                    PhysicalPlanner.plan(optimized);
                    long c5 = mx.getCurrentThreadCpuTime();
                    if (r >= warm) {
                        long[] t = {c1 - c0, c2 - c1, c3 - c2, c4 - c3, c5 - c4};
                        for (int s = 0; s < STAGES.length; s++) {
                            nanos[q][s][r - warm] = t[s] / 1e6;
                        }
                    }
                }
            }
            StringBuilder head = new StringBuilder(String.format(Locale.ROOT, "%-6s", "query"));
            for (String s : STAGES) {
                head.append(String.format(Locale.ROOT, " %14s", s));
            }
            System.out.println(head);
            List<double[]> medians = new ArrayList<>();
            for (int q = 0; q < names.size(); q++) {
                double[] m = new double[STAGES.length];
                StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "%-6s", names.get(q)));
                for (int s = 0; s < STAGES.length; s++) {
                    m[s] = median(nanos[q][s]);
                    line.append(String.format(Locale.ROOT, " %14.2f", m[s]));
                }
                medians.add(m);
                System.out.println(line);
            }
            StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "%-6s", "median"));
            for (int s = 0; s < STAGES.length; s++) {
                double[] col = new double[medians.size()];
                for (int q = 0; q < col.length; q++) {
                    col[q] = medians.get(q)[s];
                }
                line.append(String.format(Locale.ROOT, " %14.2f", median(col)));
            }
            System.out.println(line);
        }
    }

    private static double median(double[] v) {
        double[] s = v.clone();
        Arrays.sort(s);
        return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
    }
}

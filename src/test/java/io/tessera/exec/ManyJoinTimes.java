package io.tessera.exec;

import io.tessera.Tessera;
import io.tessera.optimize.Optimizer;
import io.tessera.optimize.SelectFiveTables;
import io.tessera.plan.PhysicalPlanner;
import io.tessera.plan.QueryPlan;
import io.tessera.sql.SqlFrontEnd;

import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Where the time of a join of many ten-row tables goes (the shape of SQLite's select5.test, as
 * {@code optimize.SelectFiveTables} builds it): one database of 64 tables, then per query size (20, 25, 64 tables, a
 * chain of equalities) the first run and nine more in one process. Each run prepares and runs the query as a
 * caller does (total: prepare and run), then plans it again phase by phase to split prepare's time: parse,
 * validate and convert; the logical optimizer (join order included); the physical planner; the rest of prepare
 * (genomes, code generation and compile where the class cache does not hold the classes yet) as prepare's time
 * less the three; the run. Wall and process CPU (all threads, the JIT's and the collector's too), milliseconds.
 *
 * <p>Not a test: {@code java -cp target/classes:target/test-classes:$(cat cp.txt) io.tessera.exec.ManyJoinTimes
 * [runs] [sizes...]}.
 */
public final class ManyJoinTimes {

    private ManyJoinTimes() {
    }

    public static void main(String[] args) throws Exception {
        int runs = args.length > 0 ? Integer.parseInt(args[0]) : 10;
        List<Integer> sizes = new ArrayList<>();
        for (int i = 1; i < args.length; i++) {
            sizes.add(Integer.parseInt(args[i]));
        }
        if (sizes.isEmpty()) {
            sizes = List.of(20, 25, 64);
        }
        Path dir = Files.createTempDirectory("manyjoin");
        SelectFiveTables.build(dir);
        var os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        System.out.printf("%-4s %-4s %9s %9s %9s %9s %9s %9s  (ms: wall/cpu)%n",
                "n", "run", "front", "optimize", "physical", "compile", "run", "total");
        try (Tessera tessera = Tessera.open(dir)) {
            QueryEngine engine = tessera.engine();
            for (int n : sizes) {
                String sql = SelectFiveTables.query(n, false);
                for (int r = 1; r <= runs; r++) {
                    long[] w = new long[6];
                    long[] c = new long[6];
                    // the query as a caller runs it: prepare (plan and compile), then run
                    long compiles = io.tessera.backend.jvm.gen.JavaCompiler.compiles();
                    long w0 = System.nanoTime();
                    long c0 = os.getProcessCpuTime();
                    QueryEngine.Prepared p = engine.prepare(sql);
                    long w1 = System.nanoTime();
                    long c1 = os.getProcessCpuTime();
                    int rows = engine.run(p).rows().size();
                    long w2 = System.nanoTime();
                    long c2 = os.getProcessCpuTime();
                    // then the planning phases again, one by one, to split prepare's time
                    SqlFrontEnd.LogicalPlan logical = engine.frontEnd().plan(sql);
                    long w3 = System.nanoTime();
                    long c3 = os.getProcessCpuTime();
                    Optimizer.OptimizedPlan opt = Optimizer.optimize(logical);
                    long w4 = System.nanoTime();
                    long c4 = os.getProcessCpuTime();
                    QueryPlan plan = PhysicalPlanner.plan(opt);
                    long w5 = System.nanoTime();
                    long c5 = os.getProcessCpuTime();
                    w[0] = w3 - w2;
                    c[0] = c3 - c2;
                    w[1] = w4 - w3;
                    c[1] = c4 - c3;
                    w[2] = w5 - w4;
                    c[2] = c5 - c4;
                    w[3] = Math.max(0, (w1 - w0) - (w5 - w2));
                    c[3] = Math.max(0, (c1 - c0) - (c5 - c2));
                    w[4] = w2 - w1;
                    c[4] = c2 - c1;
                    w[5] = w2 - w0;
                    c[5] = c2 - c0;
                    StringBuilder line = new StringBuilder(String.format("%-4d %-4d", n, r));
                    for (int i = 0; i < 6; i++) {
                        line.append(String.format(" %4d/%-4d", w[i] / 1_000_000, c[i] / 1_000_000));
                    }
                    System.out.println(line + "  rows=" + rows + " pipelines=" + plan.pipelines().size()
                            + " classes compiled=" + (io.tessera.backend.jvm.gen.JavaCompiler.compiles() - compiles));
                }
            }
        }
    }
}

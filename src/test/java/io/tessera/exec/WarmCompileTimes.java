package io.tessera.exec;

import io.tessera.Tessera;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * Compile time of each TPC-H query in a warm process: every query prepared N times, round-robin, in one process; per
 * query the median of the last half of its prepares, wall and the preparing thread's CPU (prepare is SQL text to
 * runnable code; the classes are cached by source after the first, so it is planning and code generation).
 *
 * <p>Not a test: {@code java <the launcher's JVM options> -cp target/classes:target/test-classes:$(cat cp.txt)
 * io.tessera.exec.WarmCompileTimes 60 /tmp/tpch1}.
 */
public final class WarmCompileTimes {

    private WarmCompileTimes() {
    }

    public static void main(String[] a) throws Exception {
        var mx = ManagementFactory.getThreadMXBean();
        int n = Integer.parseInt(a[0]);
        try (Tessera t = Tessera.open(Path.of(a[1]))) {
            QueryEngine e = t.engine();
            var qs = io.tessera.bench.Queries.tpch();
            double[][] wall = new double[qs.size()][n];
            double[][] cpu = new double[qs.size()][n];
            for (int i = 0; i < n; i++) {
                for (int k = 0; k < qs.size(); k++) {
                    long w0 = System.nanoTime(), c0 = mx.getCurrentThreadCpuTime();
                    e.prepare(qs.get(k).sql());
                    wall[k][i] = (System.nanoTime() - w0) / 1e6;
                    cpu[k][i] = (mx.getCurrentThreadCpuTime() - c0) / 1e6;
                }
            }
            double gw = 0, gc = 0;
            for (int k = 0; k < qs.size(); k++) {
                double[] w = Arrays.copyOfRange(wall[k], n / 2, n), c = Arrays.copyOfRange(cpu[k], n / 2, n);
                Arrays.sort(w); Arrays.sort(c);
                System.out.printf("%-4s median wall %6.2f ms, main-thread cpu %6.2f ms (first %7.1f ms)%n", qs.get(k).name(), w[w.length / 2], c[c.length / 2], wall[k][0]);
                gw += Math.log(w[w.length / 2]); gc += Math.log(c[c.length / 2]);
            }
            System.out.printf("geomean wall %.2f ms, cpu %.2f ms%n", Math.exp(gw / qs.size()), Math.exp(gc / qs.size()));
        }
    }
}

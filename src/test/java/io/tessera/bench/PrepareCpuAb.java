package io.tessera.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;

/**
 * A benchmark, not a test: {@link PrepareCpu}'s measure (the main thread's CPU time of a warm prepare of each TPC-H
 * query) for two builds of Tessera in one process, each jar in a class loader of its own with its own copy of the
 * libraries, their prepares of each query alternating (which one goes first alternating too). Both builds see the
 * same load at the same moments, so a difference of a few percent shows where two processes measured one after the
 * other on a loaded machine differ by more than that from run to run.
 *
 * <pre>java -cp target/test-classes io.tessera.bench.PrepareCpuAb OLD.jar NEW.jar LIBDIR DB_A DB_B [ROUNDS [WARM]]</pre>
 *
 * Each build opens its own copy of the database (a database is locked by the process that opens it, and the two
 * class loaders would each take the lock). Prints each query's median, and the median and geometric mean of those.
 */
public final class PrepareCpuAb {

    private PrepareCpuAb() {
    }

    /** One build: its engine's prepare and its copy of {@link Queries}. */
    private record Build(Object engine, Method prepare, Method sql, Object tpch) {

        static Build load(Path jar, List<URL> libs, Path db) throws Exception {
            List<URL> cp = new ArrayList<>();
            cp.add(jar.toUri().toURL());
            cp.addAll(libs);
            ClassLoader cl = new URLClassLoader(cp.toArray(new URL[0]), ClassLoader.getPlatformClassLoader());
            Class<?> database = cl.loadClass("io.tessera.storage.Database");
            Object opened = database.getMethod("open", Path.class).invoke(null, db);
            Class<?> engineClass = cl.loadClass("io.tessera.exec.QueryEngine");
            Object engine = engineClass.getConstructor(database, int.class).newInstance(opened, 1);
            Class<?> queries = cl.loadClass("io.tessera.bench.Queries");
            Method sql = null;
            for (Method m : queries.getMethods()) {
                if (m.getName().equals("sql") && m.getParameterCount() == 2) {
                    sql = m;
                }
            }
            return new Build(engine, engineClass.getMethod("prepare", String.class), sql,
                    queries.getField("TPCH").get(null));
        }

        /** CPU nanoseconds of this thread for one prepare of TPC-H query {@code name}. */
        long prepare(String name, ThreadMXBean mx) throws Exception {
            String text = (String) sql.invoke(null, tpch, name);
            long c0 = mx.getCurrentThreadCpuTime();
            prepare.invoke(engine, text);
            return mx.getCurrentThreadCpuTime() - c0;
        }
    }

    public static void main(String[] args) throws Exception {
        List<URL> libs = new ArrayList<>();
        try (Stream<Path> s = Files.list(Path.of(args[2]))) {
            for (Path p : s.sorted().toList()) {
                libs.add(p.toUri().toURL());
            }
        }
        Build[] builds = {Build.load(Path.of(args[0]), libs, Path.of(args[3])),
                Build.load(Path.of(args[1]), libs, Path.of(args[4]))};
        int rounds = args.length > 5 ? Integer.parseInt(args[5]) : 12;
        int warm = args.length > 6 ? Integer.parseInt(args[6]) : 8;
        List<String> names = Queries.names(Queries.TPCH);
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        double[][][] ms = new double[2][names.size()][rounds];
        for (int r = 0; r < warm + rounds; r++) {
            for (int q = 0; q < names.size(); q++) {
                for (int k = 0; k < 2; k++) {
                    int b = (r + q + k) % 2;
                    long nanos = builds[b].prepare(names.get(q), mx);
                    if (r >= warm) {
                        ms[b][q][r - warm] = nanos / 1e6;
                    }
                }
            }
        }
        double[][] medians = new double[2][names.size()];
        for (int q = 0; q < names.size(); q++) {
            for (int b = 0; b < 2; b++) {
                medians[b][q] = median(ms[b][q]);
            }
            System.out.printf(Locale.ROOT, "%-6s old %8.2f  new %8.2f%n", names.get(q), medians[0][q], medians[1][q]);
        }
        System.out.printf(Locale.ROOT, "%-6s old %8.2f  new %8.2f%n", "median", median(medians[0]),
                median(medians[1]));
        System.out.printf(Locale.ROOT, "%-6s old %8.2f  new %8.2f%n", "geomean", geomean(medians[0]),
                geomean(medians[1]));
    }

    private static double geomean(double[] v) {
        double logs = 0;
        for (double x : v) {
            logs += Math.log(x);
        }
        return Math.exp(logs / v.length);
    }

    private static double median(double[] v) {
        double[] s = v.clone();
        Arrays.sort(s);
        return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
    }
}

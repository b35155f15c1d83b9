package io.tessera.data.parquet;

import io.tessera.data.io.InvalidUtf8;
import io.tessera.data.io.TableImporter;
import io.tessera.storage.Database;
import io.tessera.storage.TableSchema;

import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;

/**
 * Parquet import throughput, warm, in one JVM: the row groups decoded into row batches alone (no table writer) in
 * the calling thread (its CPU time beside the wall time), then on 1 and N threads, then whole imports (decode, column files, commit) of the Parquet file and, when given, of a .tbl
 * file of the same rows, each into an empty table, with the process's CPU time beside the wall time. MB are the
 * input file's bytes. Run after {@code ./mvnw test-compile}:
 * {@code java -cp target/classes:target/test-classes:target/lib/* io.tessera.data.parquet.ParquetImportBenchmark
 * FILE.parquet "COLUMNS" [FILE.tbl]}
 */
public final class ParquetImportBenchmark {

    private ParquetImportBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        Path file = Path.of(args[0]);
        TableSchema schema = TableSchema.parse("lineorder", args[1]);
        Path tbl = args.length > 2 ? Path.of(args[2]) : null;
        int cores = Runtime.getRuntime().availableProcessors();
        try (ParquetFile f = ParquetFile.open(file)) {
            List<SourceColumn> sources = new ArrayList<>();
            for (var c : schema.columns()) {
                sources.add(f.columns().stream().filter(s -> s.name().equalsIgnoreCase(c.name())).findFirst()
                        .orElseThrow());
            }
            double mb = f.size() / 1e6;
            var threadCpu = ManagementFactory.getThreadMXBean();
            for (int round = 1; round <= 5; round++) {
                long c0 = threadCpu.getCurrentThreadCpuTime();
                long t0 = System.nanoTime();
                for (int g = 0; g < f.footer().getRow_groupsSize(); g++) {
                    RowGroupReader.read(f, g, 0, schema, sources, InvalidUtf8.ERROR);
                }
                double s = (System.nanoTime() - t0) / 1e9;
                double cpu = (threadCpu.getCurrentThreadCpuTime() - c0) / 1e9;
                System.out.printf(Locale.ROOT, "decode round %d in this thread: wall %.3f s, thread CPU %.3f s: %.1f MB"
                        + " per CPU second%n", round, s, cpu, mb / cpu);
            }
            for (int round = 1; round <= 3; round++) {
                for (int threads : new int[] {1, cores}) {
                    ExecutorService pool = Executors.newFixedThreadPool(threads);
                    long t0 = System.nanoTime();
                    List<Future<?>> fs = new ArrayList<>();
                    for (int g = 0; g < f.footer().getRow_groupsSize(); g++) {
                        int group = g;
                        fs.add(pool.submit(() -> RowGroupReader.read(f, group, 0, schema, sources,
                                InvalidUtf8.ERROR)));
                    }
                    for (Future<?> x : fs) {
                        x.get();
                    }
                    double s = (System.nanoTime() - t0) / 1e9;
                    pool.shutdown();
                    System.out.printf(Locale.ROOT, "decode round %d, %d thread(s): %.3f s, %.1f MB/s%n", round,
                            threads, s, mb / s);
                }
            }
        }
        Path work = Files.createTempDirectory("parquet-bench");
        try {
            for (int round = 1; round <= 3; round++) {
                run("parquet", round, work, schema, file, db -> ParquetImporter.importFiles(db, schema.name(),
                        List.of(file), cores, InvalidUtf8.ERROR));
                if (tbl != null) {
                    run("tbl", round, work, schema, tbl, db -> TableImporter.importFiles(db, schema.name(),
                            List.of(tbl), TableImporter.Options.defaults()));
                }
            }
        } finally {
            delete(work);
        }
    }

    private interface Import {
        TableImporter.Summary run(Database db) throws Exception;
    }

    private static void run(String what, int round, Path work, TableSchema schema, Path input, Import importer)
            throws Exception {
        delete(work.resolve("db"));
        TableImporter.Summary s;
        double wall;
        double cpu;
        try (Database db = Database.openOrCreate(work.resolve("db"))) {
            db.createTable(schema);
            System.gc();
            var os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
            long cpu0 = os.getProcessCpuTime();
            long t0 = System.nanoTime();
            s = importer.run(db);
            wall = (System.nanoTime() - t0) / 1e9;
            cpu = (os.getProcessCpuTime() - cpu0) / 1e9;
        }
        double mb = Files.size(input) / 1e6;
        System.out.printf(Locale.ROOT, "import %s round %d: %d rows, %.1f MB, wall %.3f s (parse and write %.3f s,"
                        + " commit %.3f s), CPU %.3f s: %.1f MB/s, %.1f MB per CPU second%n", what, round, s.rows(), mb,
                wall, s.parseNanos() / 1e9, s.commitNanos() / 1e9, cpu, mb / wall, mb / cpu);
    }

    private static void delete(Path p) throws Exception {
        if (!Files.exists(p)) {
            return;
        }
        try (Stream<Path> s = Files.walk(p)) {
            for (Path x : s.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(x);
            }
        }
    }
}

package io.tessera.storage;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A VARCHAR column's commit alone, warm, in one JVM: a stored table's column read back as strings in row order, cut
 * into parts as an import's row groups are, each part sorted into its run ({@link StringRuns}), then the runs merged
 * into a dictionary file ({@link DictionaryMerge}), round after round; the process's CPU time beside the wall time of
 * each phase. Run after {@code ./mvnw test-compile}:
 * {@code java -cp target/classes:target/test-classes:target/lib/* io.tessera.storage.DictionaryMergeBenchmark
 * DB TABLE COLUMN [ROWS_PER_PART] [ROUNDS]} (e.g. {@code /tmp/tpch1 lineitem l_comment 1000000 5}).
 */
public final class DictionaryMergeBenchmark {

    private DictionaryMergeBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        Path db = Path.of(args[0]);
        int perPart = args.length > 3 ? Integer.parseInt(args[3]) : 1_000_000;
        int rounds = args.length > 4 ? Integer.parseInt(args[4]) : 5;
        List<byte[][]> parts = new ArrayList<>();
        try (Database d = Database.open(db)) {
            Column c = d.table(args[1]).column(args[2]);
            long rows = c.rowCount();
            for (long from = 0; from < rows; from += perPart) {
                int n = (int) Math.min(perPart, rows - from);
                byte[][] part = new byte[n][];
                for (int i = 0; i < n; i++) {
                    String s = c.getString(from + i);
                    part[i] = (s == null ? "" : s).getBytes(StandardCharsets.UTF_8);
                }
                parts.add(part);
            }
        }
        Path work = Files.createTempDirectory("dictionary-merge-bench");
        try {
            for (int round = 1; round <= rounds; round++) {
                round(work, parts, round);
            }
        } finally {
            Database.deleteTree(work);
        }
    }

    private static void round(Path work, List<byte[][]> parts, int round) throws Exception {
        StringRuns runs = new StringRuns(work.resolve("c.runs.tmp"));
        try (Arena arena = Arena.ofShared()) {
            long c0 = cpu();
            long t0 = System.nanoTime();
            List<StringRuns.Run> list = new ArrayList<>();
            long strings = 0;
            for (byte[][] part : parts) {
                int n = part.length;
                int[] starts = new int[n + 1];
                for (int i = 0; i < n; i++) {
                    starts[i + 1] = starts[i] + part[i].length;
                }
                byte[] bytes = new byte[starts[n]];
                for (int i = 0; i < n; i++) {
                    System.arraycopy(part[i], 0, bytes, starts[i], part[i].length);
                }
                StringRuns.Sorted s = runs.add(bytes, starts, n);
                list.add(s.run());
                strings += s.run().count();
            }
            long c1 = cpu();
            long t1 = System.nanoTime();
            MemorySegment seg = runs.map(arena);
            DictionaryMerge.Result r = DictionaryMerge.merge(seg, list, work.resolve("c.dict"), "c");
            long c2 = cpu();
            long t2 = System.nanoTime();
            System.out.printf(Locale.ROOT, "round %d: %d parts, %d run strings, %d distinct (%d bytes);"
                            + " runs: wall %.3f s, CPU %.3f s; merge: wall %.3f s, CPU %.3f s%n", round, list.size(),
                    strings, r.size(), r.length(), (t1 - t0) / 1e9, (c1 - c0) / 1e9, (t2 - t1) / 1e9,
                    (c2 - c1) / 1e9);
        } finally {
            runs.discard();
            Files.deleteIfExists(work.resolve("c.dict"));
        }
    }

    private static long cpu() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
    }
}

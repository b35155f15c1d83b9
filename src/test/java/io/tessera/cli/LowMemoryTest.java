package io.tessera.cli;

import io.tessera.storage.Database;
import io.tessera.storage.RowBatch;
import io.tessera.storage.TableSchema;
import io.tessera.storage.TableWriter;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code tessera sql} in a JVM with a small heap: a result far larger than the heap would hold as Java objects
 * (2 million rows: about 140 MB as boxed rows, in a 128 MB heap) is written out in batches, whole; a statement
 * that still cannot fit says so in one line, naming TESSERA_JAVA_OPTS, without a stack trace.
 */
class LowMemoryTest {

    static final int ROWS = 2_000_000;

    @TempDir
    static Path dir;

    @BeforeAll
    static void table() {
        try (Database d = Database.openOrCreate(dir.resolve("db"))) {
            TableSchema schema = TableSchema.parse("t", "k INTEGER NOT NULL, v BIGINT NOT NULL");
            try (TableWriter w = d.replace(schema)) {
                for (int part = 0; part < ROWS / 100_000; part++) {
                    RowBatch b = new RowBatch(schema, 100_000);
                    for (int i = 0; i < 100_000; i++) {
                        b.column(0).appendInt(i % 1000);
                        b.column(1).appendLong(part * 100_000L + i);
                    }
                    w.write(b);
                }
                w.commit();
            }
        }
    }

    @Test
    void aResultLargerThanTheHeapIsWrittenOutWhole() throws Exception {
        Path out = dir.resolve("out.csv");
        Run r = tessera("-Xmx128m", out, "sql", "--db", dir.resolve("db").toString(), "-c", "select k, v from t",
                "--format", "csv");
        assertEquals(0, r.rc, r.err);
        long lines;
        try (var s = Files.lines(out)) {
            lines = s.count();
        }
        assertEquals(ROWS + 1, lines);
    }

    @Test
    void runningOutOfMemoryIsOneClearLine() throws Exception {
        // a sort of every row holds them all, more than 24 MB
        Run r = tessera("-Xmx24m", dir.resolve("sorted.csv"), "sql", "--db", dir.resolve("db").toString(), "-c",
                "select v, k, v + k, v * 2 from t order by v desc", "--format", "csv");
        assertEquals(1, r.rc, r.err);
        assertTrue(r.err.contains("tessera: out of memory"), r.err);
        assertTrue(r.err.contains("TESSERA_JAVA_OPTS=-Xmx"), r.err);
        assertFalse(r.err.contains("\tat "), "a stack trace: " + r.err);
        assertFalse(r.err.contains("Exception in thread"), r.err);
    }

    @Test
    void tpchGeneratesInAHeapThatItsCommentsOnceOverran() throws Exception {
        // SF 0.1 in 480 MB: the library's text pool takes 300 MB; the lineitem comments held as a map of strings
        // ran out of the rest, held compactly they fit
        Path db = dir.resolve("tpch");
        Run r = tessera("-Xmx480m", dir.resolve("gen.out"), "gen", "tpch", "--sf", "0.1", "--db", db.toString());
        assertEquals(0, r.rc, r.err);
        assertTrue(Files.readString(dir.resolve("gen.out")).contains("TPC-H SF 0.1: 866,602 rows in 8 tables"));
        assertFalse(Files.exists(GeneratedData.partial(db)));
    }

    @Test
    void generationThatRunsOutOfMemoryLeavesNothingAndSaysSoInOneLine() throws Exception {
        Path db = dir.resolve("tpch-small");
        Run r = tessera("-Xmx400m", dir.resolve("gen-small.out"), "gen", "tpch", "--sf", "0.1", "--db", db.toString());
        assertEquals(1, r.rc, r.err);
        assertTrue(r.err.startsWith("tessera: out of memory") && r.err.lines().count() == 1, r.err);
        assertTrue(r.err.contains("TESSERA_JAVA_OPTS=-Xmx"), r.err);
        assertFalse(Files.exists(db), "a partial database was left");
        assertFalse(Files.exists(GeneratedData.partial(db)));
    }

    record Run(int rc, String err) {
    }

    static Run tessera(String heap, Path stdout, String... args) throws IOException, InterruptedException {
        String classPath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> cmd = new ArrayList<>(List.of(java, heap, "-XX:+UseParallelGC", "--enable-native-access=ALL-UNNAMED",
                "--add-modules", "jdk.incubator.vector", "-cp", classPath, "io.tessera.cli.Main"));
        cmd.addAll(List.of(args));
        Path err = stdout.resolveSibling(stdout.getFileName() + ".err");
        Process p = new ProcessBuilder(cmd).redirectOutput(stdout.toFile()).redirectError(err.toFile()).start();
        if (!p.waitFor(300, TimeUnit.SECONDS)) {
            p.destroyForcibly();
        }
        String e = Files.readString(err, StandardCharsets.UTF_8).lines()
                .filter(l -> !l.startsWith("WARNING: Using incubator")).reduce("", (a, b) -> a + b + "\n");
        return new Run(p.exitValue(), e);
    }
}

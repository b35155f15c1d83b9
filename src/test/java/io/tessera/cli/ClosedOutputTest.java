package io.tessera.cli;

import io.tessera.storage.Database;
import io.tessera.storage.RowBatch;
import io.tessera.storage.TableSchema;
import io.tessera.storage.TableWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code tessera sql ... | head}: a process whose standard output is closed by its reader stops at its first failed
 * write and ends with 141 (as a process ended by SIGPIPE), printing nothing more, instead of writing its whole
 * result into the closed pipe and ending with 0.
 */
class ClosedOutputTest {

    static final int ROWS = 1_000_000;

    @TempDir
    Path dir;

    @Test
    void aProcessWhoseOutputIsClosedEnds() throws Exception {
        Path db = dir.resolve("db");
        try (Database d = Database.openOrCreate(db)) {
            TableSchema schema = TableSchema.parse("t", "k INTEGER NOT NULL, v INTEGER NOT NULL");
            RowBatch b = new RowBatch(schema, ROWS);
            for (int i = 0; i < ROWS; i++) {
                b.column(0).appendInt(i % 7);
                b.column(1).appendInt(i);
            }
            try (TableWriter w = d.replace(schema)) {
                w.write(b);
                w.commit();
            }
        }
        String classPath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Path errors = dir.resolve("stderr.txt");
        Process p = new ProcessBuilder(List.of(java, "-Xmx512m", "-XX:TieredStopAtLevel=1",
                "--enable-native-access=ALL-UNNAMED", "-cp", classPath, "io.tessera.cli.Main", "sql", db.toString(),
                "--format", "csv", "-c", "select k, v from t; select count(*) from t"))
                .redirectError(errors.toFile()).start();
        try (BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            assertEquals("k,v", out.readLine());
            assertTrue(out.readLine().matches("\\d,\\d+"));
        } // closed: the next write fails
        assertTrue(p.waitFor(5, TimeUnit.MINUTES), "the process ended (a guard, no limit)");
        assertEquals(SqlCommand.OUTPUT_CLOSED, p.exitValue(), Files.readString(errors));
        List<String> said = Files.readAllLines(errors).stream()
                .filter(l -> !l.startsWith("WARNING")).toList();
        assertEquals(List.of(), said);
    }
}

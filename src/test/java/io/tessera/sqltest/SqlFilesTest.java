package io.tessera.sqltest;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * Runs every {@code .test} file under {@code src/test/resources/sql} and {@code src/test/resources/explain}: one
 * container per file, one test per record, in file order. {@code -Dtessera.sqltest=TEXT} runs only the files whose
 * path contains TEXT; {@code -Dtessera.golden.update=true} rewrites the expected blocks of {@code explain} and
 * {@code placement} records that differ (query rows are never rewritten). Every query that only reads tables also
 * runs as a GPU machine plans it (the device's rewrites), on the JVM, against the same rows: a differential check of
 * those rewrites that needs no GPU ({@code -Dtessera.sqltest.gpuPlans=false} leaves it out).
 */
class SqlFilesTest {

    static final Path SQL = Path.of("src", "test", "resources", "sql");
    static final Path EXPLAIN = Path.of("src", "test", "resources", "explain");

    @TempDir
    static Path root;
    private static SqlTestData data;
    private static SqlFileRun current;

    @TestFactory
    Stream<DynamicNode> sqlFiles() {
        data = new SqlTestData(root);
        List<Path> files = files();
        assertFalse(files.isEmpty(), "no .test files under " + SQL.toAbsolutePath() + " and " + EXPLAIN);
        return files.stream().map(SqlFilesTest::container);
    }

    private static DynamicContainer container(Path file) {
        String name = Path.of("").toAbsolutePath().relativize(file.toAbsolutePath()).toString();
        List<String> lines = read(file);
        List<SqlTestRecord> records = SqlTestParser.parse(name, lines);
        SqlFileRun run = new SqlFileRun(file, name, data);
        List<DynamicTest> tests = new ArrayList<>();
        for (SqlTestRecord r : records) {
            tests.add(DynamicTest.dynamicTest(file.getFileName() + ":" + r.line() + " " + title(r), () -> {
                switchTo(run);
                run.execute(r);
            }));
        }
        return DynamicContainer.dynamicContainer(name, tests.stream());
    }

    /** Closes the previous file's database before a new file's first record runs. */
    private static void switchTo(SqlFileRun run) {
        if (current != run) {
            if (current != null) {
                current.close();
            }
            current = run;
        }
    }

    @AfterAll
    static void closeLast() {
        if (current != null) {
            current.close();
            current = null;
        }
    }

    private static String title(SqlTestRecord r) {
        String sql = switch (r) {
            case SqlTestRecord.Statement s -> (s.error() == null ? "statement ok: " : "statement error: ") + s.sql();
            case SqlTestRecord.Query q -> "query: " + q.sql();
            case SqlTestRecord.Golden g -> g.kind().name().toLowerCase() + ": " + g.sql();
            case SqlTestRecord.Load l -> "load " + l.what() + (l.table() == null ? " " + l.columns() : " " + l.table());
            case SqlTestRecord.Genomes g -> g.covering() ? "genomes covering"
                    : g.fixed().isEmpty() ? "genomes default" : "genome " + g.fixed();
            case SqlTestRecord.Device d -> d.gpu() ? "device gpu" : "device cpu";
        };
        String one = sql.replaceAll("\\s+", " ");
        return one.length() > 100 ? one.substring(0, 97) + "..." : one;
    }

    private static List<Path> files() {
        // -Dtessera.sqltest=a,b: the files whose path contains any of the texts
        List<String> only = List.of(System.getProperty("tessera.sqltest", "").split(",", -1));
        List<Path> out = new ArrayList<>();
        for (Path dir : List.of(SQL, EXPLAIN)) {
            if (!Files.isDirectory(dir)) {
                continue;
            }
            try (Stream<Path> s = Files.walk(dir)) {
                s.filter(p -> p.toString().endsWith(".test")
                        && only.stream().anyMatch(p.toString()::contains)).sorted().forEach(out::add);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return out;
    }

    static List<String> read(Path file) {
        try {
            return Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}

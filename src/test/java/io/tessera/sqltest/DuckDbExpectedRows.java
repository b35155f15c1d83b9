package io.tessera.sqltest;

import io.tessera.api.QueryResult;
import io.tessera.bench.DuckDbPeer;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A tool for writing {@code .test} files, not a test: fills the empty expected block of every {@code query} record
 * with DuckDB's rows on the same data (the file's tables copied into an in-memory DuckDB), and its type letters
 * with those of Tessera's result. Run it once while writing a file, then check each block: where DuckDB's semantics
 * differ from the engine's (DATE + INTERVAL) the rows must be reasoned and the file says so.
 * The runner never calls it; the file holds the rows.
 *
 * <pre>
 * java -cp target/classes:target/test-classes:$(cat cp.txt) io.tessera.sqltest.DuckDbExpectedRows FILE.test...
 * </pre>
 */
public final class DuckDbExpectedRows {

    private DuckDbExpectedRows() {
    }

    public static void main(String[] args) throws Exception {
        SqlTestData data = new SqlTestData(Files.createTempDirectory("duckdb-expected"));
        for (String a : args) {
            fill(Path.of(a), data);
        }
    }

    private static void fill(Path file, SqlTestData data) throws Exception {
        List<String> lines = new ArrayList<>(Files.readAllLines(file, StandardCharsets.UTF_8));
        int added = 0;
        DuckDbPeer duck = null;
        try (SqlFileRun run = new SqlFileRun(file, file.toString(), data)) {
            for (SqlTestRecord r : SqlTestParser.parse(file.toString(), lines)) {
                if (r instanceof SqlTestRecord.Query q) {
                    if (!q.expected().isEmpty()) {
                        continue;
                    }
                    if (duck == null) {
                        duck = DuckDbPeer.inMemory(run.session().database());
                    }
                    String letters = q.types();
                    try {
                        letters = ResultText.letters(run.session().query(q.sql()));
                    } catch (RuntimeException e) {
                        System.err.println(file + ":" + q.line() + ": Tessera fails: " + e.getMessage());
                    }
                    QueryResult d = duck.query(q.sql());
                    List<String> rows = new ArrayList<>();
                    for (List<String> row : ResultText.rows(d)) {
                        rows.add(String.join("\t", row));
                    }
                    int directive = q.line() - 1 + added;
                    lines.set(directive, lines.get(directive).replaceFirst("query\\s+\\S+", "query " + letters));
                    int separator = directive + 1;
                    while (!lines.get(separator).strip().equals("----")) {
                        separator++;
                    }
                    lines.addAll(separator + 1, rows);
                    added += rows.size();
                } else if (!(r instanceof SqlTestRecord.Golden)) {
                    if (duck != null && (r instanceof SqlTestRecord.Statement || r instanceof SqlTestRecord.Load)) {
                        duck.close();
                        duck = null;
                    }
                    try {
                        run.execute(r);
                    } catch (Throwable e) {
                        System.err.println(file + ":" + r.line() + ": " + e.getMessage());
                    }
                }
            }
        } finally {
            if (duck != null) {
                duck.close();
            }
        }
        Files.write(file, lines, StandardCharsets.UTF_8);
    }
}

package io.tessera.sqltest;

import io.tessera.api.QueryResult;
import io.tessera.api.ResultColumn;
import io.tessera.bench.DuckDbPeer;
import io.tessera.storage.DataType;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;

/**
 * A tool for writing {@code .test} files of statements that change data (INSERT, UPDATE, DELETE, views, COPY), not a
 * test: replays a whole file in DuckDB beside Tessera, so that DuckDB's rows come from DuckDB's own execution of the
 * same statements, not from a copy of Tessera's tables. {@code load tiny} tables are created in DuckDB with the
 * file's column definitions and filled with the rows Tessera loaded; every statement runs in both (a {@code statement
 * error} must fail in DuckDB too, a {@code statement ok} must run there); every query with an empty expected block
 * gets DuckDB's rows (and Tessera's type letters), and every query with rows is checked against DuckDB. A comment
 * line {@code # duckdb: SQL} just before a record runs that SQL in DuckDB instead ({@code # duckdb: skip}: nothing),
 * for DuckDB's spelling of the same statement. Differences are printed; check them, and every block written.
 *
 * <pre>
 * java -cp target/classes:target/test-classes:$(cat cp.txt) io.tessera.sqltest.DuckDbReplay FILE.test...
 * </pre>
 */
public final class DuckDbReplay {

    private DuckDbReplay() {
    }

    public static void main(String[] args) throws Exception {
        SqlTestData data = new SqlTestData(Files.createTempDirectory("duckdb-replay"));
        int problems = 0;
        for (String a : args) {
            problems += replay(Path.of(a), data);
        }
        System.out.println(problems + " difference(s)");
        System.exit(problems == 0 ? 0 : 1);
    }

    private static int replay(Path file, SqlTestData data) throws Exception {
        List<String> original = Files.readAllLines(file, StandardCharsets.UTF_8);
        List<String> lines = new ArrayList<>(original);
        int added = 0;
        int problems = 0;
        try (SqlFileRun run = new SqlFileRun(file, file.toString(), data);
             Connection duck = DriverManager.getConnection("jdbc:duckdb:")) {
            // Tessera's session starts in UTC, DuckDB's in the machine's zone (to which its RESET TimeZone returns)
            execute(duck, "SET TimeZone = 'UTC'");
            for (SqlTestRecord r : SqlTestParser.parse(file.toString(), original)) {
                String where = file + ":" + r.line() + ": ";
                String override = override(original, r.line());
                String duckSql = switch (r) {
                    case SqlTestRecord.Statement s -> s.sql();
                    case SqlTestRecord.Query q -> q.sql();
                    default -> null;
                };
                if (override != null) {
                    duckSql = override.equals("skip") ? null : override;
                }
                switch (r) {
                    case SqlTestRecord.Load l -> {
                        run.execute(l);
                        execute(duck, "CREATE TABLE " + l.table() + " (" + l.columns() + ")");
                        for (Object[] row : run.session().query("SELECT * FROM " + l.table()).rows()) {
                            List<String> values = new ArrayList<>();
                            for (Object v : row) {
                                values.add(literal(v));
                            }
                            execute(duck, "INSERT INTO " + l.table() + " VALUES (" + String.join(", ", values) + ")");
                        }
                    }
                    case SqlTestRecord.Statement s -> {
                        try {
                            run.execute(s);
                        } catch (Throwable e) {
                            problems++;
                            System.out.println(where + "Tessera: " + e.getMessage());
                        }
                        if (duckSql != null) {
                            String failure = null;
                            try {
                                execute(duck, duckSql);
                            } catch (SQLException e) {
                                failure = e.getMessage();
                            }
                            if (s.error() == null && failure != null) {
                                problems++;
                                System.out.println(where + "DuckDB fails: " + failure);
                            } else if (s.error() != null && failure == null) {
                                problems++;
                                System.out.println(where + "DuckDB runs what Tessera must refuse: " + duckSql);
                            }
                        }
                    }
                    case SqlTestRecord.Query q -> {
                        String letters = q.types();
                        try {
                            letters = ResultText.letters(run.session().query(q.sql()));
                        } catch (RuntimeException e) {
                            problems++;
                            System.out.println(where + "Tessera fails: " + e.getMessage());
                        }
                        if (duckSql == null) {
                            continue;
                        }
                        List<List<String>> rows;
                        try {
                            rows = ResultText.rows(query(duck, duckSql));
                        } catch (SQLException e) {
                            problems++;
                            System.out.println(where + "DuckDB fails: " + e.getMessage());
                            continue;
                        }
                        if (q.expected().isEmpty() && !rows.isEmpty()) {
                            int directive = q.line() - 1 + added;
                            lines.set(directive, lines.get(directive).replaceFirst("query\\s+\\S+", "query " + letters));
                            int separator = directive + 1;
                            while (!lines.get(separator).strip().equals("----")) {
                                separator++;
                            }
                            List<String> text = rows.stream().map(row -> String.join("\t", row)).toList();
                            lines.addAll(separator + 1, text);
                            added += text.size();
                        } else {
                            List<List<String>> expected = ResultText.sorted(
                                    ResultText.parseExpected(q.expected(), letters.length()), q.sort());
                            List<List<String>> actual = ResultText.sorted(rows, q.sort());
                            if (!ResultText.same(letters, expected, actual,
                                    q.sort() == SqlTestRecord.SortMode.VALUESORT)) {
                                problems++;
                                System.out.println(where + "DuckDB differs from the file:\n"
                                        + ResultText.render(actual));
                            }
                        }
                    }
                    default -> run.execute(r);
                }
            }
        }
        if (!lines.equals(original)) {
            Files.write(file, lines, StandardCharsets.UTF_8);
        }
        return problems;
    }

    /** The SQL of a {@code # duckdb:} comment on the lines just before the record's directive, or null. */
    private static String override(List<String> lines, int line) {
        for (int i = line - 2; i >= 0 && lines.get(i).startsWith("#"); i--) {
            String l = lines.get(i);
            if (l.startsWith("# duckdb:")) {
                return l.substring("# duckdb:".length()).strip();
            }
        }
        return null;
    }

    private static void execute(Connection c, String sql) throws SQLException {
        try (java.sql.Statement st = c.createStatement()) {
            st.execute(sql);
        }
    }

    private static QueryResult query(Connection c, String sql) throws SQLException {
        try (java.sql.Statement st = c.createStatement()) {
            if (!st.execute(sql)) {
                // a data change: its count, as Tessera returns it
                return new QueryResult(List.of(new ResultColumn("count", DataType.BIGINT, false)),
                        List.<Object[]>of(new Object[] {(long) st.getUpdateCount()}), 0, 0);
            }
            return rows(st.getResultSet(), sessionZone(c));
        }
    }

    /**
     * DuckDB's session time zone (SET TimeZone; the machine's until one is set): its JDBC driver returns a
     * TIMESTAMPTZ at UTC's offset, where DuckDB's text of it, and the file's, is at the session zone's.
     */
    private static java.time.ZoneId sessionZone(Connection c) throws SQLException {
        try (java.sql.Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT current_setting('TimeZone')")) {
            return rs.next() ? java.time.ZoneId.of(rs.getString(1)) : java.time.ZoneOffset.UTC;
        } catch (java.time.DateTimeException e) {
            return java.time.ZoneOffset.UTC;
        }
    }

    private static QueryResult rows(ResultSet rs, java.time.ZoneId zone) throws SQLException {
        try (rs) {
            int n = rs.getMetaData().getColumnCount();
            List<ResultColumn> cols = new ArrayList<>();
            for (int i = 1; i <= n; i++) {
                cols.add(new ResultColumn(rs.getMetaData().getColumnLabel(i), DataType.VARCHAR, true));
            }
            List<Object[]> rows = new ArrayList<>();
            while (rs.next()) {
                Object[] row = new Object[n];
                for (int i = 0; i < n; i++) {
                    Object v = rs.getObject(i + 1);
                    // a STRUCT or LIST as DuckDB's text of it ({'a': 1, 'b': [x, NULL]}), which Tessera prints too;
                    // a TIMESTAMPTZ at the session zone's offset, as DuckDB writes it
                    row[i] = v instanceof java.sql.Struct || v instanceof java.sql.Array ? rs.getString(i + 1)
                            : v instanceof java.time.OffsetDateTime t ? t.atZoneSameInstant(zone).toOffsetDateTime()
                            : DuckDbPeer.normalize(v);
                }
                rows.add(row);
            }
            return new QueryResult(cols, rows, 0, 0);
        }
    }

    /** A SQL literal of a value Tessera returned, for DuckDB. */
    private static String literal(Object v) {
        return switch (v) {
            case null -> "NULL";
            case String s -> "'" + s.replace("'", "''") + "'";
            case LocalDate d -> "DATE '" + d + "'";
            case java.time.LocalDateTime t -> "TIMESTAMP '" + io.tessera.storage.Timestamps.format(
                    io.tessera.storage.Timestamps.micros(t)) + "'";
            case java.time.OffsetDateTime t -> "TIMESTAMPTZ '" + io.tessera.storage.ZonedTimestamps.format(
                    io.tessera.storage.ZonedTimestamps.micros(t), t.getOffset()) + "'";
            case java.time.LocalTime t -> "TIME '" + io.tessera.storage.Values.format(t) + "'";
            case BigDecimal d -> d.toPlainString();
            case byte[] b -> "'" + io.tessera.storage.ByteStrings.format(b) + "'::BLOB";
            case java.util.UUID u -> "'" + u + "'::UUID";
            case Double d when d.isNaN() || d.isInfinite() -> "'" + d + "'::DOUBLE";
            case Float f when f.isNaN() || f.isInfinite() -> "'" + f + "'::FLOAT";
            default -> v.toString();
        };
    }
}

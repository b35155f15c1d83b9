package io.tessera.exec;

import io.tessera.Tessera;
import io.tessera.api.QueryResult;
import io.tessera.backend.cuda.exec.GpuPlan;
import io.tessera.backend.cuda.gen.CudaKernelSource;
import io.tessera.backend.cuda.gen.GpuPlacement;
import io.tessera.backend.jvm.JvmExecutor;
import io.tessera.backend.jvm.gen.EmittedPipeline;
import io.tessera.plan.QueryPlan;
import io.tessera.variant.CudaVariantSpace;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.math.BigDecimal;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * No text of the query reaches generated code, not even its comments: queries with hostile literals, LIKE
 * patterns and quoted names go through the JVM and the CUDA emitter, and no piece of three or more characters of
 * any literal, name or stored string appears in any generated source, while EXPLAIN CODE's legend (outside the
 * source) still says what each column and constant of the comments stands for. Pieces made only of punctuation and
 * spaces are left out of the search ({@code *}{@code /} and {@code ); } are the code's own too); what such
 * punctuation could do in a comment is {@link ConstantInjectionFuzzTest}'s subject. Every query's rows are DuckDB's.
 */
class NoUserTextInCodeTest {

    private static final String EXIT = "*/ Qzvwxk.exqt(Qj); /*";
    private static final String ESCAPE = "\\u002a/ Qv";
    private static final String[] STORED = {EXIT, ESCAPE, "Zed*/Pqxvw", "Hqzwy*/Wxq", "Jkl\"Mno'Pqr", "Bqzzy"};

    /** Every query: its text, and the literals and names in it (as the values SQL reads them as). */
    private static final List<Case> CASES = List.of(
            new Case("select count(*) as \"a*/b\", sum(qwjzk) from zorqvx where yuiopx <> '*/ Qzvwxk.exqt(Qj); /*'"
                    + " and qwjzk < 987654", List.of(EXIT, "987654", "a*/b")),
            new Case("select yuiopx as \"x\"\"y'z\", count(*) from zorqvx where yuiopx like '%Hqzwy*/%'"
                    + " group by yuiopx order by 1", List.of("Hqzwy*/", "x\"y'z")),
            new Case("select qwjzk, yuiopx from zorqvx where yuiopx = '\\u002a/ Qv'"
                    + " or yuiopx in ('*/ Qzvwxk.exqt(Qj); /*', 'Bqzzy', 'Nqwzr*/x') order by qwjzk limit 31337",
                    List.of(ESCAPE, EXIT, "Bqzzy", "Nqwzr*/x", "31337")),
            new Case("select \"a*/b\", count(*) as \"Cnt\"\"*/\" from (select yuiopx as \"a*/b\", qwjzk from zorqvx)"
                    + " where \"a*/b\" >= 'Zed*/' and qwjzk + 424242 > 424243 group by \"a*/b\"",
                    List.of("a*/b", "Cnt\"*/", "Zed*/", "424242", "424243")),
            new Case("select z.yuiopx as \"Wq*/\", sum(w.wqzv) as \"Sq'*/\" from zorqvx z join wqzrt w"
                    + " on z.qwjzk = w.wqzk where w.wqzn like 'Hqzwy%' and w.wqzv > 55.375 group by z.yuiopx",
                    List.of("Wq*/", "Sq'*/", "Hqzwy", "55.375")),
            new Case("select yuiopx || 'Tqzl*/ Xyz' as \"Cat\"\"x\" from zorqvx where yuiopx like 'Jkl\"%'"
                    + " order by 1", List.of("Tqzl*/ Xyz", "Cat\"x", "Jkl\"")),
            // a lambda's parameters and body, run per element in the generated Java (over groups a kernel made)
            new Case("select k, list_reduce([k, 777123], lambda vbnmqz, wzxq: vbnmqz + wzxq) as \"L*/q\","
                    + " len(list_filter([n], lambda vbnmqz: vbnmqz <> 98765)) as fz,"
                    + " len([pqlmzx for pqlmzx in [k] if pqlmzx > 3]) as cz from (select qwjzk as k, count(*) as n"
                    + " from zorqvx where yuiopx <> 'Qrtz*/w' group by qwjzk) order by k",
                    List.of("vbnmqz", "wzxq", "777123", "98765", "L*/q", "Qrtz*/w", "pqlmzx")));

    /** The tables' and columns' names: user-given names too. */
    private static final List<String> NAMES = List.of("zorqvx", "qwjzk", "yuiopx", "wqzrt", "wqzk", "wqzv", "wqzn");

    private record Case(String sql, List<String> userText) {
    }

    @TempDir
    static Path dir;

    private static Tessera db;
    private static Connection duck;

    @BeforeAll
    static void tables() throws Exception {
        Object[][] rows = new Object[STORED.length * 2][];
        Object[][] wrows = new Object[STORED.length * 2][];
        for (int i = 0; i < rows.length; i++) {
            rows[i] = new Object[] {i + 1, STORED[i % STORED.length]};
            wrows[i] = new Object[] {i % 5 + 1, new BigDecimal(50 + i).add(new BigDecimal("0.25")), STORED[(i + 3) % STORED.length]};
        }
        TinyTables.write(dir, "zorqvx", "qwjzk INTEGER NOT NULL, yuiopx VARCHAR NOT NULL", rows);
        TinyTables.write(dir, "wqzrt", "wqzk INTEGER NOT NULL, wqzv DECIMAL(10,2) NOT NULL, wqzn VARCHAR NOT NULL", wrows);
        db = Tessera.open(dir);
        duck = DriverManager.getConnection("jdbc:duckdb:");
        try (Statement s = duck.createStatement()) {
            s.execute("create table zorqvx (qwjzk INTEGER NOT NULL, yuiopx VARCHAR NOT NULL)");
            s.execute("create table wqzrt (wqzk INTEGER NOT NULL, wqzv DECIMAL(10,2) NOT NULL, wqzn VARCHAR NOT NULL)");
        }
        insert("insert into zorqvx values (?, ?)", rows);
        insert("insert into wqzrt values (?, ?, ?)", wrows);
    }

    private static void insert(String sql, Object[][] rows) throws Exception {
        try (PreparedStatement ps = duck.prepareStatement(sql)) {
            for (Object[] row : rows) {
                for (int c = 0; c < row.length; c++) {
                    ps.setObject(c + 1, row[c]);
                }
                ps.executeUpdate();
            }
        }
    }

    @AfterAll
    static void close() throws Exception {
        db.close();
        duck.close();
    }

    @Test
    void noPieceOfAnyLiteralOrNameReachesJavaOrCuda() {
        QueryEngine engine = db.engine();
        for (Case c : CASES) {
            List<String> forbidden = pieces(c);
            List<EmittedPipeline> java = JvmExecutor.compiled(engine.prepare(c.sql()).jvm()).pipelines();
            assertFalse(java.isEmpty(), c.sql());
            for (EmittedPipeline e : java) {
                assertNoPiece(forbidden, e.source(), "Java of pipeline " + e.pipeline().id() + " of " + c.sql());
            }
            List<String> cuda = cudaSources(engine, c.sql());
            assertFalse(cuda.isEmpty(), "the query has GPU code: " + c.sql());
            for (String source : cuda) {
                assertNoPiece(forbidden, source, "CUDA of " + c.sql());
            }
        }
    }

    @Test
    void explainCodeSaysWhatTheNamesStandForOutsideTheSource() {
        Case c = CASES.get(3);
        List<String> legend = new ArrayList<>();
        StringBuilder source = new StringBuilder();
        for (Object[] row : db.query("explain code " + c.sql()).rows()) {
            String line = (String) row[0];
            if (line.startsWith("--")) {
                legend.add(line);
            } else {
                source.append(line).append('\n');
            }
        }
        assertNoPiece(pieces(c), source.toString(), "EXPLAIN CODE's source of " + c.sql());
        assertTrue(legend.contains("--   table = zorqvx"), String.join("\n", legend));
        assertTrue(legend.contains("--   c1 = yuiopx"), String.join("\n", legend));
        assertTrue(legend.stream().anyMatch(l -> l.matches("--   lit\\d+ = 'Zed\\*/' \\(VARCHAR.*")), String.join("\n", legend));
        assertTrue(legend.stream().anyMatch(l -> l.matches("--   k\\d+ = 424242")), String.join("\n", legend));
        assertTrue(source.toString().contains("FILTER ge(c1, lit"), source.toString());
    }

    @Test
    void theQueriesStillAnswerAsDuckDb() throws Exception {
        for (Case c : CASES) {
            QueryResult r = db.query(c.sql());
            List<List<String>> ours = new ArrayList<>();
            for (Object[] row : r.rows()) {
                ours.add(normalized(row));
            }
            List<List<String>> theirs = new ArrayList<>();
            try (Statement s = duck.createStatement(); ResultSet rs = s.executeQuery(c.sql())) {
                int n = rs.getMetaData().getColumnCount();
                while (rs.next()) {
                    Object[] row = new Object[n];
                    for (int i = 0; i < n; i++) {
                        row[i] = rs.getObject(i + 1);
                    }
                    theirs.add(normalized(row));
                }
            }
            if (!c.sql().contains("order by")) {
                ours.sort(java.util.Comparator.comparing(List::toString));
                theirs.sort(java.util.Comparator.comparing(List::toString));
            }
            assertFalse(theirs.isEmpty(), "the query finds rows: " + c.sql());
            assertEquals(theirs, ours, c.sql());
        }
    }

    private static List<String> normalized(Object[] row) {
        List<String> out = new ArrayList<>();
        for (Object v : row) {
            out.add(v instanceof Number n ? new BigDecimal(n.toString()).stripTrailingZeros().toPlainString() : String.valueOf(v));
        }
        return out;
    }

    /** Every piece of three characters of the case's literals and names, the tables' names and stored strings. */
    private static List<String> pieces(Case c) {
        List<String> texts = new ArrayList<>(c.userText());
        texts.addAll(NAMES);
        texts.addAll(List.of(STORED));
        List<String> out = new ArrayList<>();
        for (String t : texts) {
            for (int i = 0; i + 3 <= t.length(); i++) {
                String piece = t.substring(i, i + 3);
                if (piece.chars().anyMatch(Character::isLetterOrDigit) && !out.contains(piece)) {
                    out.add(piece);
                }
            }
        }
        return out;
    }

    private static void assertNoPiece(List<String> forbidden, String source, String what) {
        List<String> found = new ArrayList<>();
        for (String piece : forbidden) {
            int at = source.indexOf(piece);
            if (at >= 0) {
                int from = source.lastIndexOf('\n', at) + 1;
                int to = source.indexOf('\n', at);
                found.add("'" + piece + "' in the line: " + source.substring(from, to < 0 ? source.length() : to));
            }
        }
        assertTrue(found.isEmpty(), "the query's text in the " + what + ":\n" + String.join("\n", found));
    }

    private static List<String> cudaSources(QueryEngine engine, String sql) {
        QueryPlan plan = engine.plan(sql);
        GpuPlacement placed = GpuPlacement.place(plan, CudaVariantSpace.INSTANCE.completeAll(plan,
                CudaVariantSpace.INSTANCE.defaultsWith(plan, Map.of())), key -> GpuPlan.dictionary(db.database(), key));
        List<String> out = new ArrayList<>();
        for (CudaKernelSource k : placed.kernels().values()) {
            out.add(k.source());
        }
        return out;
    }
}

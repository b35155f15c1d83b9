package io.tessera.exec;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tessera.Tessera;
import io.tessera.api.QueryResult;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * EXPLAIN ANALYZE over tables whose counts are known exactly: t holds ids 1..1000 with g = id % 10 and v = id % 7;
 * u holds keys 0..9 once and 0, 1, 2 a second time (13 rows).
 */
class ExplainAnalyzeTest {

    @TempDir
    static Path dir;
    static Tessera tessera;

    @BeforeAll
    static void tables() {
        tessera = Tessera.openOrCreate(dir.resolve("db"));
        tessera.query("create table t (id integer not null, g integer not null, v integer not null)");
        StringBuilder values = new StringBuilder("insert into t values ");
        for (int id = 1; id <= 1000; id++) {
            values.append(id == 1 ? "" : ", ").append('(').append(id).append(", ").append(id % 10).append(", ")
                    .append(id % 7).append(')');
        }
        tessera.query(values.toString());
        tessera.query("create table u (k integer not null, name varchar(8))");
        tessera.query("insert into u values (0, 'a'), (1, 'b'), (2, 'c'), (3, 'd'), (4, 'e'), (5, 'f'), (6, 'g'),"
                + " (7, 'h'), (8, 'i'), (9, 'j'), (0, 'k'), (1, 'l'), (2, 'm')");
    }

    @AfterAll
    static void close() {
        tessera.close();
    }

    private static List<String> lines(String sql) {
        QueryResult r = tessera.query(sql);
        assertEquals("plan", r.columns().getFirst().name());
        List<String> out = new ArrayList<>();
        for (Object[] row : r.rows()) {
            out.add((String) row[0]);
        }
        return out;
    }

    private static final Pattern ACTUAL = Pattern.compile("actual ([0-9,]+|n/a)$");

    /** The actual rows of the first line that starts with {@code prefix} (after the pipeline's indent). */
    private static long actual(List<String> plan, String prefix) {
        for (String l : plan) {
            if (l.stripLeading().startsWith(prefix)) {
                Matcher m = ACTUAL.matcher(l);
                assertTrue(m.find(), "no actual rows on " + l);
                return Long.parseLong(m.group(1).replace(",", ""));
            }
        }
        throw new AssertionError("no line " + prefix + " in\n" + String.join("\n", plan));
    }

    @Test
    void filterAndAggregate() {
        List<String> plan = lines("explain analyze select count(*) from t where id <= 300");
        assertEquals(1000, actual(plan, "pipeline 0: LOOP t"));
        assertEquals(300, actual(plan, "-> FILTER"));
        assertEquals(1, actual(plan, "-> AGGREGATE"));
        assertTrue(plan.stream().anyMatch(l -> l.matches("  time: [0-9.]+ ms on jvm")), String.join("\n", plan));
        assertTrue(plan.contains("joins: none"), String.join("\n", plan));
        assertTrue(plan.stream().anyMatch(l -> l.startsWith("analyzed: 1 result rows in ")), String.join("\n", plan));
    }

    @Test
    void groupBy() {
        // multiples of 7 up to 1000: 142 of them, with every last digit
        List<String> plan = lines("explain analyze select g, count(*) from t where v = 0 group by g");
        assertEquals(142, actual(plan, "-> FILTER"));
        assertEquals(10, actual(plan, "-> GROUP_AGGREGATE"));
    }

    @Test
    void joinCountsTheRowsOutOfTheProbeAndTheTableBuilt() {
        // ids 1..100: 10 of each g; g 0, 1 and 2 meet two rows of u, the others one: 30 * 2 + 70
        List<String> plan = lines("explain analyze select count(*) from t join u on t.g = u.k where t.id <= 100");
        assertEquals(130, actual(plan, "-> PROBE"));
        long built = actual(plan, "-> BUILD");
        assertTrue(built == 13 || built == 100, "the table holds one side's rows: " + built);
        assertEquals(130, actual(plan, "-> AGGREGATE") * 130);
        String summary = plan.stream().filter(l -> l.startsWith("joins: ")).findFirst().orElseThrow();
        assertTrue(summary.startsWith("joins: 1, 1 compared; worst estimate/actual ratio "), summary);
        assertTrue(summary.endsWith(", actual 130)"), summary);
    }

    @Test
    void limitCutsTheSortedRows() {
        List<String> plan = lines("explain analyze select id from t where g = 1 order by id desc limit 5");
        assertEquals(100, actual(plan, "-> FILTER"));
        assertEquals(5, actual(plan, "-> TOP_K"));
        assertTrue(plan.stream().anyMatch(l -> l.startsWith("analyzed: 5 result rows")), String.join("\n", plan));
    }

    @Test
    void semiJoinCountsTheRowsKept() {
        // u's keys 3..9 have a t row with id <= 20 and that g (ids 3..9, 13..19): all 13 rows of u are kept
        List<String> plan = lines("explain analyze select count(*) from u where k in (select g from t where id <= 20)");
        assertEquals(13, actual(plan, "-> AGGREGATE") * 13);
        assertTrue(plan.stream().anyMatch(l -> l.contains("-> PROBE") && l.endsWith("actual 13")),
                String.join("\n", plan));
    }

    @Test
    void jsonHasAnObjectPerPipeline() throws Exception {
        String doc = String.join("\n", lines("explain (analyze, format json) select g, count(*) from t where v = 0 group by g"));
        JsonNode root = new ObjectMapper().readTree(doc);
        JsonNode pipelines = root.get("pipelines");
        assertEquals(1, pipelines.size());
        JsonNode ops = pipelines.get(0).get("operators");
        assertEquals("LOOP t", ops.get(0).get("operator").asText());
        assertEquals(1000, ops.get(0).get("actual_rows").asLong());
        assertEquals(142, ops.get(1).get("actual_rows").asLong());
        assertEquals(10, ops.get(2).get("actual_rows").asLong());
        assertTrue(ops.get(1).get("estimated_rows").isNumber());
        assertTrue(pipelines.get(0).get("time_ms").isNumber());
        assertEquals(10, root.get("result_rows").asLong());
        assertTrue(root.get("worst_join_ratio").isNull());
        // without ANALYZE: estimates only, nothing run
        JsonNode plain = new ObjectMapper().readTree(String.join("\n", lines(
                "explain (format json) select count(*) from t")));
        assertFalse(plain.get("pipelines").get(0).get("operators").get(0).has("actual_rows"));
    }

    @Test
    void jdbcReturnsThePlanAsRowsOfText() throws Exception {
        tessera.close();
        try (Connection c = DriverManager.getConnection("jdbc:tessera:" + dir.resolve("db"));
             ResultSet rs = c.createStatement().executeQuery("EXPLAIN ANALYZE select count(*) from t where id <= 300")) {
            assertEquals("plan", rs.getMetaData().getColumnName(1));
            List<String> plan = new ArrayList<>();
            while (rs.next()) {
                plan.add(rs.getString(1));
            }
            assertEquals(300, actual(plan, "-> FILTER"));
        } finally {
            tessera = Tessera.openOrCreate(dir.resolve("db"));
        }
    }

    @Test
    void analyzedCodeCountsAndPlainCodeDoesNot() {
        String plain = String.join("\n", codeLines("explain code select count(*) from t where id <= 300"));
        String counted = String.join("\n", codeLines("explain analyze code select count(*) from t where id <= 300"));
        assertFalse(plain.contains("rowCounts"), plain);
        assertTrue(counted.contains("long rowsOut0 = 0;  // rows out of FILTER"), counted);
        assertTrue(counted.contains("rowCounts[0] += rowsOut0;"), counted);
    }

    private static List<String> codeLines(String sql) {
        List<String> out = new ArrayList<>();
        for (Object[] row : tessera.query(sql).rows()) {
            out.add((String) row[0]);
        }
        return out;
    }
}

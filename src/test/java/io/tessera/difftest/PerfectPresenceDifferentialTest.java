package io.tessera.difftest;

import io.tessera.Tessera;
import io.tessera.bench.DuckDbPeer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Semi and anti probes of a perfect table, and inner probes of unique keys whose payload nothing reads, that ask only
 * whether a key is there read the table's bit per key
 * ({@code JoinTable.present}): keys at both ends of the range, at the edges of the bits' 64-bit words, negative keys,
 * keys outside the range and NULL keys, compared with DuckDB's EXISTS, NOT EXISTS, IN and NOT IN.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class PerfectPresenceDifferentialTest {

    private static final String PROPERTY = "tessera.joins.preserved";

    private Tessera tessera;
    private DuckDbPeer duck;
    private DifferentialHarness harness;
    private String before;

    @BeforeAll
    void data(@TempDir Path dir) {
        before = System.getProperty(PROPERTY);
        System.setProperty(PROPERTY, "probe"); // the outer side probes: semi and anti probes, not marks
        tessera = Tessera.openOrCreate(dir);
        Random r = new Random(64);
        tessera.query("CREATE TABLE p (k INTEGER, v INTEGER NOT NULL)");
        StringBuilder rows = new StringBuilder();
        for (int i = 0; i < 600; i++) {
            String k = r.nextInt(20) == 0 ? "NULL" : Integer.toString(r.nextInt(400) - 80);
            rows.append(i == 0 ? "" : ", ").append("(").append(k).append(", ").append(i).append(")");
        }
        tessera.query("INSERT INTO p VALUES " + rows);
        // the build side: its range's two ends, both sides of word edges (bit 63, 64, 127, 128 from its minimum)
        List<Integer> keys = List.of(-70, -69, -8, -7, 56, 57, 120, 121, 200, 250, 251, 290);
        tessera.query("CREATE TABLE b (k INTEGER NOT NULL, w INTEGER NOT NULL)");
        tessera.query("INSERT INTO b VALUES " + keys.stream().map(k -> "(" + k + ", " + (k & 7) + ")")
                .collect(Collectors.joining(", ")));
        // a range of 300,000 keys: its bits made in several chunks of words
        tessera.query("CREATE TABLE wide (k INTEGER NOT NULL)");
        tessera.query("INSERT INTO wide VALUES " + java.util.stream.IntStream.range(0, 3000)
                .mapToObj(i -> "(" + (i * 99_991L % 300_000) + ")").collect(Collectors.joining(", ")));
        tessera.query("CREATE TABLE q (k INTEGER NOT NULL, v INTEGER NOT NULL)");
        tessera.query("INSERT INTO q VALUES " + java.util.stream.IntStream.range(0, 20_000)
                .mapToObj(i -> "(" + r.nextInt(300_100) + ", " + i + ")").collect(Collectors.joining(", ")));
        duck = DuckDbPeer.inMemory(tessera.database());
        harness = new DifferentialHarness(DifferentialHarness.duckdb(duck), DifferentialHarness.tessera(tessera));
    }

    @AfterAll
    void close() {
        if (before == null) {
            System.clearProperty(PROPERTY);
        } else {
            System.setProperty(PROPERTY, before);
        }
        if (duck != null) {
            duck.close();
        }
        if (tessera != null) {
            tessera.close();
        }
    }

    static final List<String> PRESENCE = List.of(
            "SELECT k, v FROM p WHERE EXISTS (SELECT 1 FROM b WHERE b.k = p.k)",
            "SELECT k, v FROM p WHERE NOT EXISTS (SELECT 1 FROM b WHERE b.k = p.k)",
            "SELECT k, v FROM p WHERE k IN (SELECT k FROM b)",
            "SELECT p.k, p.v FROM p JOIN (SELECT DISTINCT k FROM b) d ON d.k = p.k WHERE p.v > 40",
            "SELECT k, v FROM p WHERE EXISTS (SELECT 1 FROM b WHERE b.k = p.k AND b.w > 2)",
            "SELECT count(*), sum(v) FROM p WHERE v > 100 AND NOT EXISTS (SELECT 1 FROM b WHERE b.k = p.k + 1)",
            "SELECT count(*), sum(v) FROM q WHERE EXISTS (SELECT 1 FROM wide WHERE wide.k = q.k)",
            "SELECT count(*), sum(v) FROM q WHERE NOT EXISTS (SELECT 1 FROM wide WHERE wide.k = q.k)");

    @Test
    void presenceProbesAgreeWithDuckDb() {
        harness.checkAll(PRESENCE, null);
        harness.checkAll(List.of(
                "SELECT k, v FROM p WHERE k NOT IN (SELECT k FROM b)",
                "SELECT k, v FROM p WHERE EXISTS (SELECT 1 FROM b WHERE b.k = p.k AND b.w < p.v)",
                "SELECT p.k, p.v, b.w FROM p JOIN b ON b.k = p.k",
                "SELECT p.v FROM p JOIN b ON b.k = p.k WHERE b.w + p.v > 300",
                "SELECT b.w, count(*) FROM p JOIN b ON b.k = p.k GROUP BY b.w"), null);
    }

    @Test
    void theProbesReadTheTablesBits() {
        for (String sql : PRESENCE) {
            String code = tessera.query("EXPLAIN CODE " + sql).rows().stream()
                    .map(row -> String.valueOf(row[0])).collect(Collectors.joining("\n"));
            assertEquals(true, code.contains(".present()"), sql + "\n" + code);
        }
    }
}

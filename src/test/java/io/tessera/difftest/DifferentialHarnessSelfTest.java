package io.tessera.difftest;

import io.tessera.api.QueryResult;
import io.tessera.bench.DuckDbPeer;
import io.tessera.bench.TinySsb;
import io.tessera.storage.Database;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.function.UnaryOperator;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Proves the harness before the engine exists: DuckDB against a second DuckDB on the same data agrees on every
 * random and SSB query (no false alarms, whatever order ties come in), and a DuckDB whose answers are altered in
 * small ways is caught every time (no missed differences).
 */
class DifferentialHarnessSelfTest {

    @TempDir
    static Path dir;
    static StarSchema schema;
    static Database db;
    static DuckDbPeer reference;
    static DuckDbPeer other;

    @BeforeAll
    static void data() {
        schema = StarSchemaBuilder.build(dir, DifferentialTestSupport.dataSeed());
        db = Database.open(dir);
        reference = DuckDbPeer.inMemory(db);
        other = DuckDbPeer.inMemory(db);
        other.threads(1); // another plan shape and row order than the reference's parallel one
    }

    @AfterAll
    static void close() {
        reference.close();
        other.close();
        db.close();
    }

    private static List<RandomQueryGenerator.Generated> queries() {
        return new RandomQueryGenerator(schema).generate(DifferentialTestSupport.querySeed(),
                DifferentialTestSupport.queries());
    }

    @Test
    void duckDbAgreesWithDuckDbOnRandomQueries() {
        DifferentialHarness h = new DifferentialHarness(DifferentialHarness.duckdb(reference),
                DifferentialHarness.duckdb(other));
        List<RandomQueryGenerator.Generated> qs = queries();
        h.checkAll(qs.stream().map(RandomQueryGenerator.Generated::sql).toList(),
                qs.stream().map(RandomQueryGenerator.Generated::seed).toList());
    }

    @Test
    void duckDbAgreesWithDuckDbOnSsb(@TempDir Path ssbDir) {
        TinySsb.build(ssbDir, 9, 20_000);
        try (Database ssb = Database.open(ssbDir); DuckDbPeer a = DuckDbPeer.inMemory(ssb);
             DuckDbPeer b = DuckDbPeer.inMemory(ssb)) {
            DifferentialHarness h = new DifferentialHarness(DifferentialHarness.duckdb(a), DifferentialHarness.duckdb(b));
            // the 13 queries and the variants SsbDifferentialTest runs
            CalciteValidator v = CalciteValidator.of(ssb.tables());
            for (String sql : SsbDifferentialTest.queries()) {
                h.check(sql);
                assertNull(v.validate(sql), sql);
            }
        }
    }

    /** An engine that answers like DuckDB and then alters the answer. */
    private static DifferentialHarness.Engine altered(UnaryOperator<List<Object[]>> change) {
        return new DifferentialHarness.Engine() {
            public String name() {
                return "altered DuckDB";
            }

            public QueryResult query(String sql) {
                QueryResult r = other.query(sql);
                List<Object[]> rows = new ArrayList<>();
                for (Object[] row : r.rows()) {
                    rows.add(row.clone());
                }
                return new QueryResult(r.columns(), change.apply(rows), 0, 0);
            }
        };
    }

    private static Object bump(Object v) {
        if (v instanceof Integer i) {
            return i + 1;
        } else if (v instanceof Long l) {
            return l + 1;
        } else if (v instanceof Double d) {
            return d * (1 + 1e-6) + 1e-6;
        } else if (v instanceof BigDecimal b) {
            return b.add(BigDecimal.ONE.movePointLeft(Math.max(0, b.scale())));
        } else if (v instanceof String s) {
            return s + "x";
        } else if (v instanceof Boolean b) {
            return !b;
        } else if (v instanceof java.time.LocalDate d) {
            return d.plusDays(1);
        }
        return v == null ? 0 : null;
    }

    @Test
    void catchesEveryAlteredAnswer() {
        DifferentialHarness honest = new DifferentialHarness(DifferentialHarness.duckdb(reference),
                DifferentialHarness.duckdb(other));
        List<UnaryOperator<List<Object[]>>> changes = List.of(
                rows -> rows.subList(0, rows.size() - 1),                                     // a row lost
                rows -> {
                    rows.add(rows.get(0).clone());                                           // a row twice
                    return rows;
                },
                rows -> {
                    Object[] last = rows.get(rows.size() - 1);                               // one value off
                    last[last.length - 1] = bump(last[last.length - 1]);
                    return rows;
                },
                rows -> {
                    Object[] first = rows.get(0);                                            // NULL <-> value
                    first[0] = first[0] == null ? bump(null) : null;
                    return rows;
                });
        int checked = 0;
        int reordered = 0;
        for (RandomQueryGenerator.Generated q : queries().subList(0, 150)) {
            QueryResult r = reference.query(q.sql());
            if (r.rowCount() < 2) {
                continue;
            }
            for (UnaryOperator<List<Object[]>> change : changes) {
                DifferentialHarness h = new DifferentialHarness(DifferentialHarness.duckdb(reference), altered(change));
                DifferentialHarness.Failure f = h.run(q.sql(), q.seed());
                assertNotNull(f, "missed an altered answer to seed " + q.seed() + ": " + q.sql());
                assertTrue(f.message().contains(q.sql()) && f.message().contains("seed: " + q.seed()), f.message());
                checked++;
            }
            // reversing the rows breaks an ORDER BY whose first key is not constant
            OrderBySpec spec = OrderBySpec.of(q.sql(), List.of());
            if (spec.ordered() && !spec.keys().isEmpty() && !spec.limited()) {
                int k = spec.keys().get(0);
                Object firstKey = r.rows().get(0)[k];
                Object lastKey = r.rows().get(r.rowCount() - 1)[k];
                if (!new ResultComparator().valuesEqual(firstKey, lastKey)) {
                    DifferentialHarness h = new DifferentialHarness(DifferentialHarness.duckdb(reference),
                            altered(rows -> {
                                Collections.reverse(rows);
                                return rows;
                            }));
                    assertNotNull(h.run(q.sql(), q.seed()), "missed reversed rows of seed " + q.seed());
                    reordered++;
                }
            }
            assertNull(honest.run(q.sql(), q.seed()));
        }
        assertTrue(checked > 200, "only " + checked + " altered answers checked");
        assertTrue(reordered > 10, "only " + reordered + " reorderings checked");
    }

    @Test
    void reportsAnEngineThatThrows() {
        DifferentialHarness h = new DifferentialHarness(DifferentialHarness.duckdb(reference),
                new DifferentialHarness.Engine() {
                    public String name() {
                        return "Broken";
                    }

                    public QueryResult query(String sql) {
                        throw new UnsupportedOperationException("no engine yet");
                    }
                });
        DifferentialHarness.Failure f = h.run("select count(*) from sales", 17L);
        assertNotNull(f);
        assertTrue(f.message().contains("select count(*) from sales") && f.message().contains("seed: 17")
                && f.message().contains("no engine yet"), f.message());
    }
}

package io.tessera.difftest;

import io.tessera.api.QueryResult;
import io.tessera.bench.DuckDbPeer;
import io.tessera.storage.Database;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The generator emits valid SQL: every one of a run's queries executes in DuckDB. */
class RandomQueryGeneratorTest {

    @TempDir
    static Path dir;
    static StarSchema schema;
    static Database db;
    static DuckDbPeer duck;

    @BeforeAll
    static void data() {
        schema = StarSchemaBuilder.build(dir, DifferentialTestSupport.dataSeed());
        db = Database.open(dir);
        duck = DuckDbPeer.inMemory(db);
    }

    @AfterAll
    static void close() {
        duck.close();
        db.close();
    }

    @Test
    void everyGeneratedQueryRunsOnDuckDb() {
        long seed = DifferentialTestSupport.querySeed();
        List<RandomQueryGenerator.Generated> qs = new RandomQueryGenerator(schema)
                .generate(seed, DifferentialTestSupport.queries());
        List<String> errors = new ArrayList<>();
        int nonEmpty = 0;
        for (RandomQueryGenerator.Generated q : qs) {
            try {
                QueryResult r = duck.query(q.sql());
                nonEmpty += r.rowCount() > 0 ? 1 : 0;
            } catch (RuntimeException e) {
                errors.add("seed " + q.seed() + ": " + e.getMessage());
            }
        }
        assertTrue(errors.isEmpty(), errors.size() + " of " + qs.size() + " queries failed in DuckDB (run seed "
                + seed + "):\n" + String.join("\n", errors.subList(0, Math.min(5, errors.size()))));
        assertTrue(nonEmpty > qs.size() / 2, "only " + nonEmpty + " of " + qs.size() + " queries return rows");
    }

    @Test
    void everyGeneratedQueryIsValidForCalcite() {
        CalciteValidator v = CalciteValidator.of(db.tables());
        assertNull(v.validate("select f_qty from sales"));
        assertNotNull(v.validate("select nope from sales"));
        assertNotNull(v.validate("select f_qty from sales where f_channel > 1 and"));
        List<String> errors = new ArrayList<>();
        // Calcite's standard operator table lacks the string functions Tessera adds (LPAD, CONCAT, LTRIM, ...),
        // so those queries are left to RandomQueryExtensionsTest, which runs them in DuckDB
        java.util.Set<QueryConstruct> constructs = java.util.EnumSet.copyOf(QueryConstruct.enabled());
        constructs.remove(QueryConstruct.STRING_FUNCTION);
        for (RandomQueryGenerator.Generated q : new RandomQueryGenerator(schema, constructs)
                .generate(DifferentialTestSupport.querySeed(), DifferentialTestSupport.queries())) {
            String e = v.validate(q.sql());
            if (e != null) {
                errors.add("seed " + q.seed() + ": " + e + "\n  " + q.sql());
            }
        }
        assertTrue(errors.isEmpty(), errors.size() + " queries are invalid for Calcite:\n"
                + String.join("\n", errors.subList(0, Math.min(5, errors.size()))));
    }

    @Test
    void isReproducibleFromTheQuerySeed() {
        RandomQueryGenerator g = new RandomQueryGenerator(schema);
        List<RandomQueryGenerator.Generated> run = g.generate(7, 20);
        assertEquals(run, new RandomQueryGenerator(schema).generate(7, 20));
        for (RandomQueryGenerator.Generated q : run) {
            assertEquals(q.sql(), g.generate(q.seed()));
        }
        assertNotEquals(run.get(0).sql(), run.get(1).sql());
        // the same data seed gives the same data description
        assertEquals(schema, StarSchemaBuilder.build(dir.resolve("again"), DifferentialTestSupport.dataSeed()));
    }

    @Test
    void coversTheConstructsItPromises() {
        List<RandomQueryGenerator.Generated> qs = new RandomQueryGenerator(schema)
                .generate(DifferentialTestSupport.querySeed(), DifferentialTestSupport.queries());
        String[] constructs = {" JOIN ", "customer c", "product p", "store st", " BETWEEN ", " IN (", " NOT IN (",
                " LIKE ", " IS NULL", " IS NOT NULL", " AND ", " OR ", "NOT (", "CASE WHEN", "CAST(", " * ",
                "GROUP BY", "SUM(", "COUNT(*)", "COUNT(DISTINCT", "AVG(CAST(", "MIN(", "MAX(", "HAVING",
                "ORDER BY", " DESC", "NULLS FIRST", "LIMIT", "OFFSET", "EXTRACT(YEAR", "COALESCE(", " || ", "DATE '"};
        for (String c : constructs) {
            long n = qs.stream().filter(q -> q.sql().contains(c)).count();
            assertTrue(n >= 5, "only " + n + " queries use " + c);
        }
        long threeJoins = qs.stream().filter(q -> q.sql().contains("customer c") && q.sql().contains("product p")
                && q.sql().contains("store st")).count();
        assertTrue(threeJoins >= 20, threeJoins + " queries join all three dimensions");
    }
}

package io.tessera.difftest;

import io.tessera.bench.DuckDbPeer;
import io.tessera.storage.Database;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Each {@link QueryConstruct} of the random generator: switched on, it appears in the queries, every one of which
 * runs in DuckDB (so the SQL is valid and the reference can answer it); switched off, it never appears.
 */
class RandomQueryExtensionsTest {

    /** What each construct's SQL looks like in a query. */
    static final Map<QueryConstruct, Pattern> MARKERS = Map.ofEntries(
            Map.entry(QueryConstruct.UNION, Pattern.compile(" UNION ")),
            Map.entry(QueryConstruct.INTERSECT, Pattern.compile(" INTERSECT ")),
            Map.entry(QueryConstruct.EXCEPT, Pattern.compile(" EXCEPT ")),
            Map.entry(QueryConstruct.LEFT_JOIN, Pattern.compile(" LEFT JOIN ")),
            Map.entry(QueryConstruct.RIGHT_JOIN, Pattern.compile(" RIGHT JOIN ")),
            Map.entry(QueryConstruct.FULL_JOIN, Pattern.compile(" FULL JOIN ")),
            Map.entry(QueryConstruct.WINDOW, Pattern.compile("\\) OVER \\(")),
            Map.entry(QueryConstruct.SCALAR_SUBQUERY, Pattern.compile("\\(SELECT (MAX|MIN|COUNT|SUM|AVG|p2\\.p_name|c2\\.c_region)")),
            Map.entry(QueryConstruct.EXISTS_SUBQUERY, Pattern.compile("EXISTS \\(SELECT")),
            Map.entry(QueryConstruct.IN_SUBQUERY, Pattern.compile(" IN \\(SELECT")),
            Map.entry(QueryConstruct.DISTINCT_AGGREGATE, Pattern.compile("(SUM|AVG)\\(DISTINCT")),
            Map.entry(QueryConstruct.STRING_FUNCTION,
                    Pattern.compile("(SUBSTRING|CHAR_LENGTH|TRIM|REPLACE|CONCAT|POSITION|LPAD|RPAD)\\(")));

    static final int QUERIES = 150;

    @TempDir
    static Path dir;
    static StarSchema schema;
    static Database db;
    static DuckDbPeer duck;

    @BeforeAll
    static void data() {
        schema = StarSchemaBuilder.build(dir, DifferentialTestSupport.dataSeed(), 2_000);
        db = Database.open(dir);
        duck = DuckDbPeer.inMemory(db);
    }

    @AfterAll
    static void close() {
        duck.close();
        db.close();
    }

    @Test
    void everyConstructHasAMarker() {
        assertEquals(EnumSet.allOf(QueryConstruct.class), MARKERS.keySet());
    }

    @Test
    void eachConstructIsEmittedAndRunsInDuckDb() {
        List<String> problems = new ArrayList<>();
        for (QueryConstruct c : QueryConstruct.values()) {
            RandomQueryGenerator g = new RandomQueryGenerator(schema, EnumSet.of(c));
            int with = 0;
            for (RandomQueryGenerator.Generated q : g.generate(c.ordinal() + 100L, QUERIES)) {
                for (QueryConstruct other : QueryConstruct.values()) {
                    if (other != c && MARKERS.get(other).matcher(q.sql()).find()) {
                        problems.add(c + " alone emits " + other + " (seed " + q.seed() + "): " + q.sql());
                    }
                }
                if (!MARKERS.get(c).matcher(q.sql()).find()) {
                    continue;
                }
                with++;
                try {
                    duck.query(q.sql());
                } catch (RuntimeException e) {
                    problems.add(c + ": DuckDB cannot run seed " + q.seed() + ": " + e.getMessage() + "\n  " + q.sql());
                }
            }
            if (with < QUERIES / 15) {
                problems.add(c + ": only " + with + " of " + QUERIES + " queries use it");
            }
        }
        assertTrue(problems.isEmpty(), problems.size() + " problems:\n"
                + String.join("\n", problems.subList(0, Math.min(8, problems.size()))));
    }

    @Test
    void constructsSwitchedOffNeverAppear() {
        RandomQueryGenerator g = new RandomQueryGenerator(schema, EnumSet.noneOf(QueryConstruct.class));
        for (RandomQueryGenerator.Generated q : g.generate(5, QUERIES)) {
            for (QueryConstruct c : QueryConstruct.values()) {
                assertFalse(MARKERS.get(c).matcher(q.sql()).find(), c + " in " + q.sql());
            }
        }
    }

    @Test
    void allConstructsTogetherRunInDuckDb() {
        RandomQueryGenerator g = new RandomQueryGenerator(schema, EnumSet.allOf(QueryConstruct.class));
        Set<QueryConstruct> seen = EnumSet.noneOf(QueryConstruct.class);
        for (RandomQueryGenerator.Generated q : g.generate(9, QUERIES)) {
            duck.query(q.sql());
            MARKERS.forEach((c, m) -> {
                if (m.matcher(q.sql()).find()) {
                    seen.add(c);
                }
            });
        }
        assertEquals(EnumSet.allOf(QueryConstruct.class), seen);
    }

    @Test
    void thePropertyAddsAndRemovesConstructs() {
        assertEquals(QueryConstruct.defaults(), QueryConstruct.parse(""));
        assertEquals(EnumSet.allOf(QueryConstruct.class), QueryConstruct.parse("all"));
        assertEquals(EnumSet.of(QueryConstruct.WINDOW), QueryConstruct.parse("none, window"));
        Set<QueryConstruct> s = QueryConstruct.parse("RIGHT_JOIN,-UNION");
        assertTrue(s.contains(QueryConstruct.RIGHT_JOIN));
        assertFalse(s.contains(QueryConstruct.UNION));
        assertThrows(IllegalArgumentException.class, () -> QueryConstruct.parse("LATERAL"));
    }
}

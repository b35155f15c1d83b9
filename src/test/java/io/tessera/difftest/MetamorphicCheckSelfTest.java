package io.tessera.difftest;

import io.tessera.Tessera;
import io.tessera.api.QueryResult;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The metamorphic checks fail where they should: against an engine that loses a row of a partition (TLP) or
 * counts one row too many in WHERE (NoREC), and hold on Tessera's answers. Generation is deterministic.
 */
class MetamorphicCheckSelfTest {

    @Test
    void tlpNoticesALostRowAndHoldsOtherwise(@TempDir Path dir) {
        RandomSchema schema = RandomSchema.build(dir, 5);
        int noticed = 0;
        int nonEmpty = 0;
        try (Tessera t = Tessera.open(dir)) {
            for (long seed = 0; seed < 40; seed++) {
                TlpCheck c = TlpCheck.generate(schema, seed);
                assertNull(c.verify(t::query), () -> c.queries().toString());
                // the NOT (p) partition loses its last row
                String not = c.queries().get(2);
                Function<String, QueryResult> lossy = sql -> {
                    QueryResult r = t.query(sql);
                    if (!sql.equals(not) || r.rowCount() == 0) {
                        return r;
                    }
                    List<Object[]> rows = new ArrayList<>(r.rows());
                    rows.remove(rows.size() - 1);
                    return new QueryResult(r.columns(), rows, 0, 0);
                };
                if (t.query(not).rowCount() > 0 && !c.name().contains("UNION_ALL")) {
                    nonEmpty++;
                    noticed += c.verify(lossy) != null ? 1 : 0;
                }
            }
        }
        assertTrue(nonEmpty >= 10, nonEmpty + " checks with a non-empty NOT (p) partition");
        // SELECT DISTINCT and MIN/MAX may not notice a lost duplicate, nor an aggregate an empty partition's lost row
        assertTrue(noticed >= nonEmpty / 2, noticed + " of " + nonEmpty + " noticed the lost row");
    }

    @Test
    void norecNoticesAMiscountAndHoldsOtherwise(@TempDir Path dir) {
        RandomSchema schema = RandomSchema.build(dir, 6);
        try (Tessera t = Tessera.open(dir)) {
            for (long seed = 0; seed < 20; seed++) {
                NorecCheck c = NorecCheck.generate(schema, seed);
                assertNull(c.verify(t::query), () -> c.queries().toString());
                String filtered = c.queries().get(0);
                Function<String, QueryResult> miscount = sql -> {
                    QueryResult r = t.query(sql);
                    if (!sql.equals(filtered)) {
                        return r;
                    }
                    long n = ((Number) r.rows().get(0)[0]).longValue();
                    return new QueryResult(r.columns(), List.<Object[]>of(new Object[]{n + 1}), 0, 0);
                };
                assertNotNull(c.verify(miscount), filtered);
            }
        }
    }

    @Test
    void generationIsDeterministic(@TempDir Path dir) {
        RandomSchema a = RandomSchema.build(dir.resolve("a"), 11);
        RandomSchema b = RandomSchema.build(dir.resolve("b"), 11);
        assertEquals(a, b);
        for (long seed = 100; seed < 110; seed++) {
            assertEquals(TlpCheck.generate(a, seed).queries(), TlpCheck.generate(b, seed).queries());
            assertEquals(NorecCheck.generate(a, seed).queries(), NorecCheck.generate(b, seed).queries());
        }
        // neighbours share the original query (TLP) and the reference (NoREC), not the predicate
        assertEquals(TlpCheck.generate(a, 100).queries().get(0), TlpCheck.generate(a, 101).queries().get(0));
        assertEquals(NorecCheck.generate(a, 100).queries().get(1), NorecCheck.generate(a, 101).queries().get(1));
        assertTrue(!NorecCheck.generate(a, 100).queries().get(0).equals(NorecCheck.generate(a, 101).queries().get(0)));
    }
}

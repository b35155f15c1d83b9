package io.tessera.plan;

import io.tessera.optimize.Optimizer;
import io.tessera.sql.SqlFrontEnd;
import io.tessera.storage.Database;
import io.tessera.storage.RowBatch;
import io.tessera.storage.TableSchema;
import io.tessera.storage.TableWriter;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The conjuncts of a filter over a stored table are tested in the order the table's sample ranks them (the most
 * rows dropped first), except that a conjunct that can fail keeps every test written before it ahead of it.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class FilterOrderTest {

    private static final int ROWS = 20_000;
    private Database db;

    @BeforeAll
    void table(@TempDir Path dir) {
        db = Database.openOrCreate(dir);
        TableSchema s = TableSchema.parse("t", "wide INTEGER NOT NULL, narrow INTEGER NOT NULL, d INTEGER NOT NULL");
        RowBatch b = new RowBatch(s, ROWS);
        for (int r = 0; r < ROWS; r++) {
            b.column(0).appendInt(r % 100);          // wide < 90: 90% pass
            b.column(1).appendInt((r * 7) % 100);    // narrow = 3: 1% pass
            b.column(2).appendInt(r % 5);            // d <> 0: 80% pass
        }
        try (TableWriter w = db.replace(s)) {
            w.write(b);
            w.commit();
        }
    }

    @AfterAll
    void close() {
        if (db != null) {
            db.close();
        }
    }

    /** The filters of the query's scan of {@code t}, as EXPLAIN prints them. */
    private List<String> filters(String where) {
        QueryPlan plan = PhysicalPlanner.plan(Optimizer.optimize(new SqlFrontEnd(db).plan(
                "SELECT count(*) FROM t WHERE " + where)));
        return plan.pipelines().get(0).operations().stream()
                .filter(o -> o instanceof Operation.Filter).map(o -> ((Operation.Filter) o).condition().toString())
                .toList();
    }

    @Test
    void theConjunctThatDropsMostGoesFirst() {
        assertEquals(List.of("eq(narrow, 3)", "lt(wide, 90)"), filters("wide < 90 AND narrow = 3"));
        assertEquals(List.of("eq(narrow, 3)", "lt(wide, 90)"), filters("narrow = 3 AND wide < 90"));
        assertEquals(List.of("in_list(narrow, [3, 4, 5, 6])", "lt(wide, 90)"),
                filters("wide < 90 AND narrow IN (3, 4, 5, 6)"), "a set lookup cannot fail either");
    }

    @Test
    void aConjunctThatCanFailStaysBehindTheTestsWrittenBeforeIt() {
        // 1000 / d fails where d = 0: the test d <> 0 written before it must still run before it
        List<String> f = filters("d <> 0 AND 1000 / d > 300 AND narrow = 3");
        assertEquals(3, f.size(), f.toString());
        assertEquals("eq(narrow, 3)", f.get(0), f.toString());
        assertEquals("ne(d, 0)", f.get(1), f.toString());
        assertEquals(true, f.get(2).contains("div"), f.toString());
    }
}

package io.tessera.optimize;

import io.tessera.sql.SqlFrontEnd;
import io.tessera.storage.Database;
import io.tessera.storage.RowBatch;
import io.tessera.storage.TableSchema;
import io.tessera.storage.TableWriter;
import org.apache.calcite.plan.RelOptRule;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.plan.hep.HepMatchOrder;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.logical.LogicalFilter;
import org.apache.calcite.rel.logical.LogicalProject;
import org.apache.calcite.rel.rules.CoreRules;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.function.BiFunction;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link ReducedFilters} (and {@link ReducedProjects} for projections) does what Calcite's filter reduction does, the first time and when it answers from what it
 * remembers: a filter that nothing reduces stays, one that prints alike over an input of another type (a column
 * that cannot be NULL) is reduced all the same, and one the rule changes is changed every time.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ReducedFiltersTest {

    private Database db;

    @BeforeAll
    void tables(@TempDir Path dir) {
        db = Database.openOrCreate(dir);
        write(TableSchema.parse("nullable_x", "x INTEGER, y INTEGER"));
        write(TableSchema.parse("required_x", "x INTEGER NOT NULL, y INTEGER"));
    }

    private void write(TableSchema s) {
        RowBatch b = new RowBatch(s, 3);
        for (int r = 0; r < 3; r++) {
            b.column(0).appendInt(r);
            b.column(1).appendInt(10 * r);
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

    /** A filter made directly (the front end's builder would simplify it on the way) over {@code table}'s scan. */
    private RelNode filter(String table, BiFunction<RexBuilder, RelNode, RexNode> condition) {
        RelNode scan = new SqlFrontEnd(db).plan("SELECT x, y FROM " + table).rel();
        RexBuilder rex = scan.getCluster().getRexBuilder();
        return LogicalFilter.create(scan, condition.apply(rex, scan));
    }

    private static String reduced(RelNode rel, RelOptRule rule) {
        return RelOptUtil.toString(SqlFrontEnd.hep(rel, HepMatchOrder.BOTTOM_UP, rule));
    }

    /** Both rules' plans for {@code rel}, this one's asked twice (the second answer may come from its memory). */
    private static String sameAsCalcite(RelNode rel) {
        String calcite = reduced(rel, CoreRules.FILTER_REDUCE_EXPRESSIONS);
        assertEquals(calcite, reduced(rel, ReducedFilters.RULE));
        assertEquals(calcite, reduced(rel, ReducedFilters.RULE));
        return calcite;
    }

    private static RexNode isNotNullX(RexBuilder rex, RelNode in) {
        return rex.makeCall(SqlStdOperatorTable.IS_NOT_NULL, rex.makeInputRef(in, 0));
    }

    @Test
    void aNullTestOverANullableColumnStaysAndOverARequiredOneGoes() {
        String kept = sameAsCalcite(filter("nullable_x", ReducedFiltersTest::isNotNullX));
        assertTrue(kept.contains("LogicalFilter"), kept);
        // the same condition text over a column that cannot be NULL: always true, the filter removed
        String removed = sameAsCalcite(filter("required_x", ReducedFiltersTest::isNotNullX));
        assertFalse(removed.contains("LogicalFilter"), removed);
    }

    @Test
    void aReducibleConditionIsReducedEveryTimeAndAnIrreducibleOneStays() {
        BiFunction<RexBuilder, RelNode, RexNode> above = (rex, in) -> rex.makeCall(SqlStdOperatorTable.AND,
                greaterThan(rex, in, 1), greaterThan(rex, in, 3));
        // the rule changes this filter, so it is never remembered as one it found nothing in
        String narrowed = sameAsCalcite(filter("nullable_x", above));
        assertTrue(narrowed.contains("condition=[>($0, 3)]"), narrowed);
        String kept = sameAsCalcite(filter("nullable_x", (rex, in) -> greaterThan(rex, in, 1)));
        assertTrue(kept.contains("condition=[>($0, 1)]"), kept);
        assertEquals(narrowed, sameAsCalcite(filter("nullable_x", above)));
    }

    /** A projection of {@code expr} made directly over {@code table}'s scan. */
    private RelNode project(String table, BiFunction<RexBuilder, RelNode, RexNode> expr) {
        RelNode scan = new SqlFrontEnd(db).plan("SELECT x, y FROM " + table).rel();
        RexBuilder rex = scan.getCluster().getRexBuilder();
        return LogicalProject.create(scan, List.of(), List.of(expr.apply(rex, scan)), List.of("e"), Set.of());
    }

    /** As {@link #sameAsCalcite} for a projection, against {@link ReducedProjects}. */
    private static String projectSameAsCalcite(RelNode rel) {
        String calcite = reduced(rel, CoreRules.PROJECT_REDUCE_EXPRESSIONS);
        assertEquals(calcite, reduced(rel, ReducedProjects.RULE));
        assertEquals(calcite, reduced(rel, ReducedProjects.RULE));
        return calcite;
    }

    @Test
    void aProjectedNullTestStaysOverANullableColumnAndIsTrueOverARequiredOne() {
        String kept = projectSameAsCalcite(project("nullable_x", ReducedFiltersTest::isNotNullX));
        assertTrue(kept.contains("e=[IS NOT NULL($0)]"), kept);
        // the same expression text over a column that cannot be NULL: reduced to TRUE, every time
        String reduced = projectSameAsCalcite(project("required_x", ReducedFiltersTest::isNotNullX));
        assertTrue(reduced.contains("e=[true]"), reduced);
        assertEquals(kept, projectSameAsCalcite(project("nullable_x", ReducedFiltersTest::isNotNullX)));
    }

    private static RexNode greaterThan(RexBuilder rex, RelNode in, int value) {
        return rex.makeCall(SqlStdOperatorTable.GREATER_THAN, rex.makeInputRef(in, 0),
                rex.makeExactLiteral(BigDecimal.valueOf(value)));
    }
}

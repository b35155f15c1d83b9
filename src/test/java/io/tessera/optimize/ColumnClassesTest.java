package io.tessera.optimize;

import io.tessera.sql.SqlFrontEnd;
import io.tessera.storage.Database;
import io.tessera.storage.RowBatch;
import io.tessera.storage.TableSchema;
import io.tessera.storage.TableWriter;
import org.apache.calcite.plan.hep.HepMatchOrder;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.rules.CoreRules;
import org.apache.calcite.rel.rules.MultiJoin;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The equivalence classes of a join graph's columns ({@link ColumnClasses}): which equalities join a class (inner
 * ones of same-typed columns, none across an outer join's boundary), the edges and filters they add, and a class's
 * selectivity counted once in the enumerator's estimate.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ColumnClassesTest {

    private static final int ROWS = 2000;
    private static final int KEYS = 100;
    private Database db;

    @BeforeAll
    void tables(@TempDir Path dir) {
        db = Database.openOrCreate(dir);
        Random rnd = new Random(7);
        // ta, tb, tc: a key column each with KEYS values spread over ROWS rows; td's key is BIGINT
        for (String t : new String[] {"ta", "tb", "tc"}) {
            TableSchema s = TableSchema.parse(t, t + "_k INTEGER NOT NULL, " + t + "_v INTEGER NOT NULL");
            RowBatch b = new RowBatch(s, ROWS);
            for (int r = 0; r < ROWS; r++) {
                b.column(0).appendInt(1 + rnd.nextInt(KEYS));
                b.column(1).appendInt(r);
            }
            write(s, b);
        }
        TableSchema d = TableSchema.parse("td", "td_k BIGINT NOT NULL");
        RowBatch b = new RowBatch(d, ROWS);
        for (int r = 0; r < ROWS; r++) {
            b.column(0).appendLong(1 + rnd.nextInt(KEYS));
        }
        write(d, b);
    }

    private void write(TableSchema s, RowBatch b) {
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

    /** The join graph of the query's (single) flattened join region, as the optimizer builds it. */
    private JoinGraph graph(String sql) {
        RelNode rel = new SqlFrontEnd(db).plan(sql).rel();
        rel = SqlFrontEnd.hep(rel, HepMatchOrder.BOTTOM_UP, CoreRules.FILTER_INTO_JOIN, CoreRules.JOIN_CONDITION_PUSH);
        rel = SqlFrontEnd.hep(rel, HepMatchOrder.BOTTOM_UP, CoreRules.JOIN_TO_MULTI_JOIN,
                CoreRules.PROJECT_MULTI_JOIN_MERGE, CoreRules.FILTER_MULTI_JOIN_MERGE);
        MultiJoin mj = find(rel);
        assertNotNull(mj, rel::explain);
        return new JoinGraph(mj, new Estimates());
    }

    private static MultiJoin find(RelNode rel) {
        if (rel instanceof MultiJoin mj) {
            return mj;
        }
        for (RelNode in : rel.getInputs()) {
            MultiJoin m = find(in.stripped());
            if (m != null) {
                return m;
            }
        }
        return null;
    }

    /** The global field of column {@code name}. */
    private static int field(JoinGraph g, String name) {
        int f = g.multiJoin.getRowType().getFieldNames().indexOf(name);
        assertTrue(f >= 0, name);
        return f;
    }

    private static int relation(JoinGraph g, String column) {
        return g.relationOfField[field(g, column)];
    }

    /** The conditions of the graph's conjuncts on relation {@code r} alone, as text. */
    private static List<String> filtersOf(JoinGraph g, int r) {
        List<String> out = new ArrayList<>();
        for (JoinGraph.Conjunct c : g.conjuncts) {
            if (c.relations() == 1L << r) {
                out.add(c.condition().toString());
            }
        }
        return out;
    }

    @Test
    void aChainIsOneClassWithTheUnwrittenEdge() {
        JoinGraph g = graph("SELECT * FROM ta, tb, tc WHERE ta_k = tb_k AND tb_k = tc_k");
        int cls = g.classes.classOf(field(g, "ta_k"));
        assertTrue(cls >= 0);
        assertEquals(cls, g.classes.classOf(field(g, "tb_k")));
        assertEquals(cls, g.classes.classOf(field(g, "tc_k")));
        assertEquals(-1, g.classes.classOf(field(g, "ta_v")));
        long ac = (1L << relation(g, "ta_k")) | (1L << relation(g, "tc_k"));
        assertTrue(g.conjuncts.stream().anyMatch(c -> c.relations() == ac && c.isKey() && c.eqClass() == cls),
                () -> g.conjuncts.toString());
        assertTrue(g.connected(1L << relation(g, "ta_k"), 1L << relation(g, "tc_k")));
    }

    @Test
    void aClassCountsItsSelectivityOnce() {
        // each pair of rows with equal keys: ROWS^3 / KEYS^2 rows, however many of the class's edges were written
        double truth = Math.pow(ROWS, 3) / ((double) KEYS * KEYS);
        for (String sql : new String[] {
            "SELECT * FROM ta, tb, tc WHERE ta_k = tb_k AND tb_k = tc_k",
            "SELECT * FROM ta, tb, tc WHERE ta_k = tb_k AND tb_k = tc_k AND ta_k = tc_k"}) {
            JoinPlan best = new JoinEnumerator(graph(sql)).best();
            assertEquals(truth, best.rows(), truth * 0.25, sql + ": " + best);
        }
    }

    @Test
    void aConstantFiltersEveryColumnOfTheClassOnce() {
        JoinGraph g = graph("SELECT * FROM ta, tb, tc WHERE ta_k = tb_k AND tb_k = tc_k AND ta_k = 5 AND tc_k = 5");
        int b = relation(g, "tb_k");
        // tb gets tb_k = 5 once, from ta's filter or tc's: the same predicate is not derived twice
        List<String> onB = filtersOf(g, b);
        assertEquals(1, onB.size(), onB::toString);
        assertTrue(onB.get(0).contains("5"), onB::toString);
        // ta and tc have theirs in their inputs already: nothing is derived for them
        assertEquals(List.of(), filtersOf(g, relation(g, "ta_k")));
        assertEquals(List.of(), filtersOf(g, relation(g, "tc_k")));
        // and the leaf's rows of tb shrink with it
        JoinEnumerator e = new JoinEnumerator(g);
        assertTrue(e.leaf(b).rows() < ROWS / 10.0, () -> "tb: " + e.leaf(b).rows());
    }

    @Test
    void aRangeFiltersTheOtherSide() {
        JoinGraph g = graph("SELECT * FROM ta, tb WHERE ta_k = tb_k AND ta_k < 10");
        List<String> onB = filtersOf(g, relation(g, "tb_k"));
        assertEquals(1, onB.size(), onB::toString);
        assertTrue(onB.get(0).startsWith("<"), onB::toString);
        // the join is estimated as without the derived filter: a tenth of ta's keys, each meeting ROWS/KEYS rows
        double truth = ROWS * 0.09 * ROWS / KEYS;
        JoinPlan best = new JoinEnumerator(g).best();
        assertEquals(truth, best.rows(), truth * 0.5, best::toString);
    }

    @Test
    void columnsOfAnotherTypeStayOutside() {
        JoinGraph g = graph("SELECT * FROM ta, td, tb WHERE ta_k = td_k AND ta_k = tb_k AND ta_k = 5");
        assertEquals(-1, g.classes.classOf(field(g, "td_k")));
        assertEquals(List.of(), filtersOf(g, relation(g, "td_k")));
        assertEquals(1, filtersOf(g, relation(g, "tb_k")).size());
    }

    @Test
    void outerJoinsBoundTheClass() {
        // tc is null-generating: its ON condition is no class edge, and no filter reaches it or comes from it
        JoinGraph g = graph("SELECT * FROM ta JOIN tb ON ta_k = tb_k LEFT JOIN tc ON tb_k = tc_k AND tc_k = 3 "
                + "WHERE ta_k < 50");
        int c = relation(g, "tc_k");
        assertTrue((g.nullGenerating & (1L << c)) != 0);
        assertEquals(-1, g.classes.classOf(field(g, "tc_k")));
        assertEquals(List.of(), filtersOf(g, c));
        // ta and tb are inner: the range reaches tb, not the preserved side from tc's ON condition's constant
        assertEquals(1, filtersOf(g, relation(g, "tb_k")).size());
        assertEquals(List.of(), filtersOf(g, relation(g, "ta_k")));
        // with tb null-generating (a RIGHT join keeps ta's rows) nothing joins a class
        JoinGraph r = graph("SELECT * FROM tb RIGHT JOIN ta ON ta_k = tb_k AND tb_k = 3 WHERE ta_k < 50");
        assertEquals(-1, r.classes.classOf(field(r, "ta_k")));
        assertEquals(List.of(), filtersOf(r, relation(r, "tb_k")));
    }
}

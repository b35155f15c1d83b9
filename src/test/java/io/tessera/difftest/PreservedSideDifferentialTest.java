package io.tessera.difftest;

import io.tessera.Tessera;
import io.tessera.api.QueryResult;
import io.tessera.backend.jvm.gen.JavaCompiler;
import io.tessera.bench.DuckDbPeer;
import io.tessera.exec.QueryEngine;
import io.tessera.plan.PhysicalPlanner;
import io.tessera.plan.Pipeline;
import io.tessera.plan.QueryPlan;
import io.tessera.plan.Source;
import io.tessera.sql.SqlFrontEnd;
import io.tessera.variant.Genome;
import io.tessera.variant.Genomes;
import io.tessera.variant.JvmVariantSpace;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.core.RelFactories;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.tools.RelBuilder;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Function;
import java.util.function.Supplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * Outer, semi and anti joins run both ways round ({@code tessera.joins.preserved}): the preserved side (a semi or
 * anti join's outer side) building the hash table, the other side marking its rows and a scan of the marked or
 * unmarked rows giving the answer; and the preserved side probing. Each is compared with DuckDB on small random
 * tables with NULL and repeated keys, strings, and an empty table. Semi and anti joins are also built as relational
 * plans (on equalities, strings, two keys, IS NOT DISTINCT FROM, with and without a residual condition) and compared
 * with DuckDB's EXISTS and NOT EXISTS, under covering sets of genomes.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class PreservedSideDifferentialTest {

    private static final String PROPERTY = "tessera.joins.preserved";

    private Tessera tessera;
    private DuckDbPeer duck;
    private DifferentialHarness harness;

    @BeforeAll
    void data(@TempDir Path dir) {
        tessera = Tessera.openOrCreate(dir);
        table("l", "v", "s", 40, new Random(11));
        table("r", "w", "t", 90, new Random(12));
        tessera.query("CREATE TABLE e (k INTEGER, w INTEGER NOT NULL, t VARCHAR)");
        duck = DuckDbPeer.inMemory(tessera.database());
        harness = new DifferentialHarness(DifferentialHarness.duckdb(duck), DifferentialHarness.tessera(tessera));
    }

    @AfterAll
    void close() {
        if (duck != null) {
            duck.close();
        }
        if (tessera != null) {
            tessera.close();
        }
    }

    /** A table (k INTEGER, value INTEGER NOT NULL, text VARCHAR): keys 0..11 with repeats, a tenth NULL. */
    private void table(String name, String value, String text, int rows, Random rnd) {
        tessera.query("CREATE TABLE " + name + " (k INTEGER, " + value + " INTEGER NOT NULL, " + text + " VARCHAR)");
        StringBuilder sql = new StringBuilder("INSERT INTO " + name + " VALUES ");
        for (int i = 0; i < rows; i++) {
            String k = rnd.nextInt(10) == 0 ? "NULL" : Integer.toString(rnd.nextInt(12));
            String s = rnd.nextInt(10) == 0 ? "NULL" : "'" + (char) ('a' + rnd.nextInt(8)) + "'";
            sql.append(i == 0 ? "" : ", ").append("(").append(k).append(", ").append(rnd.nextInt(100)).append(", ")
                    .append(s).append(")");
        }
        tessera.query(sql.toString());
    }

    private static <T> T withPreservedSide(String mode, Supplier<T> run) {
        String before = System.getProperty(PROPERTY);
        System.setProperty(PROPERTY, mode);
        try {
            return run.get();
        } finally {
            if (before == null) {
                System.clearProperty(PROPERTY);
            } else {
                System.setProperty(PROPERTY, before);
            }
        }
    }

    static final List<String> QUERIES = List.of(
            "SELECT l.k, l.v, l.s, r.k, r.w, r.t FROM l LEFT JOIN r ON l.k = r.k",
            "SELECT l.k, l.v, r.w FROM l LEFT JOIN r ON l.k = r.k AND r.w > l.v",
            "SELECT l.v, r.w, r.t FROM l LEFT JOIN r ON l.s = r.t",
            "SELECT l.v, r.w FROM l LEFT JOIN r ON l.k = r.k AND l.s = r.t",
            "SELECT l.v, r.w FROM l LEFT JOIN r ON r.w > l.v + 90",
            "SELECT l.v, e.w FROM l LEFT JOIN e ON l.k = e.k",
            "SELECT e.w, r.w FROM e LEFT JOIN r ON e.k = r.k",
            "SELECT l.k, l.v, r.k, r.w FROM r RIGHT JOIN l ON l.k = r.k AND r.t <> l.s",
            "SELECT l.k, l.v, r.k, r.w FROM l RIGHT JOIN r ON l.k = r.k",
            "SELECT l.k, l.v, r.k, r.w FROM l FULL JOIN r ON l.k = r.k",
            "SELECT l.k, l.v, r.k, r.w FROM r FULL JOIN l ON l.k = r.k AND r.w < l.v",
            "SELECT l.v, r.w FROM l FULL JOIN r ON l.s = r.t",
            "SELECT l.v, e.w FROM l FULL JOIN e ON l.k = e.k",
            "SELECT l.s, count(*), count(r.w), sum(r.w) FROM l LEFT JOIN r ON l.k = r.k GROUP BY l.s",
            "SELECT l.v, r.w FROM l LEFT JOIN r ON l.k = r.k ORDER BY l.v DESC, r.w NULLS FIRST LIMIT 15",
            "SELECT l.v, r.w, e.w FROM l LEFT JOIN r ON l.k = r.k LEFT JOIN e ON r.k = e.k",
            "SELECT l.v, r.w, l2.v FROM l LEFT JOIN r ON l.k = r.k AND r.w > 30 FULL JOIN l l2 ON l2.k = r.k",
            "SELECT * FROM l WHERE EXISTS (SELECT 1 FROM r WHERE r.k = l.k AND r.w > l.v)",
            "SELECT * FROM l WHERE NOT EXISTS (SELECT 1 FROM r WHERE r.k = l.k AND r.w > l.v)",
            "SELECT * FROM r WHERE EXISTS (SELECT 1 FROM l WHERE r.k = l.k AND r.t <> l.s)",
            "SELECT * FROM r WHERE NOT EXISTS (SELECT 1 FROM l WHERE r.k = l.k AND r.t <> l.s)",
            "SELECT l.v FROM l WHERE EXISTS (SELECT 1 FROM r WHERE r.w > l.v + 90)",
            "SELECT l.v FROM l WHERE NOT EXISTS (SELECT 1 FROM r WHERE r.w > l.v + 90)",
            "SELECT l.v FROM l WHERE NOT EXISTS (SELECT 1 FROM e WHERE e.k = l.k AND e.w > l.v)",
            "SELECT * FROM l WHERE EXISTS (SELECT 1 FROM r WHERE r.k = l.k AND r.w <> l.v)"
                    + " AND NOT EXISTS (SELECT 1 FROM r WHERE r.k = l.k AND r.w > l.v + 40)",
            "SELECT l.s, count(*) FROM l WHERE NOT EXISTS (SELECT 1 FROM r WHERE r.k = l.k AND r.w < l.v) GROUP BY l.s",
            "SELECT l.v FROM l WHERE l.k NOT IN (SELECT k FROM r WHERE w > 50)",
            "SELECT l.v FROM l WHERE l.k IN (SELECT k FROM r WHERE r.w > l.v)");

    @ParameterizedTest
    @ValueSource(strings = {"build", "probe", "estimate"})
    void outerSemiAndAntiJoinsAgreeWithDuckDb(String mode) {
        withPreservedSide(mode, () -> {
            harness.checkAll(QUERIES, null);
            return null;
        });
    }

    /** A semi or anti join of l (or e) with r (or e), built as a relational plan, and its SQL for DuckDB. */
    private record Case(String sql, JoinRelType type, String left, String right, Function<RelBuilder, RexNode> cond) {
    }

    static List<Case> cases() {
        List<Case> out = new ArrayList<>();
        for (JoinRelType type : List.of(JoinRelType.SEMI, JoinRelType.ANTI)) {
            String exists = type == JoinRelType.SEMI ? "EXISTS" : "NOT EXISTS";
            out.add(new Case("SELECT * FROM l WHERE " + exists + " (SELECT 1 FROM r WHERE r.k = l.k)", type, "l", "r",
                    b -> b.equals(b.field(2, 0, "k"), b.field(2, 1, "k"))));
            out.add(new Case("SELECT * FROM l WHERE " + exists + " (SELECT 1 FROM r WHERE r.t = l.s)", type, "l", "r",
                    b -> b.equals(b.field(2, 0, "s"), b.field(2, 1, "t"))));
            out.add(new Case("SELECT * FROM l WHERE " + exists + " (SELECT 1 FROM r WHERE r.k = l.k AND r.t = l.s)",
                    type, "l", "r", b -> b.and(b.equals(b.field(2, 0, "k"), b.field(2, 1, "k")),
                    b.equals(b.field(2, 0, "s"), b.field(2, 1, "t")))));
            out.add(new Case("SELECT * FROM l WHERE " + exists + " (SELECT 1 FROM r WHERE r.k IS NOT DISTINCT FROM l.k)",
                    type, "l", "r", b -> b.isNotDistinctFrom(b.field(2, 0, "k"), b.field(2, 1, "k"))));
            out.add(new Case("SELECT * FROM l WHERE " + exists + " (SELECT 1 FROM r WHERE r.k = l.k AND r.w > l.v)",
                    type, "l", "r", b -> b.and(b.equals(b.field(2, 0, "k"), b.field(2, 1, "k")),
                    b.greaterThan(b.field(2, 1, "w"), b.field(2, 0, "v")))));
            out.add(new Case("SELECT * FROM l WHERE " + exists + " (SELECT 1 FROM e WHERE e.k = l.k)", type, "l", "e",
                    b -> b.equals(b.field(2, 0, "k"), b.field(2, 1, "k"))));
            out.add(new Case("SELECT * FROM e WHERE " + exists + " (SELECT 1 FROM r WHERE r.k = e.k)", type, "e", "r",
                    b -> b.equals(b.field(2, 0, "k"), b.field(2, 1, "k"))));
        }
        return out;
    }

    @ParameterizedTest
    @ValueSource(strings = {"build", "probe"})
    void semiAndAntiJoinsWithoutTheFrontEndAgreeWithDuckDb(String mode) {
        QueryEngine engine = tessera.engine();
        JvmVariantSpace space = new JvmVariantSpace(4, false);
        for (Case c : cases()) {
            SqlFrontEnd.LogicalPlan any = new SqlFrontEnd(tessera.database()).plan("SELECT * FROM " + c.left());
            RelBuilder b = RelFactories.LOGICAL_BUILDER.create(any.rel().getCluster(), any.catalog());
            b.scan(c.left()).scan(c.right());
            RelNode join = b.join(c.type(), c.cond().apply(b)).build();
            QueryPlan plan = withPreservedSide(mode, () -> PhysicalPlanner.plan(
                    new io.tessera.optimize.Optimizer.OptimizedPlan(join, join.getRowType().getFieldNames(),
                            new io.tessera.optimize.Estimates())));
            boolean scansMarks = plan.pipelines().stream().map(Pipeline::source)
                    .anyMatch(s -> s instanceof Source.JoinTableScan);
            assertEquals(mode.equals("build"), scansMarks, c.sql() + "\n" + plan.explain());
            QueryResult expected = duck.query(c.sql());
            for (Map<Integer, Genome> genomes : Genomes.coveringPlans(space, plan)) {
                QueryResult actual = engine.run(engine.prepareJvm(plan, genomes, JavaCompiler::compile));
                assertNull(new ResultComparator().compare(c.sql(), expected, actual),
                        c.sql() + " (" + mode + ") under " + genomes + "\n" + plan.explain());
            }
        }
    }
}

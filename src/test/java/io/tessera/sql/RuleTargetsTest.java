package io.tessera.sql;

import io.tessera.storage.Database;
import io.tessera.storage.RowBatch;
import io.tessera.storage.TableSchema;
import io.tessera.storage.TableWriter;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.core.RelFactories;
import org.apache.calcite.rel.logical.LogicalAggregate;
import org.apache.calcite.rel.logical.LogicalFilter;
import org.apache.calcite.rel.logical.LogicalJoin;
import org.apache.calcite.rel.logical.LogicalProject;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexSubQuery;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.tools.RelBuilder;
import org.apache.calcite.util.ImmutableBitSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link RuleTargets} finds a subquery, a window function or a join over an aggregation at any depth of a plan, and
 * none where there is none.
 */
class RuleTargetsTest {

    @Test
    void findsWhatThePassesRewriteWhereItIs(@TempDir Path dir) {
        try (Database db = Database.openOrCreate(dir)) {
            TableSchema s = TableSchema.parse("t", "x INTEGER, y INTEGER");
            RowBatch b = new RowBatch(s, 1);
            b.column(0).appendInt(1);
            b.column(1).appendInt(2);
            try (TableWriter w = db.replace(s)) {
                w.write(b);
                w.commit();
            }
            RelNode scan = new SqlFrontEnd(db).plan("SELECT x, y FROM t").rel();
            assertFalse(RuleTargets.holdsSubQuery(scan));
            assertFalse(RuleTargets.holdsWindow(scan));

            // EXISTS in a filter below a projection
            RelNode exists = LogicalFilter.create(scan, RexSubQuery.exists(scan));
            RelNode above = LogicalProject.create(exists, List.of(),
                    List.of(scan.getCluster().getRexBuilder().makeInputRef(exists, 0)), List.of("x"), Set.of());
            assertTrue(RuleTargets.holdsSubQuery(above));
            assertFalse(RuleTargets.holdsWindow(above));

            RelBuilder builder = RelFactories.LOGICAL_BUILDER.create(scan.getCluster(), null);
            RelNode window = builder.push(scan)
                    .project(builder.field(0), builder.aggregateCall(SqlStdOperatorTable.ROW_NUMBER).over()
                            .orderBy(builder.field(1)).toRex())
                    .filter(builder.equals(builder.field(0), builder.literal(1)))
                    .build();
            assertTrue(RuleTargets.holdsWindow(window));
            assertFalse(RuleTargets.holdsSubQuery(window));

            // a join reads an aggregation on its right only (made directly: the builder drops a grouping of a key
            // it knows unique)
            RelNode grouped = LogicalAggregate.create(scan, List.of(), ImmutableBitSet.of(0), null, List.of());
            RexNode keys = builder.push(scan).push(grouped)
                    .equals(builder.field(2, 0, 0), builder.field(2, 1, 0));
            builder.clear();
            RelNode aggregateLeft = LogicalJoin.create(grouped, scan, List.of(), keys, Set.of(), JoinRelType.INNER);
            assertFalse(RuleTargets.joinsAnAggregate(aggregateLeft));
            RelNode aggregateRight = LogicalJoin.create(scan, grouped, List.of(), keys, Set.of(), JoinRelType.INNER);
            assertTrue(RuleTargets.joinsAnAggregate(LogicalProject.create(aggregateRight, List.of(),
                    List.of(builder.getRexBuilder().makeInputRef(aggregateRight, 0)), List.of("x"), Set.of())));
            assertFalse(RuleTargets.joinsAnAggregate(window));
        }
    }
}

package io.tessera.optimize;

import io.tessera.sql.VolatileProjects;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rel.core.JoinInfo;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.tools.RelBuilder;
import org.apache.calcite.util.ImmutableBitSet;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Aggregates the null-supplying side of a left outer join before the join, where the aggregation groups by a unique
 * key of the preserved side and its aggregates read only the other side (eager aggregation, as Yan and Larson call
 * it). Each preserved row is then a group of its own, whose rows are the other side's rows with that row's join key:
 * the other side grouped by its join keys holds every group's aggregates, and the join pairs each preserved row with
 * at most one row instead of with all its matches. TPC-H Q13: 15 million orders counted per customer before the
 * join, instead of 15 million joined rows written out and grouped after it.
 *
 * <p>A preserved row without matches gets what its aggregate gave over the one row the outer join made for it, whose
 * other-side columns are NULL: NULL for SUM, MIN and MAX, 0 for COUNT(x) and SUM0, 1 for COUNT(*).
 */
final class EagerAggregation {

    /** Aggregate first only where the other side has at least this many rows per join key value. */
    static final double WORTH = 2.0;

    private static final Set<SqlKind> AGGREGATES = Set.of(SqlKind.COUNT, SqlKind.SUM, SqlKind.SUM0, SqlKind.MIN,
            SqlKind.MAX);

    private final Estimates estimates;

    private EagerAggregation(Estimates estimates) {
        this.estimates = estimates;
    }

    static RelNode apply(RelNode rel, Estimates estimates) {
        return new EagerAggregation(estimates).visit(rel);
    }

    private RelNode visit(RelNode rel) {
        RelNode copy = Inputs.visited(rel, this::visit);
        return copy instanceof Aggregate a ? rewrite(a) : copy;
    }

    /** {@code agg} with the join below it fed by the other side's aggregation, or {@code agg} where that may not be. */
    private RelNode rewrite(Aggregate agg) {
        if (agg.getGroupType() != Aggregate.Group.SIMPLE || agg.getGroupSet().isEmpty()) {
            return agg;
        }
        // the aggregation's input fields as fields of the join: through a projection of plain fields, if any
        Join join;
        int[] joinField;
        if (agg.getInput() instanceof Join j) {
            join = j;
            joinField = new int[j.getRowType().getFieldCount()];
            for (int i = 0; i < joinField.length; i++) {
                joinField[i] = i;
            }
        } else if (agg.getInput() instanceof Project p && p.getInput() instanceof Join j) {
            join = j;
            joinField = new int[p.getProjects().size()];
            for (int i = 0; i < joinField.length; i++) {
                if (!(p.getProjects().get(i) instanceof RexInputRef ref)) {
                    return agg;
                }
                joinField[i] = ref.getIndex();
            }
        } else {
            return agg;
        }
        if (join.getJoinType() != JoinRelType.LEFT) {
            return agg;
        }
        JoinInfo info = join.analyzeCondition();
        if (!info.isEqui() || info.leftKeys.isEmpty()) {
            return agg;
        }
        RelNode left = join.getLeft();
        RelNode right = join.getRight();
        int leftCount = left.getRowType().getFieldCount();

        ImmutableBitSet.Builder leftGroup = ImmutableBitSet.builder();
        for (int g : agg.getGroupSet()) {
            if (joinField[g] >= leftCount) {
                return agg;
            }
            leftGroup.set(joinField[g]);
        }
        if (!Boolean.TRUE.equals(agg.getCluster().getMetadataQuery().areColumnsUnique(left, leftGroup.build()))) {
            return agg;
        }
        for (AggregateCall c : agg.getAggCallList()) {
            if (!AGGREGATES.contains(c.getAggregation().getKind()) || c.filterArg >= 0 || c.isApproximate()
                    || !c.collation.getFieldCollations().isEmpty()) {
                return agg;
            }
            for (int arg : c.getArgList()) {
                if (joinField[arg] < leftCount) {
                    return agg;
                }
            }
        }
        ImmutableBitSet rightKeys = ImmutableBitSet.of(info.rightKeys);
        double rows = estimates.rows(right);
        double keyValues = estimates.distinct(right, rightKeys);
        if (!(rows >= WORTH * keyValues)) {
            return agg;
        }
        return aggregateFirst(agg, join, info, rightKeys, joinField);
    }

    private static RelNode aggregateFirst(Aggregate agg, Join join, JoinInfo info, ImmutableBitSet rightKeys,
                                          int[] joinField) {
        RelNode left = join.getLeft();
        int leftCount = left.getRowType().getFieldCount();
        RelBuilder b = VolatileProjects.BUILDERS.create(agg.getCluster(), null);
        RexBuilder rb = agg.getCluster().getRexBuilder();

        // the other side grouped by its join keys (in field order), with each aggregate over its fields there
        b.push(join.getRight());
        List<RelBuilder.AggCall> calls = new ArrayList<>();
        for (AggregateCall c : agg.getAggCallList()) {
            List<RexNode> args = new ArrayList<>();
            for (int arg : c.getArgList()) {
                args.add(b.field(joinField[arg] - leftCount));
            }
            calls.add(b.aggregateCall(c.getAggregation(), args).distinct(c.isDistinct()));
        }
        b.aggregate(b.groupKey(rightKeys), calls);

        // the preserved side joined with it on the same keys: key k of the join is field rank(k) of the groups
        RelNode grouped = b.build();
        b.push(left).push(grouped);
        List<RexNode> equal = new ArrayList<>();
        List<Integer> groupFields = rightKeys.asList();
        for (int k = 0; k < info.leftKeys.size(); k++) {
            equal.add(b.equals(b.field(2, 0, info.leftKeys.get(k)),
                    b.field(2, 1, groupFields.indexOf(info.rightKeys.get(k)))));
        }
        b.join(JoinRelType.LEFT, equal);

        // the aggregation's row: its group fields from the preserved side, then each aggregate, with what it gives
        // over no rows where a preserved row had no match
        List<RexNode> out = new ArrayList<>();
        for (int g : agg.getGroupSet()) {
            out.add(b.field(joinField[g]));
        }
        int first = leftCount + rightKeys.cardinality();
        List<RelDataTypeField> want = agg.getRowType().getFieldList();
        for (int i = 0; i < agg.getAggCallList().size(); i++) {
            AggregateCall c = agg.getAggCallList().get(i);
            RexNode value = b.field(first + i);
            SqlKind kind = c.getAggregation().getKind();
            if (kind == SqlKind.COUNT || kind == SqlKind.SUM0) {
                long none = kind == SqlKind.COUNT && c.getArgList().isEmpty() ? 1 : 0;
                RelDataType t = rb.getTypeFactory().createTypeWithNullability(value.getType(), false);
                value = rb.makeCall(SqlStdOperatorTable.COALESCE, value,
                        rb.makeExactLiteral(BigDecimal.valueOf(none), t));
            }
            out.add(value);
        }
        for (int i = 0; i < out.size(); i++) {
            RelDataType t = want.get(i).getType();
            if (!out.get(i).getType().equals(t)) {
                out.set(i, rb.makeCast(t, out.get(i), true, false));
            }
        }
        return b.project(out, agg.getRowType().getFieldNames(), true).build();
    }
}

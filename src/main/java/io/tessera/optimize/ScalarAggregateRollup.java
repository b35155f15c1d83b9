package io.tessera.optimize;

import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.SqlAggFunction;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.type.SqlTypeUtil;
import org.apache.calcite.tools.RelBuilder;

import java.util.ArrayList;
import java.util.List;

/**
 * A scalar aggregation (no GROUP BY) over the same rows as a grouped aggregation elsewhere in the query, whose
 * aggregates that aggregation computes too, reads them from the grouped aggregation's groups: the SUM of the groups'
 * sums, the MIN of their minima, the MAX of their maxima, the SUM0 of their counts. The physical planner computes equal
 * aggregations once, so the rows both read (TPC-H Q11: the join whose total a HAVING compares each part's value with)
 * are made once instead of twice, and the scalar aggregation reads the groups rather than the rows.
 */
final class ScalarAggregateRollup {

    private final List<Aggregate> grouped = new ArrayList<>();
    private final RelBuilder builder;

    private ScalarAggregateRollup(RelBuilder builder) {
        this.builder = builder;
    }

    static RelNode apply(RelNode rel, RelBuilder builder) {
        ScalarAggregateRollup rollup = new ScalarAggregateRollup(builder);
        rollup.collect(rel);
        return rollup.grouped.isEmpty() ? rel : rollup.visit(rel);
    }

    private void collect(RelNode rel) {
        if (rel instanceof Aggregate a && a.getGroupType() == Aggregate.Group.SIMPLE && !a.getGroupSet().isEmpty()) {
            grouped.add(a);
        }
        for (RelNode in : rel.getInputs()) {
            collect(in);
        }
    }

    private RelNode visit(RelNode rel) {
        RelNode copy = Inputs.visited(rel, this::visit);
        if (copy instanceof Aggregate a && a.getGroupType() == Aggregate.Group.SIMPLE && a.getGroupSet().isEmpty()) {
            for (Aggregate g : grouped) {
                RelNode rolled = rollUp(a, g);
                if (rolled != null) {
                    return rolled;
                }
            }
        }
        return copy;
    }

    /** {@code scalar} computed from {@code groups}' aggregates, or null where they are not over the same rows or lack one. */
    private RelNode rollUp(Aggregate scalar, Aggregate groups) {
        Input s = Input.of(scalar.getInput());
        Input g = Input.of(groups.getInput());
        if (!s.rows().getDigest().equals(g.rows().getDigest())) {
            return null;
        }
        builder.push(groups);
        List<RelBuilder.AggCall> calls = new ArrayList<>();
        for (AggregateCall c : scalar.getAggCallList()) {
            SqlAggFunction over = overGroups(c);
            int partial = over == null ? -1 : partial(c, s, groups, g);
            if (partial < 0) {
                builder.clear();
                return null;
            }
            RelBuilder.AggCall call = builder.aggregateCall(over, builder.field(groups.getGroupCount() + partial));
            calls.add(c.getName() == null ? call : call.as(c.getName()));
        }
        builder.aggregate(builder.groupKey(), calls);
        return builder.convert(scalar.getRowType(), false).build();
    }

    /** The aggregate that combines the groups' values of {@code c} into {@code c}'s value, or null where none does. */
    private static SqlAggFunction overGroups(AggregateCall c) {
        if (c.isDistinct() || c.hasFilter() || c.isApproximate() || !c.getCollation().getFieldCollations().isEmpty()) {
            return null;
        }
        return switch (c.getAggregation().getKind()) {
            case SUM -> SqlStdOperatorTable.SUM;
            case SUM0, COUNT -> SqlStdOperatorTable.SUM0;
            case MIN -> SqlStdOperatorTable.MIN;
            case MAX -> SqlStdOperatorTable.MAX;
            default -> null;
        };
    }

    /** The index of the aggregate of {@code groups} that computes {@code c} per group, or -1 where none does. */
    private static int partial(AggregateCall c, Input s, Aggregate groups, Input g) {
        List<AggregateCall> calls = groups.getAggCallList();
        for (int i = 0; i < calls.size(); i++) {
            AggregateCall d = calls.get(i);
            if (d.getAggregation().getKind() == c.getAggregation().getKind() && !d.isDistinct() && !d.hasFilter()
                    && !d.isApproximate() && d.getCollation().getFieldCollations().isEmpty()
                    && s.fields(c.getArgList()).equals(g.fields(d.getArgList()))
                    && SqlTypeUtil.equalSansNullability(groups.getCluster().getTypeFactory(), c.getType(), d.getType())) {
                return i;
            }
        }
        return -1;
    }

    /** An aggregation's input as expressions over the rows below its projection (the input itself where it has none). */
    private record Input(RelNode rows, List<RexNode> projects) {

        static Input of(RelNode input) {
            if (input instanceof Project p) {
                return new Input(p.getInput(), p.getProjects());
            }
            return new Input(input, input.getCluster().getRexBuilder().identityProjects(input.getRowType()));
        }

        List<RexNode> fields(List<Integer> args) {
            List<RexNode> out = new ArrayList<>();
            for (int a : args) {
                out.add(projects.get(a));
            }
            return out;
        }
    }
}

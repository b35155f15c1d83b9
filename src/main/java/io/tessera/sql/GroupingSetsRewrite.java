package io.tessera.sql;

import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.rel.logical.LogicalAggregate;
import org.apache.calcite.rel.logical.LogicalProject;
import org.apache.calcite.rel.logical.LogicalUnion;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.util.ImmutableBitSet;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;

/**
 * GROUPING SETS, ROLLUP and CUBE as plain aggregations: an aggregate over several grouping sets becomes the UNION ALL
 * of one aggregation per set, each with NULL for the keys its set leaves out and GROUPING() (and GROUPING_ID()) as
 * the constant it has in that set: bit i, counted from the last argument, is 1 where argument i is not grouped.
 * Every branch reads the aggregate's input again; the result has the aggregate's row type, so the plan above it
 * is unchanged.
 */
public final class GroupingSetsRewrite {

    private GroupingSetsRewrite() {
    }

    public static RelNode rewrite(RelNode rel) {
        List<RelNode> inputs = new ArrayList<>();
        for (RelNode in : rel.getInputs()) {
            inputs.add(rewrite(in));
        }
        RelNode copy = inputs.equals(rel.getInputs()) ? rel : sameTypes(inputs, rel.getInputs())
                ? rel.copy(rel.getTraitSet(), inputs) : NullableInputs.over(rel, inputs);
        if (copy instanceof Aggregate a && (a.getGroupType() != Aggregate.Group.SIMPLE || hasGrouping(a))) {
            return expand(a);
        }
        return copy;
    }

    private static boolean sameTypes(List<RelNode> a, List<RelNode> b) {
        for (int i = 0; i < a.size(); i++) {
            if (!a.get(i).getRowType().equals(b.get(i).getRowType())) {
                return false;
            }
        }
        return true;
    }

    private static boolean hasGrouping(Aggregate a) {
        for (AggregateCall c : a.getAggCallList()) {
            if (isGrouping(c)) {
                return true;
            }
        }
        return false;
    }

    private static boolean isGrouping(AggregateCall c) {
        SqlKind k = c.getAggregation().getKind();
        return k == SqlKind.GROUPING || k == SqlKind.GROUPING_ID;
    }

    private static RelNode expand(Aggregate a) {
        RexBuilder rb = a.getCluster().getRexBuilder();
        List<RelDataTypeField> fields = a.getRowType().getFieldList();
        List<String> names = a.getRowType().getFieldNames();
        List<Integer> keys = a.getGroupSet().asList();
        List<RelNode> branches = new ArrayList<>();
        for (ImmutableBitSet set : a.getGroupSets()) {
            // this set's aggregation, without the GROUPING calls (constants here)
            List<AggregateCall> calls = new ArrayList<>();
            for (AggregateCall c : a.getAggCallList()) {
                if (!isGrouping(c)) {
                    calls.add(AggregateCall.create(c.getAggregation(), c.isDistinct(), c.isApproximate(),
                            c.ignoreNulls(), c.rexList, c.getArgList(), c.filterArg, c.distinctKeys, c.collation,
                            set.cardinality(), a.getInput(), null, c.getName()));
                }
            }
            Aggregate agg = LogicalAggregate.create(a.getInput(), a.getHints(), set, null, calls);
            List<RexNode> out = new ArrayList<>();
            List<Integer> setKeys = set.asList();
            for (int k = 0; k < keys.size(); k++) {
                int pos = setKeys.indexOf(keys.get(k));
                out.add(pos >= 0 ? rb.makeInputRef(agg, pos) : rb.makeNullLiteral(fields.get(k).getType()));
            }
            int next = set.cardinality();
            for (AggregateCall c : a.getAggCallList()) {
                if (isGrouping(c)) {
                    long bits = 0;
                    for (int arg : c.getArgList()) {
                        bits = bits << 1 | (set.get(arg) ? 0 : 1);
                    }
                    out.add(rb.makeExactLiteral(BigDecimal.valueOf(bits), c.getType()));
                } else {
                    out.add(rb.makeInputRef(agg, next++));
                }
            }
            branches.add(LogicalProject.create(agg, List.of(), out, names));
        }
        return branches.size() == 1 ? branches.get(0) : LogicalUnion.create(branches, true);
    }
}

package io.tessera.sql;

import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.rel.logical.LogicalAggregate;
import org.apache.calcite.rel.logical.LogicalFilter;
import org.apache.calcite.rel.logical.LogicalJoin;
import org.apache.calcite.rel.logical.LogicalProject;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;

import java.util.ArrayList;
import java.util.List;

/**
 * A node rebuilt over inputs whose columns became nullable. Calcite types an aggregate over grouping sets as NOT
 * NULL where only the empty set's row, over no input rows, can be NULL (SUM of a NOT NULL column); the rewritten
 * sets say it can be NULL, and every expression, condition and aggregate above them is retyped to match rather
 * than trusting the old claim.
 */
final class NullableInputs {

    private NullableInputs() {
    }

    static RelNode over(RelNode rel, List<RelNode> inputs) {
        RelDataTypeFactory types = rel.getCluster().getTypeFactory();
        if (rel instanceof LogicalProject p) {
            List<RexNode> exprs = new ArrayList<>();
            for (RexNode e : p.getProjects()) {
                exprs.add(widen(e, fields(inputs), types));
            }
            return LogicalProject.create(inputs.get(0), p.getHints(), exprs, p.getRowType().getFieldNames(), p.getVariablesSet());
        }
        if (rel instanceof LogicalFilter f) {
            return LogicalFilter.create(inputs.get(0), widen(f.getCondition(), fields(inputs), types),
                    com.google.common.collect.ImmutableSet.copyOf(f.getVariablesSet()));
        }
        if (rel instanceof LogicalJoin j) {
            return j.copy(j.getTraitSet(), widen(j.getCondition(), fields(inputs), types), inputs.get(0), inputs.get(1),
                    j.getJoinType(), j.isSemiJoinDone());
        }
        if (rel instanceof LogicalAggregate a) {
            List<AggregateCall> calls = new ArrayList<>();
            for (AggregateCall c : a.getAggCallList()) {
                // the type inferred again over the new input
                calls.add(AggregateCall.create(c.getAggregation(), c.isDistinct(), c.isApproximate(), c.ignoreNulls(),
                        c.rexList, c.getArgList(), c.filterArg, c.distinctKeys, c.collation, a.getGroupCount(),
                        inputs.get(0), null, c.getName()));
            }
            return LogicalAggregate.create(inputs.get(0), a.getHints(), a.getGroupSet(), a.getGroupSets(), calls);
        }
        // the others (sort, union, ...) take their row type from their inputs
        return rel.copy(rel.getTraitSet(), inputs);
    }

    private static List<RelDataType> fields(List<RelNode> inputs) {
        List<RelDataType> out = new ArrayList<>();
        for (RelNode in : inputs) {
            for (RelDataTypeField f : in.getRowType().getFieldList()) {
                out.add(f.getType());
            }
        }
        return out;
    }

    /** The expression over the new input types: a reference takes its column's type, a call over a nullable one is nullable. */
    private static RexNode widen(RexNode e, List<RelDataType> fields, RelDataTypeFactory types) {
        return e.accept(new RexShuttle() {
            @Override
            public RexNode visitInputRef(RexInputRef r) {
                RelDataType t = fields.get(r.getIndex());
                return t.equals(r.getType()) ? r : new RexInputRef(r.getIndex(), t);
            }

            @Override
            public RexNode visitCall(RexCall call) {
                RexNode r = super.visitCall(call);
                if (r != call && r instanceof RexCall c && !c.getType().isNullable()) {
                    for (RexNode o : c.getOperands()) {
                        if (o.getType().isNullable()) {
                            return c.clone(types.createTypeWithNullability(c.getType(), true), c.getOperands());
                        }
                    }
                }
                return r;
            }
        });
    }
}

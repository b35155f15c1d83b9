package io.tessera.sql;

import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.CorrelationId;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.logical.LogicalCorrelate;
import org.apache.calcite.rel.logical.LogicalProject;
import org.apache.calcite.rel.logical.LogicalValues;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCorrelVariable;
import org.apache.calcite.rex.RexFieldAccess;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * A LATERAL subquery without FROM ({@code FROM t, LATERAL (SELECT t.a + t.b AS s)}, or {@code LEFT JOIN LATERAL
 * (...) ON true}) computes exactly one row from each outer row: the correlation becomes a projection over the outer
 * rows, each correlated value read from its column there. Calcite's decorrelator has no rule for a correlation over
 * VALUES, and would refuse the query.
 */
final class LateralValues {

    private LateralValues() {
    }

    static RelNode inline(RelNode rel) {
        List<RelNode> inputs = new ArrayList<>();
        for (RelNode in : rel.getInputs()) {
            inputs.add(inline(in));
        }
        RelNode r = inputs.equals(rel.getInputs()) ? rel : rel.copy(rel.getTraitSet(), inputs);
        if (!(r instanceof LogicalCorrelate c)
                || c.getJoinType() != JoinRelType.INNER && c.getJoinType() != JoinRelType.LEFT
                || !(c.getRight() instanceof LogicalProject p)
                || !(p.getInput() instanceof LogicalValues v) || v.getTuples().size() != 1) {
            return r;
        }
        RexBuilder rb = c.getCluster().getRexBuilder();
        RelNode left = c.getLeft();
        List<RexLiteral> row = v.getTuples().get(0);
        RexShuttle outerColumns = new OuterColumns(c.getCorrelationId(), left, row, rb);
        List<RexNode> columns = new ArrayList<>();
        List<RelDataTypeField> want = c.getRowType().getFieldList();
        for (int i = 0; i < left.getRowType().getFieldCount(); i++) {
            columns.add(rb.makeInputRef(left, i));
        }
        for (RexNode e : p.getProjects()) {
            columns.add(e.accept(outerColumns));
        }
        for (int i = 0; i < columns.size(); i++) {
            columns.set(i, ScalarCounts.typed(rb, want.get(i).getType(), columns.get(i)));
        }
        return LogicalProject.create(left, List.of(), columns, c.getRowType().getFieldNames(), Set.of());
    }

    /** The correlation's fields as the outer rows' columns, the VALUES row's columns as its literals. */
    private static final class OuterColumns extends RexShuttle {
        private final CorrelationId id;
        private final RelNode left;
        private final List<RexLiteral> row;
        private final RexBuilder rb;

        OuterColumns(CorrelationId id, RelNode left, List<RexLiteral> row, RexBuilder rb) {
            this.id = id;
            this.left = left;
            this.row = row;
            this.rb = rb;
        }

        @Override
        public RexNode visitFieldAccess(RexFieldAccess access) {
            if (access.getReferenceExpr() instanceof RexCorrelVariable v && v.id.equals(id)) {
                return rb.makeInputRef(left, access.getField().getIndex());
            }
            return super.visitFieldAccess(access);
        }

        @Override
        public RexNode visitInputRef(RexInputRef ref) {
            return row.get(ref.getIndex());
        }
    }
}

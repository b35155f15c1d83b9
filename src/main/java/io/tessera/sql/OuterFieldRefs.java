package io.tessera.sql;

import org.apache.calcite.rel.core.CorrelationId;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexCorrelVariable;
import org.apache.calcite.rex.RexFieldAccess;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;

/**
 * Rewrites a subquery's expression for a join with its outer query: a field of the outer row read through the
 * correlation {@code cor} becomes a reference to that field (the outer row's fields come first in the join), the
 * subquery's own fields move {@code innerShift} places to the right. {@link #rewrite} answers null when the
 * expression reads another correlation or the correlated row as a whole, which such a join cannot express.
 */
final class OuterFieldRefs extends RexShuttle {
    private final CorrelationId cor;
    private final int innerShift;
    private final RelDataType outerRow; // null: a field takes the type its access reads it with
    private boolean expressible = true;

    private OuterFieldRefs(CorrelationId cor, int innerShift, RelDataType outerRow) {
        this.cor = cor;
        this.innerShift = innerShift;
        this.outerRow = outerRow;
    }

    /** {@code e}, which reads only the outer row, over the outer row's fields; null as {@link #rewrite} says. */
    static RexNode outerOnly(RexNode e, CorrelationId cor) {
        return rewrite(e, cor, 0, null);
    }

    /**
     * {@code e} over the fields of a join of the outer row (of type {@code outerRow}) and the subquery's (moved
     * {@code innerShift} places), or null when it reads what the join cannot give it.
     */
    static RexNode rewrite(RexNode e, CorrelationId cor, int innerShift, RelDataType outerRow) {
        OuterFieldRefs refs = new OuterFieldRefs(cor, innerShift, outerRow);
        RexNode out = e.accept(refs);
        return refs.expressible ? out : null;
    }

    @Override
    public RexNode visitInputRef(RexInputRef ref) {
        return innerShift == 0 ? ref : new RexInputRef(innerShift + ref.getIndex(), ref.getType());
    }

    @Override
    public RexNode visitFieldAccess(RexFieldAccess fa) {
        if (fa.getReferenceExpr() instanceof RexCorrelVariable v && v.id.equals(cor)) {
            int i = fa.getField().getIndex();
            return new RexInputRef(i, outerRow == null ? fa.getType() : outerRow.getFieldList().get(i).getType());
        }
        expressible = false;
        return fa;
    }

    @Override
    public RexNode visitCorrelVariable(RexCorrelVariable v) {
        expressible = false;
        return v;
    }
}

package io.tessera.plan;

import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.SqlKind;

import java.util.ArrayList;
import java.util.List;

/**
 * An OR whose every disjunct compares one expression with a constant ({@code x = 'a' OR x = 'b' OR ...}): Calcite
 * leaves such a chain as it is where it cannot make a SEARCH of it (an IN list over {@code SUBSTRING(...)}, as in
 * TPC-H Q22), and evaluated as written it computes the expression once per constant.
 *
 * @param subject the expression compared
 * @param constants the constants it is compared with, in the order written, none NULL
 */
record EqualityChain(RexNode subject, List<RexLiteral> constants) {

    /** The chain {@code or} is, or null when one of its disjuncts is another comparison or another expression's. */
    static EqualityChain of(RexCall or) {
        if (or.getKind() != SqlKind.OR) {
            return null;
        }
        RexNode subject = null;
        List<RexLiteral> constants = new ArrayList<>();
        for (RexNode d : RexUtil.flattenOr(or.getOperands())) {
            if (!(d instanceof RexCall eq) || eq.getKind() != SqlKind.EQUALS) {
                return null;
            }
            RexNode a = eq.getOperands().get(0);
            RexNode b = eq.getOperands().get(1);
            if (a instanceof RexLiteral) {
                RexNode t = a;
                a = b;
                b = t;
            }
            if (a instanceof RexLiteral || !(b instanceof RexLiteral lit) || lit.isNull()) {
                return null;
            }
            if (subject == null) {
                subject = a;
            } else if (!subject.equals(a)) {
                return null;
            }
            constants.add(lit);
        }
        return subject == null ? null : new EqualityChain(subject, List.copyOf(constants));
    }
}

package io.tessera.optimize;

import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.SqlKind;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToLongFunction;

/**
 * Filters implied by a disjunction over several relations, one per relation that every branch restricts: from
 * {@code (n1 = 'FRANCE' AND n2 = 'GERMANY') OR (n1 = 'GERMANY' AND n2 = 'FRANCE')} follows {@code n1 = 'FRANCE'
 * OR n1 = 'GERMANY'} for the first relation and the like for the second (TPC-H Q7); from Q19's three branches, each
 * naming a part's brand, container and size and a quantity range, follow a filter on part and one on lineitem. The
 * disjunction itself stays where it is; the derived filters only let each relation drop rows before it is joined.
 */
final class Disjunctions {

    private Disjunctions() {
    }

    /**
     * For each relation (a bit in the mask {@code relationsOf} gives) that every branch of {@code or} restricts
     * with conjuncts of that relation alone, the disjunction of those conjuncts; empty when {@code or} is no OR.
     */
    static Map<Integer, RexNode> perRelation(RexNode or, ToLongFunction<RexNode> relationsOf, RexBuilder rb) {
        Map<Integer, RexNode> out = new LinkedHashMap<>();
        if (or.getKind() != SqlKind.OR) {
            return out;
        }
        List<RexNode> branches = RelOptUtil.disjunctions(or);
        long candidates = -1L;
        List<List<RexNode>> conjuncts = new ArrayList<>();
        for (RexNode b : branches) {
            List<RexNode> cs = RelOptUtil.conjunctions(b);
            conjuncts.add(cs);
            long single = 0;
            for (RexNode c : cs) {
                long rels = relationsOf.applyAsLong(c);
                if (Long.bitCount(rels) == 1) {
                    single |= rels;
                }
            }
            candidates &= single;
        }
        for (long m = candidates; m != 0; m &= m - 1) {
            long rel = m & -m;
            List<RexNode> perBranch = new ArrayList<>();
            for (List<RexNode> cs : conjuncts) {
                List<RexNode> own = new ArrayList<>();
                for (RexNode c : cs) {
                    if (relationsOf.applyAsLong(c) == rel) {
                        own.add(c);
                    }
                }
                perBranch.add(RexUtil.composeConjunction(rb, own));
            }
            out.put(Long.numberOfTrailingZeros(rel), RexUtil.composeDisjunction(rb, perBranch));
        }
        return out;
    }
}

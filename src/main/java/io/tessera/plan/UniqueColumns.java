package io.tessera.plan;

import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Filter;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rel.core.JoinInfo;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.util.ImmutableBitSet;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Whether columns of a relation hold each combination of values at most once (a join table over them is unique),
 * walked through joins, filters and projections here and asked of Calcite's metadata only below them.
 *
 * <p>Calcite's own answer for a join first infers every predicate the join tree implies (to find constant
 * columns), which grows steeply with the tree: on a chain of 64 joined tables it took seconds per join. The rules
 * here are the plain ones and may answer "not known" (false) where Calcite would prove uniqueness; false only
 * costs a table that allows repeated keys.
 */
final class UniqueColumns {
    private final RelMetadataQuery mq;
    private final Map<RelNode, Map<ImmutableBitSet, Boolean>> memo = new HashMap<>();

    UniqueColumns(RelMetadataQuery mq) {
        this.mq = mq;
    }

    /** Whether {@code columns} of {@code rel} are unique; false where that is not known. */
    boolean unique(RelNode rel, ImmutableBitSet columns) {
        Map<ImmutableBitSet, Boolean> known = memo.computeIfAbsent(rel, r -> new HashMap<>());
        Boolean b = known.get(columns);
        if (b == null) {
            b = compute(rel, columns);
            known.put(columns, b);
        }
        return b;
    }

    private boolean compute(RelNode rel, ImmutableBitSet columns) {
        if (rel instanceof Join j) {
            return join(j, columns);
        }
        if (rel instanceof Filter f) {
            return unique(f.getInput(), columns); // fewer rows, the same values
        }
        if (rel instanceof Project p) {
            ImmutableBitSet.Builder in = ImmutableBitSet.builder();
            List<RexNode> exprs = p.getProjects();
            for (int c : columns) {
                if (!(exprs.get(c) instanceof RexInputRef ref)) {
                    return Boolean.TRUE.equals(mq.areColumnsUnique(rel, columns)); // a computed column: ask Calcite
                }
                in.set(ref.getIndex());
            }
            return unique(p.getInput(), in.build());
        }
        return Boolean.TRUE.equals(mq.areColumnsUnique(rel, columns));
    }

    /**
     * A join's columns are unique where a left row meets at most one right row (the right join keys unique) and
     * the left columns are unique, or the other way round, or where unique columns of both sides are taken.
     */
    private boolean join(Join j, ImmutableBitSet columns) {
        int nLeft = j.getLeft().getRowType().getFieldCount();
        ImmutableBitSet left = columns.get(0, nLeft);
        JoinRelType type = j.getJoinType();
        if (type == JoinRelType.SEMI || type == JoinRelType.ANTI) {
            return unique(j.getLeft(), left); // the left rows, each at most once
        }
        ImmutableBitSet right = columns.get(nLeft, nLeft + j.getRight().getRowType().getFieldCount()).shift(-nLeft);
        JoinInfo info = j.analyzeCondition();
        // under IS NOT DISTINCT FROM a NULL key meets every NULL key of the other side
        boolean plainKeys = RexUtil.findOperatorCall(SqlStdOperatorTable.IS_NOT_DISTINCT_FROM, j.getCondition()) == null;
        boolean leftMeetsOne = plainKeys && !info.rightKeys.isEmpty() && unique(j.getRight(), info.rightSet());
        boolean rightMeetsOne = plainKeys && !info.leftKeys.isEmpty() && unique(j.getLeft(), info.leftSet());
        boolean leftUnique = !left.isEmpty() && unique(j.getLeft(), left);
        boolean rightUnique = !right.isEmpty() && unique(j.getRight(), right);
        return switch (type) {
            // a NULL-padded right side repeats nothing: an unmatched left row appears once
            case INNER, LEFT -> (leftUnique && (leftMeetsOne || rightUnique))
                    || (type == JoinRelType.INNER && rightUnique && rightMeetsOne);
            case RIGHT -> rightUnique && (rightMeetsOne || leftUnique);
            default -> false;
        };
    }
}

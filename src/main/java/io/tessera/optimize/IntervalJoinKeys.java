package io.tessera.optimize;

import io.tessera.sql.IntervalSyntax;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.tools.RelBuilder;
import org.apache.calcite.util.ImmutableBitSet;

import java.util.ArrayList;
import java.util.List;

/**
 * A join on an equality of INTERVALs ({@code a.x = b.y}, {@code IS NOT DISTINCT FROM}) compares lengths, as DuckDB
 * does (1 month matches 30 days): each side computes its operand's length as two BIGINT columns below the join (the
 * whole days, a month as 30, and the microseconds beyond them; {@link IntervalSyntax#KEY_DAYS}), and the equality
 * becomes the equality of both, which the join plans as two numeric keys. The join's own columns are kept above it.
 * An equality whose operands do not come one from each side stays a condition, compared by length as every
 * comparison of intervals is. An equality of LISTs or STRUCTs with an INTERVAL inside has one key per side instead, a
 * hash of the value in which each interval is its length ({@link IntervalSyntax#KEY_HASH}), and the values themselves
 * compared beside it (as the negation of their difference, which is no key), since two values may share a hash.
 */
final class IntervalJoinKeys {
    private IntervalJoinKeys() {
    }

    static RelNode apply(Join join, RelBuilder b) {
        int leftWidth = join.getLeft().getRowType().getFieldCount();
        int rightWidth = join.getRight().getRowType().getFieldCount();
        List<RexNode> leftKeys = new ArrayList<>();
        List<RexNode> rightKeys = new ArrayList<>();
        // the condition with each such equality over input refs to the new key columns: the left's added after its
        // columns, the right's after its own (right fields move by the left's added count)
        List<RexCall> equalities = new ArrayList<>();
        join.getCondition().accept(new RexShuttle() {
            @Override
            public RexNode visitCall(RexCall call) {
                if (isIntervalEquality(call) && sidesOf(call, leftWidth) != null) {
                    equalities.add(call);
                    return call;
                }
                return super.visitCall(call);
            }
        });
        if (equalities.isEmpty()) {
            return join;
        }
        RexBuilder rex = join.getCluster().getRexBuilder();
        // where each equality's keys start among the added columns
        List<Integer> firstKey = new ArrayList<>();
        for (RexCall eq : equalities) {
            int[] sides = sidesOf(eq, leftWidth);
            RexNode l = eq.getOperands().get(sides[0]);
            RexNode r = org.apache.calcite.rex.RexUtil.shift(eq.getOperands().get(sides[1]), -leftWidth);
            firstKey.add(leftKeys.size());
            if (!IntervalGroups.isInterval(l.getType())) {
                leftKeys.add(rex.makeCall(IntervalSyntax.KEY_HASH, l));
                rightKeys.add(rex.makeCall(IntervalSyntax.KEY_HASH, r));
                continue;
            }
            leftKeys.add(rex.makeCall(IntervalSyntax.KEY_DAYS, l));
            leftKeys.add(rex.makeCall(IntervalSyntax.KEY_MICROS, l));
            rightKeys.add(rex.makeCall(IntervalSyntax.KEY_DAYS, r));
            rightKeys.add(rex.makeCall(IntervalSyntax.KEY_MICROS, r));
        }
        int added = leftKeys.size();
        RelNode left = withColumns(b, join.getLeft(), leftKeys);
        RelNode right = withColumns(b, join.getRight(), rightKeys);
        RexNode condition = join.getCondition().accept(new RexShuttle() {
            @Override
            public RexNode visitInputRef(RexInputRef ref) {
                int i = ref.getIndex();
                return i < leftWidth ? ref : rex.makeInputRef(ref.getType(), i + added);
            }

            @Override
            public RexNode visitCall(RexCall call) {
                int k = equalities.indexOf(call);
                if (k < 0) {
                    return super.visitCall(call);
                }
                boolean equals = call.getKind() == SqlKind.EQUALS;
                SqlOperator op = equals ? SqlStdOperatorTable.EQUALS : SqlStdOperatorTable.IS_NOT_DISTINCT_FROM;
                boolean hashed = !IntervalGroups.isInterval(call.getOperands().get(0).getType());
                List<RexNode> both = new ArrayList<>();
                int first = firstKey.get(k);
                for (int part = 0; part < (hashed ? 1 : 2); part++) {
                    RexNode lk = leftKeys.get(first + part);
                    RexNode rk = rightKeys.get(first + part);
                    both.add(rex.makeCall(op, rex.makeInputRef(lk.getType(), leftWidth + first + part),
                            rex.makeInputRef(rk.getType(), leftWidth + added + rightWidth + first + part)));
                }
                if (hashed) {
                    // the values compared too: NOT (a <> b), NOT (a IS DISTINCT FROM b)
                    List<RexNode> operands = new ArrayList<>();
                    for (RexNode o : call.getOperands()) {
                        operands.add(o.accept(this));
                    }
                    both.add(rex.makeCall(SqlStdOperatorTable.NOT, rex.makeCall(equals
                            ? SqlStdOperatorTable.NOT_EQUALS : SqlStdOperatorTable.IS_DISTINCT_FROM, operands)));
                }
                return rex.makeCall(SqlStdOperatorTable.AND, both);
            }
        });
        Join rewritten = join.copy(join.getTraitSet(), condition, left, right, join.getJoinType(),
                join.isSemiJoinDone());
        // back to the join's own columns
        b.push(rewritten);
        List<RexNode> out = new ArrayList<>();
        for (int i = 0; i < leftWidth; i++) {
            out.add(b.field(i));
        }
        if (join.getJoinType().projectsRight()) {
            for (int i = 0; i < rightWidth; i++) {
                out.add(b.field(leftWidth + added + i));
            }
        }
        b.project(out, join.getRowType().getFieldNames(), true);
        return b.build();
    }

    /** {@code input} with {@code columns} after its own. */
    private static RelNode withColumns(RelBuilder b, RelNode input, List<RexNode> columns) {
        b.push(input);
        List<RexNode> fields = new ArrayList<>(b.fields());
        fields.addAll(columns);
        b.project(fields);
        return b.build();
    }

    private static boolean isIntervalEquality(RexCall call) {
        return (call.getKind() == SqlKind.EQUALS || call.getKind() == SqlKind.IS_NOT_DISTINCT_FROM)
                && call.getOperands().size() == 2 && IntervalGroups.groupsByKey(call.getOperands().get(0).getType())
                && IntervalGroups.groupsByKey(call.getOperands().get(1).getType());
    }

    /** Which operand reads only the left input and which only the right ({left, right}), or null. */
    private static int[] sidesOf(RexCall eq, int leftWidth) {
        ImmutableBitSet a = RelOptUtil.InputFinder.bits(eq.getOperands().get(0));
        ImmutableBitSet c = RelOptUtil.InputFinder.bits(eq.getOperands().get(1));
        boolean aLeft = !a.isEmpty() && a.nextSetBit(leftWidth) < 0;
        boolean aRight = !a.isEmpty() && a.nth(0) >= leftWidth;
        boolean cLeft = !c.isEmpty() && c.nextSetBit(leftWidth) < 0;
        boolean cRight = !c.isEmpty() && c.nth(0) >= leftWidth;
        if (aLeft && cRight) {
            return new int[] {0, 1};
        }
        return aRight && cLeft ? new int[] {1, 0} : null;
    }
}

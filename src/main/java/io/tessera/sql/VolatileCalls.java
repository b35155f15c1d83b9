package io.tessera.sql;

import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexVisitorImpl;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.util.ImmutableBitSet;
import org.apache.calcite.util.Util;

import java.util.BitSet;
import java.util.List;

/**
 * Calls that give a new value each time they are evaluated: random(), gen_random_uuid(), uuid(), uuidv7(),
 * nextval, currval and setval (their operators are not deterministic). A column a projection computes with one holds
 * one value per row however often it is read, so the expression must not be put in place of the column's reads
 * (Calcite's merges of projections and moves of filters do so): each read would compute a value of its own.
 * CheckedCasts' stand-ins for CAST and TRY_CAST and GroupsFrames' offset mark say they are not deterministic only to
 * keep constant folding away; they give the same value each time and do not count here.
 */
public final class VolatileCalls {

    private VolatileCalls() {
    }

    /** Whether {@code e} computes a call that gives a new value each time. */
    public static boolean in(RexNode e) {
        try {
            e.accept(new RexVisitorImpl<Void>(true) {
                @Override
                public Void visitCall(RexCall call) {
                    if (isVolatile(call.getOperator())) {
                        throw Util.FoundOne.NULL;
                    }
                    return super.visitCall(call);
                }
            });
            return false;
        } catch (Util.FoundOne found) {
            return true;
        }
    }

    /** Whether a call of {@code op} gives a new value each time it is evaluated. */
    public static boolean isVolatile(SqlOperator op) {
        return !op.isDeterministic() && op != CheckedCasts.CHECKED_CAST && op != CheckedCasts.TRY_CAST
                && op != GroupsFrames.OFFSET;
    }

    /** Whether one of {@code exprs} computes such a call. */
    public static boolean in(List<? extends RexNode> exprs) {
        for (RexNode e : exprs) {
            if (in(e)) {
                return true;
            }
        }
        return false;
    }

    /** The columns of {@code project} computed by such a call. */
    public static ImmutableBitSet columns(Project project) {
        ImmutableBitSet.Builder out = ImmutableBitSet.builder();
        List<RexNode> exprs = project.getProjects();
        for (int i = 0; i < exprs.size(); i++) {
            if (in(exprs.get(i))) {
                out.set(i);
            }
        }
        return out.build();
    }

    /**
     * Whether {@code exprs}, written over {@code below}'s columns, may be rewritten over {@code below}'s input with
     * each column replaced by its expression: each column computed by such a call is read at most once, and as a whole
     * expression of {@code exprs} (read inside another expression, it could be read again where that one is
     * expanded).
     */
    public static boolean mergeable(List<? extends RexNode> exprs, Project below) {
        ImmutableBitSet volatileColumns = columns(below);
        if (volatileColumns.isEmpty()) {
            return true;
        }
        BitSet seen = new BitSet();
        for (RexNode e : exprs) {
            if (e instanceof RexInputRef ref) {
                if (volatileColumns.get(ref.getIndex()) && seen.get(ref.getIndex())) {
                    return false;
                }
                seen.set(ref.getIndex());
            } else if (RelOptUtil.InputFinder.bits(e).intersects(volatileColumns)) {
                return false;
            }
        }
        return true;
    }

    /**
     * How many such calls {@code rel}'s expressions hold, its subqueries' included, a node reached twice (a shared
     * input) counted twice: the calls the plan computes, which planning must not multiply ({@link #checkNotRepeated}).
     */
    public static int count(RelNode rel) {
        return PlanCalls.count(rel, VolatileCalls::isVolatile);
    }

    /**
     * Refuses {@code rel}, planned from a plan with {@code before} such calls, where it holds more: a copy of rows
     * computed by one (Calcite's decorrelator reads a correlated subquery's outer rows twice) would draw values of its
     * own, and the rows read together would not agree.
     */
    public static void checkNotRepeated(RelNode rel, int before) {
        if (before > 0 && count(rel) > before) {
            throw new SqlError("unsupported: a query that reads rows computed by random(), nextval or another call "
                    + "giving a new value each time twice (a correlated subquery over them): store the rows in a table "
                    + "first (CREATE TEMP TABLE ... AS SELECT ...)");
        }
    }

    /** Whether {@code condition}, written over {@code below}'s columns, reads a column computed by such a call. */
    public static boolean readBy(RexNode condition, Project below) {
        return RelOptUtil.InputFinder.bits(condition).intersects(columns(below));
    }
}

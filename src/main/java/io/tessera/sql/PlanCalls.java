package io.tessera.sql;

import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelVisitor;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexOver;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.rex.RexSubQuery;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.util.Util;

import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * The calls of a plan: every call in the expressions of every node, those inside other calls, in the plans of
 * subqueries (an IN, EXISTS or scalar subquery not yet made a join) and in the right side of a correlation
 * included. One walk for the questions planning and the executor ask of a plan's functions: how many calls give a new
 * value each time ({@link VolatileCalls#count}), whether a plan reads the clock (a kept plan's), whether it calls a
 * sequence function. A node reached twice (an input two nodes share) is walked twice, so its calls count twice.
 */
public final class PlanCalls {

    private PlanCalls() {
    }

    /** Visits every node of {@code rel} and its subqueries ({@code nodes}) and every call they hold ({@code calls}). */
    public static void visit(RelNode rel, Consumer<RelNode> nodes, Consumer<RexCall> calls) {
        RexShuttle shuttle = new RexShuttle() {
            @Override
            public RexNode visitCall(RexCall call) {
                calls.accept(call);
                return super.visitCall(call);
            }

            @Override
            public RexNode visitOver(RexOver over) {
                calls.accept(over); // a window's function, beside its arguments, partition and order keys
                return super.visitOver(over);
            }

            @Override
            public RexNode visitSubQuery(RexSubQuery subQuery) {
                visit(subQuery.rel, nodes, calls);
                return super.visitSubQuery(subQuery); // the operands compared with its rows (x IN (...))
            }
        };
        new RelVisitor() {
            @Override
            public void visit(RelNode node, int ordinal, RelNode parent) {
                nodes.accept(node);
                node.accept(shuttle);
                super.visit(node, ordinal, parent);
            }
        }.go(rel);
    }

    /** How many calls of {@code rel} have an operator {@code matching}. */
    public static int count(RelNode rel, Predicate<SqlOperator> matching) {
        int[] calls = {0};
        visit(rel, node -> { }, call -> {
            if (matching.test(call.getOperator())) {
                calls[0]++;
            }
        });
        return calls[0];
    }

    /** Whether {@code rel} holds a call of an operator {@code matching} (the walk ends at the first). */
    public static boolean any(RelNode rel, Predicate<SqlOperator> matching) {
        try {
            visit(rel, node -> { }, call -> {
                if (matching.test(call.getOperator())) {
                    throw Util.FoundOne.NULL;
                }
            });
            return false;
        } catch (Util.FoundOne found) {
            return true;
        }
    }
}

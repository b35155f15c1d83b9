package io.tessera.sql;

import org.apache.calcite.rel.RelHomogeneousShuttle;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.logical.LogicalProject;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLambda;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexOver;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.rex.RexVisitorImpl;

import java.util.ArrayList;
import java.util.List;

/**
 * A window function a lambda captures ({@code list_transform(l, x -> x + row_number() OVER ())}, {@link LambdaCaptures})
 * computed in a projection of its own below the lambda's: Calcite's rule that makes windows of a projection splits
 * its expressions into levels and would take the lambda apart from the call it belongs to. The projection below keeps
 * every input column and adds each window function once; the one above reads them as columns.
 */
final class LambdaWindows {

    private LambdaWindows() {
    }

    static RelNode split(RelNode rel) {
        return rel.accept(new RelHomogeneousShuttle() {
            @Override
            public RelNode visit(RelNode other) {
                RelNode r = super.visit(other);
                return r instanceof LogicalProject p && p.containsOver() && holdsLambda(p) ? split(p) : r;
            }
        });
    }

    private static LogicalProject split(LogicalProject p) {
        RelNode input = p.getInput();
        RexBuilder rex = p.getCluster().getRexBuilder();
        List<RexNode> below = new ArrayList<>();
        for (int i = 0; i < input.getRowType().getFieldCount(); i++) {
            below.add(rex.makeInputRef(input, i));
        }
        RexShuttle hoist = new RexShuttle() {
            @Override
            public RexNode visitOver(RexOver over) {
                int at = below.indexOf(over);
                if (at < 0) {
                    at = below.size();
                    below.add(over);
                }
                return new RexInputRef(at, over.getType());
            }
        };
        List<RexNode> above = new ArrayList<>();
        for (RexNode e : p.getProjects()) {
            above.add(e.accept(hoist));
        }
        LogicalProject lower = LogicalProject.create(input, List.of(), below, (List<String>) null, p.getVariablesSet());
        return LogicalProject.create(lower, p.getHints(), above, p.getRowType().getFieldNames(), p.getVariablesSet());
    }

    private static boolean holdsLambda(LogicalProject p) {
        boolean[] found = {false};
        RexVisitorImpl<Void> finder = new RexVisitorImpl<>(true) {
            @Override
            public Void visitLambda(RexLambda lambda) {
                found[0] = true;
                return null;
            }
        };
        p.getProjects().forEach(e -> e.accept(finder));
        return found[0];
    }
}

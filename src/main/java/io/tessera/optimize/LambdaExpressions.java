package io.tessera.optimize;

import org.apache.calcite.rex.RexLambda;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexVisitorImpl;

/**
 * Whether an expression holds a lambda (DuckDB's {@code list_transform(l, x -> x + 1)}): Calcite's expression
 * reduction loses its place in such an expression (its locator keeps no entry for a lambda's body), so the reduce
 * rules leave a projection or filter that holds one as it is.
 */
final class LambdaExpressions {

    private LambdaExpressions() {
    }

    static boolean in(Iterable<? extends RexNode> expressions) {
        for (RexNode e : expressions) {
            if (in(e)) {
                return true;
            }
        }
        return false;
    }

    static boolean in(RexNode e) {
        boolean[] found = {false};
        e.accept(new RexVisitorImpl<Void>(true) {
            @Override
            public Void visitLambda(RexLambda lambda) {
                found[0] = true;
                return null;
            }
        });
        return found[0];
    }
}

package io.tessera.backend.lower;

import io.tessera.plan.Expr;
import io.tessera.plan.Op;
import io.tessera.storage.DataType;

import java.util.ArrayList;
import java.util.List;

/**
 * GREATEST and LEAST ({@link Op#GREATEST}, {@link Op#LEAST}) as a CASE of comparisons, for a generator that has no
 * code of its own for them: CASE WHEN a1 IS NOT NULL AND (a2 IS NULL OR a1 >= a2) AND ... THEN a1 ... ELSE an END,
 * which reads an argument more than once (the JVM's generator evaluates each once instead).
 */
public final class Extremes {
    private Extremes() {
    }

    /** The CASE a GREATEST or LEAST call of arguments of its own type equals. */
    public static Expr.Call asCase(Expr.Call c) {
        Op beats = c.op() == Op.GREATEST ? Op.GE : Op.LE;
        List<Expr> args = c.args();
        List<Expr> branches = new ArrayList<>();
        for (int i = 0; i < args.size() - 1; i++) {
            Expr a = args.get(i);
            Expr when = new Expr.Call(Op.IS_NOT_NULL, List.of(a), DataType.BOOLEAN, false);
            for (int j = 0; j < args.size(); j++) {
                if (j == i) {
                    continue;
                }
                Expr b = args.get(j);
                Expr wins = new Expr.Call(beats, List.of(a, b), DataType.BOOLEAN, a.nullable() || b.nullable());
                if (b.nullable()) {
                    wins = new Expr.Call(Op.OR, List.of(new Expr.Call(Op.IS_NULL, List.of(b), DataType.BOOLEAN, false),
                            wins), DataType.BOOLEAN, a.nullable());
                }
                when = new Expr.Call(Op.AND, List.of(when, wins), DataType.BOOLEAN, when.nullable() || wins.nullable());
            }
            branches.add(when);
            branches.add(a);
        }
        branches.add(args.get(args.size() - 1));
        return new Expr.Call(Op.CASE, branches, c.type(), c.nullable());
    }
}

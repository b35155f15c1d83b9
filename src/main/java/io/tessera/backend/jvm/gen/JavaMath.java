package io.tessera.backend.jvm.gen;

import io.tessera.backend.ValueKind;
import io.tessera.backend.lower.Rounding;
import io.tessera.plan.Expr;
import io.tessera.storage.TypeKind;

/**
 * The numeric functions as Java: ROUND, FLOOR, CEIL, TRUNC (exact numbers through {@link Rounding}), SIGN, SQRT,
 * LN, EXP and POWER. ROUND's digits and the powers of ten they decide are constants bound at run time, never source text.
 */
final class JavaMath {

    private static final String RUNTIME = ExprGen.RUNTIME;

    private final ExprGen.Scope scope;
    private final ExprGen gen;

    JavaMath(ExprGen.Scope scope, ExprGen gen) {
        this.scope = scope;
        this.gen = gen;
    }

    JExpr call(Expr.Call c) {
        Expr a = c.args().get(0);
        JExpr x = gen.gen(a);
        boolean isDouble = a.type().kind() == TypeKind.DOUBLE;
        return switch (c.op()) {
            case ROUND, ROUND_EVEN, FLOOR, CEIL, TRUNC -> rounding(c, x);
            case SIGN -> JExpr.of(isDouble ? RUNTIME + "sign(" + x.v() + ")" : "Long.signum(" + ExprGen.asLong(x) + ")",
                    x.n(), ValueKind.INT);
            case SQRT -> JExpr.of(RUNTIME + "sqrt(" + ExprGen.toDouble(x, a.type()) + ")", x.n(), ValueKind.DOUBLE);
            // a NULL's placeholder (0) must not reach LN, which fails on it
            case LN -> JExpr.of(ExprGen.guard(x.n(), RUNTIME + "ln(" + ExprGen.toDouble(x, a.type()) + ")", ValueKind.DOUBLE),
                    x.n(), ValueKind.DOUBLE);
            case EXP -> JExpr.of("Math.exp(" + ExprGen.toDouble(x, a.type()) + ")", x.n(), ValueKind.DOUBLE);
            case POWER -> {
                Expr b = c.args().get(1);
                JExpr y = gen.gen(b);
                yield JExpr.of("Math.pow(" + ExprGen.toDouble(x, a.type()) + ", " + ExprGen.toDouble(y, b.type()) + ")",
                        ExprGen.or(x.n(), y.n()), ValueKind.DOUBLE);
            }
            default -> throw new IllegalStateException("not a numeric function: " + c.op());
        };
    }

    private JExpr rounding(Expr.Call c, JExpr x) {
        Rounding r = ExprGen.lowered(() -> Rounding.of(c));
        if (!r.exact()) {
            String v = switch (c.op()) {
                case FLOOR -> "Math.floor(" + x.v() + ")";
                case CEIL -> "Math.ceil(" + x.v() + ")";
                case TRUNC -> RUNTIME + "trunc(" + x.v() + ", " + scope.constant(ValueKind.INT, (long) r.digits()) + ")";
                case ROUND_EVEN -> RUNTIME + "roundEven(" + x.v() + ", " + scope.constant(ValueKind.INT, (long) r.digits())
                        + ")";
                default -> r.digits() == 0 ? RUNTIME + "round(" + x.v() + ")"
                        : RUNTIME + "round(" + x.v() + ", " + scope.constant(ValueKind.INT, (long) r.digits()) + ")";
            };
            return JExpr.of(v, x.n(), ValueKind.DOUBLE);
        }
        if (r.drop() == 0 && r.multiply() == 0) {
            return x; // already at the result's scale: nothing is rounded
        }
        int mode = switch (c.op()) {
            case FLOOR -> -1;
            case CEIL -> 1;
            case TRUNC -> 2;
            case ROUND_EVEN -> 3;
            default -> 0;
        };
        String v = RUNTIME + "round(" + ExprGen.asLong(x) + ", " + scope.constant(ValueKind.INT, (long) r.drop()) + ", "
                + scope.constant(ValueKind.INT, (long) r.multiply()) + ", " + mode + ", "
                + scope.constant(ValueKind.LONG, r.limit()) + ")";
        return JExpr.of(v, x.n(), ValueKind.LONG);
    }
}

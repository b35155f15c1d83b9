package io.tessera.backend.jvm.gen;

import io.tessera.backend.ValueKind;
import io.tessera.plan.Expr;
import io.tessera.plan.NumericFunction;
import io.tessera.storage.DataType;
import io.tessera.storage.TypeKind;

import java.util.ArrayList;
import java.util.List;

/**
 * The numeric functions of {@link io.tessera.plan.Op#NUMERIC} as Java: calls of {@code Math} or of
 * {@link io.tessera.backend.jvm.lib.NumericRuntime}, made only on non-NULL arguments (a NULL's placeholder must not
 * fail). A bit mask a type's width decides is a constant bound at run time.
 */
final class NumericFunctions {

    private static final String NUMERIC = "io.tessera.backend.jvm.lib.NumericRuntime.";
    private static final String SEQUENCES = "io.tessera.backend.jvm.lib.SequenceRuntime.";

    private final ExprGen.Scope scope;
    private final ExprGen gen;

    NumericFunctions(ExprGen.Scope scope, ExprGen gen) {
        this.scope = scope;
        this.gen = gen;
    }

    JExpr call(Expr.Call c) {
        NumericFunction f = (NumericFunction) c.detail();
        if (f == NumericFunction.RANDOM) {
            return JExpr.of(NUMERIC + "random()", "false", ValueKind.DOUBLE);
        }
        if (f == NumericFunction.HASH) {
            return hash(c);
        }
        if (f == NumericFunction.NEXTVAL || f == NumericFunction.CURRVAL || f == NumericFunction.SETVAL) {
            return sequence(c, f);
        }
        List<JExpr> x = new ArrayList<>();
        String n = "false";
        for (Expr a : c.args()) {
            JExpr v = gen.gen(a);
            n = ExprGen.or(n, v.n());
            x.add(v);
        }
        DataType t = c.args().get(0).type();
        String a = x.get(0).v();
        boolean exact = t.kind() != TypeKind.DOUBLE;
        String v = switch (f) {
            case LOG10 -> "Math.log10(" + ExprGen.toDouble(x.get(0), t) + ")";
            case LOG2 -> NUMERIC + "log2(" + ExprGen.toDouble(x.get(0), t) + ")";
            case LOG -> NUMERIC + "log(" + ExprGen.toDouble(x.get(0), t) + ", "
                    + ExprGen.toDouble(x.get(1), c.args().get(1).type()) + ")";
            case BIT_COUNT -> "Long.bitCount(" + ExprGen.asLong(x.get(0)) + " & "
                    + scope.constant(ValueKind.LONG, mask(t)) + ")";
            case GCD, LCM -> NUMERIC + (f == NumericFunction.GCD ? "gcd(" : "lcm(") + ExprGen.asLong(x.get(0)) + ", "
                    + ExprGen.asLong(x.get(1)) + ")";
            case FACTORIAL -> NUMERIC + "factorial(" + ExprGen.asLong(x.get(0)) + ")";
            case EVEN -> NUMERIC + "even(" + ExprGen.toDouble(x.get(0), t) + ")";
            case ISNAN -> exact ? "false" : "Double.isNaN(" + a + ")";
            case ISINF -> exact ? "false" : "Double.isInfinite(" + a + ")";
            case ISFINITE -> exact ? "true" : "Double.isFinite(" + a + ")";
            case SIGNBIT -> exact ? "(" + a + " < 0)" : "(Double.doubleToRawLongBits(" + a + ") < 0L)";
            case CBRT -> "Math.cbrt(" + ExprGen.toDouble(x.get(0), t) + ")";
            case DEGREES -> "Math.toDegrees(" + ExprGen.toDouble(x.get(0), t) + ")";
            case RADIANS -> "Math.toRadians(" + ExprGen.toDouble(x.get(0), t) + ")";
            case SIN -> "Math.sin(" + ExprGen.toDouble(x.get(0), t) + ")";
            case COS -> "Math.cos(" + ExprGen.toDouble(x.get(0), t) + ")";
            case TAN -> "Math.tan(" + ExprGen.toDouble(x.get(0), t) + ")";
            case COT -> "(1.0 / Math.tan(" + ExprGen.toDouble(x.get(0), t) + "))";
            case ASIN -> "Math.asin(" + ExprGen.toDouble(x.get(0), t) + ")";
            case ACOS -> "Math.acos(" + ExprGen.toDouble(x.get(0), t) + ")";
            case ATAN -> "Math.atan(" + ExprGen.toDouble(x.get(0), t) + ")";
            case ATAN2 -> "Math.atan2(" + ExprGen.toDouble(x.get(0), t) + ", "
                    + ExprGen.toDouble(x.get(1), c.args().get(1).type()) + ")";
            case XOR -> "(" + a + " ^ " + x.get(1).v() + ")"; // both of the call's type (plan.NumericCalls)
            case BITWISE_AND -> "(" + a + " & " + x.get(1).v() + ")";
            case BITWISE_OR -> "(" + a + " | " + x.get(1).v() + ")";
            case BITWISE_NOT -> "(~" + a + ")";
            case SHIFT_LEFT, SHIFT_RIGHT -> {
                // at the call's width, the result back in its kind (an int's fits: the shift left checked it)
                String shift = NUMERIC + (f == NumericFunction.SHIFT_LEFT ? "shiftLeft(" : "shiftRight(")
                        + ExprGen.asLong(x.get(0)) + ", " + ExprGen.asLong(x.get(1)) + ", "
                        + scope.constant(ValueKind.INT, (long) width(c.type())) + ")";
                yield x.get(0).kind() == ValueKind.LONG ? shift : "((int) " + shift + ")";
            }
            case SINH -> "Math.sinh(" + ExprGen.toDouble(x.get(0), t) + ")";
            case COSH -> "Math.cosh(" + ExprGen.toDouble(x.get(0), t) + ")";
            case TANH -> "Math.tanh(" + ExprGen.toDouble(x.get(0), t) + ")";
            case ASINH -> NUMERIC + "asinh(" + ExprGen.toDouble(x.get(0), t) + ")";
            case ACOSH -> NUMERIC + "acosh(" + ExprGen.toDouble(x.get(0), t) + ")";
            case ATANH -> NUMERIC + "atanh(" + ExprGen.toDouble(x.get(0), t) + ")";
            case GAMMA -> NUMERIC + "gamma(" + ExprGen.toDouble(x.get(0), t) + ")";
            case LGAMMA -> NUMERIC + "lgamma(" + ExprGen.toDouble(x.get(0), t) + ")";
            case NEXTAFTER -> "Math.nextAfter(" + ExprGen.toDouble(x.get(0), t) + ", "
                    + ExprGen.toDouble(x.get(1), c.args().get(1).type()) + ")";
            case RANDOM, HASH, NEXTVAL, CURRVAL, SETVAL -> throw new IllegalStateException();
        };
        ValueKind k = switch (f) {
            case BIT_COUNT -> ValueKind.INT;
            case GCD, LCM, FACTORIAL -> ValueKind.LONG;
            case XOR, BITWISE_AND, BITWISE_OR, BITWISE_NOT, SHIFT_LEFT, SHIFT_RIGHT -> x.get(0).kind();
            case ISNAN, ISINF, ISFINITE, SIGNBIT -> ValueKind.BOOL;
            default -> ValueKind.DOUBLE;
        };
        return JExpr.of("/* " + f.name().toLowerCase(java.util.Locale.ROOT) + " */ " + ExprGen.guard(n, v, k), n, k);
    }

    /**
     * NEXTVAL, CURRVAL and SETVAL: a call of {@link io.tessera.backend.jvm.lib.SequenceRuntime}, which finds the
     * sequence by name (a value, never source text) among the run's counters; only where no argument is NULL.
     */
    private JExpr sequence(Expr.Call c, NumericFunction f) {
        JExpr name = gen.gen(c.args().get(0));
        if (name.n().equals("true")) { // nextval(NULL): NULL, of no sequence
            return JExpr.of("0L", "true", ValueKind.LONG);
        }
        String n = name.n();
        String call = SEQUENCES + f.name().toLowerCase(java.util.Locale.ROOT) + "(" + gen.asString(name);
        if (f == NumericFunction.SETVAL) {
            JExpr value = gen.gen(c.args().get(1));
            n = ExprGen.or(n, value.n());
            call += ", " + ExprGen.asLong(value);
        }
        return JExpr.of(ExprGen.guard(n, call + ")", ValueKind.LONG), n, ValueKind.LONG);
    }

    /**
     * HASH: each argument's hash (a NULL's a constant of its own) mixed into the previous ones; never NULL. Values
     * are hashed as they are held: a string as its text, a number as its long or double bits, a boolean as 0 or 1.
     */
    private JExpr hash(Expr.Call c) {
        String h = null;
        for (Expr a : c.args()) {
            String one;
            if (a instanceof Expr.Literal l && l.value() == null) {
                one = NUMERIC + "NULL_HASH";
            } else {
                JExpr x = gen.gen(a);
                String v = switch (x.kind()) {
                    case STRING, CODE -> NUMERIC + "hash(" + gen.asString(x) + ")";
                    case DOUBLE -> NUMERIC + "hash(" + x.v() + ")";
                    case BOOL -> NUMERIC + "hash(" + x.v() + " ? 1L : 0L)";
                    case INT, LONG -> NUMERIC + "hash(" + ExprGen.asLong(x) + ")";
                };
                one = x.n().equals("false") ? v : "(" + x.n() + " ? " + NUMERIC + "NULL_HASH : " + v + ")";
            }
            h = h == null ? one : NUMERIC + "combineHashes(" + h + ", " + one + ")";
        }
        return JExpr.of("/* hash */ " + h, "false", ValueKind.LONG);
    }

    /** The bits of an integer type: 8 for a TINYINT, 64 for a BIGINT. */
    private static int width(DataType t) {
        return 65 - Long.numberOfLeadingZeros(t.maxValue());
    }

    /** The bits of an integer type's two's complement: 8 for a TINYINT, 64 for a BIGINT. */
    private static long mask(DataType t) {
        int bits = width(t);
        return bits >= 64 ? -1L : (1L << bits) - 1;
    }
}

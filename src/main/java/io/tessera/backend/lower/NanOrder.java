package io.tessera.backend.lower;

import io.tessera.plan.Expr;
import io.tessera.plan.Op;
import io.tessera.storage.TypeKind;

import java.util.regex.Pattern;

/**
 * DuckDB's total order of DOUBLE and REAL values, which PostgreSQL shares: every NaN is one value, equal to itself and
 * greater than every other number (+Infinity included), and -0.0 equals 0.0. The C-like operators order NaN with
 * nothing, so a comparison where a side may be NaN gets a test of that side ({@code x != x} is true only for NaN):
 * {@code x > 5} is {@code (x > 5 || x != x)}, while {@code x < 5} stays as it is, since a NaN x is not less than 5.
 * Both expression generators print these forms; a side that is not a plain name or constant is tested through
 * {@code function} instead of being written twice.
 */
public final class NanOrder {

    private static final Pattern PLAIN = Pattern.compile("[A-Za-z_][A-Za-z0-9_.]*(\\[[A-Za-z0-9_]+\\])?|[0-9.]+[dDfF]?");

    private NanOrder() {
    }

    /**
     * Whether a DOUBLE-domain operand may hold NaN: any value of type DOUBLE or REAL except a constant that is not
     * NaN and a conversion from an exact type (an integer or DECIMAL converted to a double never is NaN).
     */
    public static boolean mayBeNaN(Expr e) {
        if (e.type().kind() != TypeKind.DOUBLE) {
            return false;
        }
        if (e instanceof Expr.Literal lit) {
            return lit.value() instanceof Number n && Double.isNaN(n.doubleValue());
        }
        if (e instanceof Expr.Call c && c.op() == Op.CAST && c.args().size() == 1) {
            TypeKind from = c.args().get(0).type().kind();
            return from == TypeKind.DOUBLE || from == TypeKind.VARCHAR;
        }
        return true;
    }

    /**
     * The comparison {@code x op y} of two doubles in the total order, as C-like text. {@code xNaN} and {@code yNaN}
     * say whether each side may be NaN; {@code function} names the run-time function of two doubles that answers the
     * operator ("Less", "LessOrEqual", "Equal", "NotEqual": the caller adds its own prefix), used where a side that
     * may be NaN is not plain text that can be written twice.
     */
    public static String compare(Op op, String x, String y, boolean xNaN, boolean yNaN, java.util.function.Function<String, String> function) {
        String sym = Comparison.symbol(op);
        String plain = "(" + x + " " + sym + " " + y + ")";
        boolean needed = switch (op) {
            case EQ, NE -> xNaN && yNaN;
            case LT, LE -> yNaN;
            default -> xNaN; // GT, GE: the left side is the greater one
        };
        if (!needed) {
            return plain;
        }
        // the sides the inline form writes twice: both for = and <>, the one that may be NaN for the others
        boolean xTwice = op == Op.EQ || op == Op.NE || xNaN && op != Op.LE;
        boolean yTwice = op == Op.EQ || op == Op.NE || yNaN && op != Op.GE;
        if (xTwice && !PLAIN.matcher(x).matches() || yTwice && !PLAIN.matcher(y).matches()) {
            return switch (op) {
                case EQ -> function.apply("Equal") + "(" + x + ", " + y + ")";
                case NE -> function.apply("NotEqual") + "(" + x + ", " + y + ")";
                case LT -> function.apply("Less") + "(" + x + ", " + y + ")";
                case LE -> function.apply("LessOrEqual") + "(" + x + ", " + y + ")";
                case GT -> function.apply("Less") + "(" + y + ", " + x + ")";
                default -> function.apply("LessOrEqual") + "(" + y + ", " + x + ")";
            };
        }
        return switch (op) {
            case EQ -> "(" + x + " == " + y + " || " + x + " != " + x + " && " + y + " != " + y + ")";
            case NE -> "(" + x + " != " + y + " && (" + x + " == " + x + " || " + y + " == " + y + "))";
            case LT -> "(" + x + " < " + y + " || " + y + " != " + y + (xNaN ? " && " + x + " == " + x : "") + ")";
            case LE -> "(" + x + " <= " + y + " || " + y + " != " + y + ")";
            case GT -> "(" + x + " > " + y + " || " + x + " != " + x + (yNaN ? " && " + y + " == " + y : "") + ")";
            default -> "(" + x + " >= " + y + " || " + x + " != " + x + ")";
        };
    }

    /**
     * Whether {@code value} should replace {@code current} as a MIN ({@code min}) or MAX in the total order, as
     * C-like text over two plain names: a NaN current minimum gives way to any value, a NaN value is the maximum.
     */
    public static String beats(boolean min, String value, String current) {
        return min ? "(" + value + " < " + current + " || " + current + " != " + current + ")"
                : "(" + value + " > " + current + " || " + value + " != " + value + ")";
    }
}

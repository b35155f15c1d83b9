package io.tessera.backend.lower;

import io.tessera.plan.Expr;
import io.tessera.plan.Op;
import io.tessera.storage.DataType;

/**
 * The lowering of binary arithmetic ({@code + - * / %}): in which domain it is computed and how each operand gets
 * there. Exact arithmetic is always checked: an overflow raises an error rather than wrapping.
 *
 * <ul>
 * <li>{@link Domain#DOUBLE}: both operands as doubles (a DECIMAL divided by 10^scale), IEEE arithmetic.</li>
 * <li>{@link Domain#DECIMAL_ADD}: both operands rescaled to the result's scale ({@link #leftShift},
 * {@link #rightShift}), then a checked add or subtract of the unscaled longs.</li>
 * <li>{@link Domain#DECIMAL_MOD}: both operands rescaled to the result's scale as for DECIMAL_ADD, then the
 * remainder of the unscaled longs (its sign the dividend's); a zero divisor fails.</li>
 * <li>{@link Domain#DECIMAL_MUL}: a checked multiply of the unscaled longs (the product's scale is the sum of the
 * operands'), then rescaled by {@link #productShift} to the result's scale.</li>
 * <li>{@link Domain#INT} and {@link Domain#LONG}: checked 32- or 64-bit arithmetic; division and modulo fail on a
 * zero divisor.</li>
 * </ul>
 *
 * @param domain       how the operation is computed
 * @param leftShift    DECIMAL_ADD: the power of ten the left operand is rescaled by (0: as it is)
 * @param rightShift   DECIMAL_ADD: the same for the right operand
 * @param productShift DECIMAL_MUL: the power of ten the product is rescaled by
 */
public record Arithmetic(Op op, Domain domain, int leftShift, int rightShift, int productShift) {

    /** How an arithmetic operation is computed. */
    public enum Domain {
        DOUBLE, DECIMAL_ADD, DECIMAL_MOD, DECIMAL_MUL, INT, LONG
    }

    /**
     * The lowering of an ADD, SUB, MUL, DIV or MOD call. Fails with {@link Unsupported} where SQL has no exact
     * lowering here (DECIMAL division, a result of another type).
     */
    public static Arithmetic of(Expr.Call c) {
        DataType t = c.type();
        DataType a = c.args().get(0).type();
        DataType b = c.args().get(1).type();
        Op op = c.op();
        switch (t.kind()) {
            case DOUBLE -> {
                return new Arithmetic(op, Domain.DOUBLE, 0, 0, 0);
            }
            case DECIMAL -> {
                int s = t.scale();
                if (op == Op.ADD || op == Op.SUB) {
                    return new Arithmetic(op, Domain.DECIMAL_ADD, Scale.shift(a, s), Scale.shift(b, s), 0);
                }
                if (op == Op.MOD) {
                    return new Arithmetic(op, Domain.DECIMAL_MOD, Scale.shift(a, s), Scale.shift(b, s), 0);
                }
                if (op == Op.MUL) {
                    return new Arithmetic(op, Domain.DECIMAL_MUL, 0, 0, s - (Scale.of(a) + Scale.of(b)));
                }
                throw new Unsupported(op + " on DECIMAL values");
            }
            case INTEGER -> {
                return new Arithmetic(op, Domain.INT, 0, 0, 0);
            }
            case BIGINT -> {
                return new Arithmetic(op, Domain.LONG, 0, 0, 0);
            }
            default -> throw new Unsupported("arithmetic giving " + t);
        }
    }

    /** Whether the computation is exact and so checked for overflow (every domain but DOUBLE). */
    public boolean checked() {
        return domain != Domain.DOUBLE;
    }

    /** Whether a zero divisor is an error (integer division, exact modulo): a NULL's placeholder must not reach it. */
    public boolean dividesExactly() {
        return (domain == Domain.INT || domain == Domain.LONG) && (op == Op.DIV || op == Op.MOD)
                || domain == Domain.DECIMAL_MOD;
    }

    /** The infix symbol of the operation in C-like languages. */
    public String symbol() {
        return switch (op) {
            case ADD -> "+";
            case SUB -> "-";
            case MUL -> "*";
            case DIV -> "/";
            default -> "%";
        };
    }
}

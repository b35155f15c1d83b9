package io.tessera.backend.lower;

import io.tessera.plan.Expr;
import io.tessera.plan.Op;
import io.tessera.storage.DataType;
import io.tessera.storage.TypeKind;
import io.tessera.storage.Values;

/**
 * The lowering of ROUND, FLOOR and CEIL on an exact number (an unscaled long at its type's scale): the value is
 * divided by 10^{@link #drop} (rounding half away from zero, down or up), then multiplied by 10^{@link #multiply}
 * to the result's scale, checked for overflow and against the result's precision ({@link #limit}). On a DOUBLE the
 * operation is IEEE's, with {@link #digits} for ROUND as DuckDB computes it.
 *
 * @param op       ROUND, FLOOR, CEIL, TRUNC or ROUND_EVEN
 * @param exact    whether the argument is an exact number (else a DOUBLE)
 * @param digits   ROUND's or TRUNC's digits (0 for FLOOR, CEIL and either without digits)
 * @param drop     exact: the power of ten divided away (may exceed 18: every value then rounds to 0 or overflows)
 * @param multiply exact: the power of ten the quotient is multiplied by
 * @param limit    exact: the largest magnitude of the result's unscaled value (10^precision - 1 for a DECIMAL)
 */
public record Rounding(Op op, boolean exact, int digits, int drop, int multiply, long limit) {

    /** The lowering of a ROUND, FLOOR or CEIL call. */
    public static Rounding of(Expr.Call c) {
        DataType a = c.args().get(0).type();
        int digits = c.op() == Op.ROUND || c.op() == Op.TRUNC || c.op() == Op.ROUND_EVEN ? (Integer) c.detail() : 0;
        if (a.kind() == TypeKind.DOUBLE) {
            return new Rounding(c.op(), false, digits, 0, 0, 0);
        }
        if (c.type().kind() == TypeKind.DOUBLE) {
            throw new Unsupported(c.op() + " of " + a + " giving " + c.type());
        }
        int s = Scale.of(a);
        int t = Scale.of(c.type());
        long limit = c.type().kind() == TypeKind.DECIMAL ? Values.pow10(c.type().precision()) - 1 : Long.MAX_VALUE;
        if (digits >= s) {
            return new Rounding(c.op(), true, digits, 0, t - s, limit);
        }
        return new Rounding(c.op(), true, digits, s - digits, t - digits, limit);
    }
}

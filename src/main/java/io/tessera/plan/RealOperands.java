package io.tessera.plan;

import io.tessera.storage.DataType;
import io.tessera.storage.TypeKind;

import java.util.ArrayList;
import java.util.List;

/**
 * The operands of a call computed at REAL (DuckDB's FLOAT) precision, each made a REAL first, as DuckDB casts them:
 * an integer or DECIMAL beside a REAL in arithmetic, CASE, COALESCE or a comparison is rounded to float before the
 * operation ({@code 0.1::REAL = 0.1} compares two floats, {@code x + 0.1} adds the float nearest 0.1). Rounding the
 * result alone would round twice. A DOUBLE beside a REAL makes the call a DOUBLE one, which needs nothing here.
 */
final class RealOperands {
    private RealOperands() {
    }

    static List<Expr> of(Op op, List<Expr> args, DataType type) {
        if (type.isReal() && computedAtType(op)) {
            return cast(args);
        }
        if (comparison(op) && args.size() == 2 && (args.get(0).type().isReal() || args.get(1).type().isReal())) {
            return cast(args);
        }
        return args;
    }

    private static List<Expr> cast(List<Expr> args) {
        List<Expr> out = new ArrayList<>(args.size());
        for (Expr a : args) {
            out.add(!exact(a.type()) ? a : a instanceof Expr.Literal l ? literal(l)
                    : new Expr.Call(Op.CAST, List.of(a), DataType.REAL, a.nullable()));
        }
        return out;
    }

    /**
     * A constant as the REAL it becomes, folded here (a filter {@code x > 0.1} stays a comparison with a constant,
     * which every device runs): the float nearest its exact value, read from its digits.
     */
    private static Expr.Literal literal(Expr.Literal l) {
        if (l.value() == null) {
            return new Expr.Literal(null, DataType.REAL);
        }
        long v = ((Number) l.value()).longValue();
        int scale = l.type().kind() == TypeKind.DECIMAL ? l.type().scale() : 0;
        return new Expr.Literal((double) Float.parseFloat(java.math.BigDecimal.valueOf(v, scale).toString()),
                DataType.REAL);
    }

    /** An integer or DECIMAL: a type DuckDB makes a FLOAT where one meets a FLOAT. */
    private static boolean exact(DataType t) {
        TypeKind k = t.kind();
        return k == TypeKind.INTEGER || k == TypeKind.BIGINT || k == TypeKind.DECIMAL;
    }

    private static boolean computedAtType(Op op) {
        return switch (op) {
            case ADD, SUB, MUL, DIV, MOD, CASE, COALESCE -> true;
            default -> false;
        };
    }

    private static boolean comparison(Op op) {
        return switch (op) {
            case EQ, NE, LT, LE, GT, GE, IS_DISTINCT, IS_NOT_DISTINCT -> true;
            default -> false;
        };
    }
}

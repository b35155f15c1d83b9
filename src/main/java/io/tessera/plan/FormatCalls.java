package io.tessera.plan;

import io.tessera.sql.SqlError;
import io.tessera.storage.DataType;
import io.tessera.storage.TypeKind;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexNode;

import java.util.List;
import java.util.Locale;
import java.util.function.Function;

/**
 * DuckDB's FORMAT and PRINTF ({@code sql.FormatFunctions}) as {@link TextFunction} calls, and FORMAT_BYTES and
 * TO_BASE of BIGINTs. Each argument after the
 * format passes as an integer (BIGINT), a floating number (DOUBLE; a DECIMAL too, as DuckDB formats it) or a
 * VARCHAR (every other type, as CAST writes it): the kind decides the conversions it may take.
 */
final class FormatCalls {

    private FormatCalls() {
    }

    /** The lowered call, or null when it is neither. */
    static Expr lower(RexCall call, Function<RexNode, Expr> translate) {
        String name = call.getOperator().getName().toUpperCase(Locale.ROOT);
        TextFunction ofIntegers = switch (name) {
            case "FORMAT_BYTES", "FORMATREADABLESIZE" -> TextFunction.FORMAT_BYTES;
            case "FORMATREADABLEDECIMALSIZE" -> TextFunction.FORMAT_DECIMAL_BYTES;
            case "TO_BASE" -> TextFunction.TO_BASE;
            default -> null;
        };
        if (ofIntegers != null) {
            return ofIntegers(call, ofIntegers, translate);
        }
        TextFunction f = switch (name) {
            case "FORMAT" -> TextFunction.FORMAT;
            case "PRINTF" -> TextFunction.PRINTF;
            default -> null;
        };
        if (f == null) {
            return null;
        }
        List<Expr> args = TextCalls.operands(call, translate);
        for (int i = 0; i < args.size(); i++) {
            Expr a = args.get(i);
            if (a instanceof Expr.Literal l && l.value() == null) {
                return new Expr.Literal(null, DataType.VARCHAR); // NULL where any argument is
            }
            args.set(i, i == 0 ? a : passed(a));
        }
        if (args.get(0).type().kind() != TypeKind.VARCHAR || args.get(0).type().equals(DataType.INTERVAL)) {
            throw new SqlError(name.toLowerCase(Locale.ROOT) + "'s format must be a VARCHAR, not "
                    + args.get(0).type());
        }
        return new Expr.Call(Op.FUNCTION, args, DataType.VARCHAR, call.getType().isNullable(), f);
    }

    /** FORMAT_BYTES' and TO_BASE's integers as BIGINTs; TO_BASE's min_length 0 where the call leaves it out. */
    private static Expr ofIntegers(RexCall call, TextFunction f, Function<RexNode, Expr> translate) {
        List<Expr> args = TextCalls.operands(call, translate);
        args.replaceAll(a -> a.type().equals(DataType.BIGINT) || a instanceof Expr.Literal l && l.value() == null ? a
                : new Expr.Call(Op.CAST, List.of(a), DataType.BIGINT, a.nullable()));
        if (f == TextFunction.TO_BASE && args.size() == 2) {
            args.add(new Expr.Literal(0L, DataType.BIGINT));
        }
        return new Expr.Call(Op.FUNCTION, args, DataType.VARCHAR, call.getType().isNullable(), f);
    }

    private static Expr passed(Expr a) {
        DataType to = switch (a.type().kind()) {
            case INTEGER, BIGINT -> null;
            case DOUBLE -> null;
            case DECIMAL -> DataType.DOUBLE;
            case VARCHAR -> a.type().equals(DataType.VARCHAR) ? null : DataType.VARCHAR;
            default -> DataType.VARCHAR;
        };
        return to == null ? a : new Expr.Call(Op.CAST, List.of(a), to, a.nullable());
    }
}

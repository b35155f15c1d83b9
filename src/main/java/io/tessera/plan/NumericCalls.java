package io.tessera.plan;

import io.tessera.sql.SqlError;
import io.tessera.storage.DataType;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

/**
 * DuckDB's GREATEST and LEAST as {@link Op#GREATEST} and {@link Op#LEAST} calls of arguments cast to the call's type
 * (of lists, structs and maps as a CASE of comparisons, which compare through order keys),
 * and the numeric functions of {@link NumericFunction} as {@link Op#NUMERIC} calls.
 */
final class NumericCalls {
    private NumericCalls() {
    }

    /** The expression of a call this class lowers, or null when it is not one. */
    static Expr lower(RexCall call, RexBuilder rex, Function<RexNode, Expr> translate) {
        String name = call.getOperator().getName().toUpperCase(Locale.ROOT);
        List<RexNode> ops = call.getOperands();
        boolean nullable = call.getType().isNullable();
        if (name.equals("GREATEST") || name.equals("LEAST")) {
            boolean greatest = name.equals("GREATEST");
            List<RexNode> args = new ArrayList<>();
            for (RexNode o : ops) {
                RelDataType to = rex.getTypeFactory().createTypeWithNullability(call.getType(),
                        o.getType().isNullable());
                args.add(o.getType().equals(to) ? o : rex.makeCast(to, o, true, false));
            }
            if (args.size() == 1) {
                return translate.apply(args.get(0));
            }
            if (Types.of(call.getType()).isNested()) {
                // lists, structs and maps compare through their order keys, which the comparisons' own
                // translation makes: the CASE of comparisons, reading an argument more than once
                if (ops.stream().anyMatch(o -> !RexUtil.isDeterministic(o))) {
                    throw new SqlError("unsupported: " + name + " of nested values with an argument that is not"
                            + " deterministic (random())");
                }
                return translate.apply(asCase(call.getType(), args, rex, greatest));
            }
            return new Expr.Call(greatest ? Op.GREATEST : Op.LEAST, args.stream().map(translate).toList(),
                    Types.of(call.getType()), nullable);
        }
        NumericFunction f = switch (name) {
            case "LOG10" -> NumericFunction.LOG10;
            case "LOG2" -> NumericFunction.LOG2;
            case "LOG" -> ops.size() == 1 ? NumericFunction.LOG10 : NumericFunction.LOG;
            case "BIT_COUNT" -> NumericFunction.BIT_COUNT;
            case "GCD" -> NumericFunction.GCD;
            case "LCM" -> NumericFunction.LCM;
            case "EVEN" -> NumericFunction.EVEN;
            case "ISNAN" -> NumericFunction.ISNAN;
            case "ISINF" -> NumericFunction.ISINF;
            case "ISFINITE" -> NumericFunction.ISFINITE;
            case "SIGNBIT" -> NumericFunction.SIGNBIT;
            case "RANDOM" -> NumericFunction.RANDOM;
            case "NEXTVAL", "CURRVAL", "SETVAL" -> NumericFunction.valueOf(name);
            case "FACTORIAL" -> NumericFunction.FACTORIAL;
            case "GAMMA" -> NumericFunction.GAMMA;
            case "LGAMMA" -> NumericFunction.LGAMMA;
            case "HASH" -> NumericFunction.HASH;
            case "CBRT", "DEGREES", "RADIANS", "SIN", "COS", "TAN", "COT", "ASIN", "ACOS", "ATAN", "ATAN2", "XOR",
                 "SINH", "COSH", "TANH", "ASINH", "ACOSH", "ATANH", "NEXTAFTER" ->
                    NumericFunction.valueOf(name);
            case "&" -> NumericFunction.BITWISE_AND;
            case "|" -> NumericFunction.BITWISE_OR;
            case "<<" -> NumericFunction.SHIFT_LEFT;
            case ">>" -> NumericFunction.SHIFT_RIGHT;
            case "~" -> NumericFunction.BITWISE_NOT;
            case "PI" -> null;
            default -> null;
        };
        if (name.equals("PI")) {
            return new Expr.Literal(Math.PI, DataType.DOUBLE);
        }
        if (f == null) {
            return null;
        }
        List<Expr> args = new ArrayList<>();
        for (RexNode o : ops) {
            Expr a = translate.apply(o);
            if (f.ofTheCallsType()) { // the operands of the call's integer type
                DataType t = Types.of(call.getType());
                a = a.type().equals(t) ? a : new Expr.Call(Op.CAST, List.of(a), t, a.nullable());
            }
            if (f == NumericFunction.GCD || f == NumericFunction.LCM || f == NumericFunction.FACTORIAL) {
                a = a.type().equals(DataType.BIGINT) ? a : new Expr.Call(Op.CAST, List.of(a), DataType.BIGINT, a.nullable());
            }
            args.add(a);
        }
        return new Expr.Call(Op.NUMERIC, args, Types.of(call.getType()), f != NumericFunction.HASH && nullable, f);
    }

    /**
     * GREATEST or LEAST of nested values, {@code args} already of the call's type, as a CASE of comparisons (NULL
     * arguments skipped, NULL only where all are). The CASE is made of Calcite's calls so that each comparison is
     * translated as a comparison of nested values is; backend.lower.Extremes makes the same CASE of the GPU's
     * scalars from the translated call.
     */
    private static RexNode asCase(RelDataType type, List<RexNode> args, RexBuilder rex, boolean greatest) {
        List<RexNode> branches = new ArrayList<>();
        for (int i = 0; i < args.size() - 1; i++) {
            RexNode a = args.get(i);
            List<RexNode> conditions = new ArrayList<>();
            conditions.add(rex.makeCall(SqlStdOperatorTable.IS_NOT_NULL, a));
            for (int j = 0; j < args.size(); j++) {
                if (j != i) {
                    RexNode b = args.get(j);
                    RexNode beats = rex.makeCall(greatest ? SqlStdOperatorTable.GREATER_THAN_OR_EQUAL
                            : SqlStdOperatorTable.LESS_THAN_OR_EQUAL, a, b);
                    conditions.add(b.getType().isNullable()
                            ? rex.makeCall(SqlStdOperatorTable.OR, rex.makeCall(SqlStdOperatorTable.IS_NULL, b), beats)
                            : beats);
                }
            }
            branches.add(RexUtil.composeConjunction(rex, conditions));
            branches.add(a);
        }
        branches.add(args.get(args.size() - 1));
        return rex.makeCall(type, SqlStdOperatorTable.CASE, branches);
    }
}

package io.tessera.sql;

import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.SqlBinaryOperator;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlCallBinding;
import org.apache.calcite.sql.SqlFunction;
import org.apache.calcite.sql.SqlFunctionCategory;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlOperandCountRange;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlOperatorBinding;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.type.OperandTypes;
import org.apache.calcite.sql.type.ReturnTypes;
import org.apache.calcite.sql.type.SqlOperandTypeChecker;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.type.SqlTypeTransforms;
import org.apache.calcite.sql.validate.SqlValidatorImpl;
import org.apache.calcite.sql2rel.SqlRexConvertlet;
import org.apache.calcite.sql2rel.SqlRexConvertletTable;
import org.apache.calcite.sql2rel.StandardConvertletTable;

import java.util.List;

/**
 * DATE - DATE (a BIGINT count of days), DATE + INTEGER, INTEGER + DATE, DATE - INTEGER (a DATE) and DATE +/- INTERVAL
 * (a TIMESTAMP: {@code date '2020-01-01' + interval 36 hour} is 2020-01-02 12:00:00) and DATE + TIME (a TIMESTAMP), as
 * DuckDB has them; Calcite's
 * + and - take none of the first three and give the last a DATE. The operator table gives every binary + and - as {@link #PLUS} and
 * {@link #MINUS} (the validator looks them up by name), which accept these forms besides Calcite's own; when SQL
 * becomes relational algebra these forms become {@link #DATE_DIFF} and {@link #DATE_ADD} calls, and every other + and
 * - is Calcite's again, converted as Calcite converts it (intervals included).
 */
final class DateArithmetic {
    private DateArithmetic() {
    }

    /** date - date in days (BIGINT); the planner's DATE_DIFF_DAYS. */
    static final SqlFunction DATE_DIFF = new SqlFunction("TESSERA_DATE_DIFF", SqlKind.OTHER_FUNCTION,
            ReturnTypes.explicit(SqlTypeName.BIGINT).andThen(SqlTypeTransforms.TO_NULLABLE), null,
            OperandTypes.ANY_ANY, SqlFunctionCategory.TIMEDATE);

    /** date + days (DATE); the planner's DATE_ADD_DAYS. */
    static final SqlFunction DATE_ADD = new SqlFunction("TESSERA_DATE_ADD", SqlKind.OTHER_FUNCTION,
            ReturnTypes.explicit(SqlTypeName.DATE).andThen(SqlTypeTransforms.TO_NULLABLE), null,
            OperandTypes.ANY_ANY, SqlFunctionCategory.TIMEDATE);

    /** date + time (TIMESTAMP); the planner's TIMESTAMP_ADD_MICROS of the date's midnight and the time's micros. */
    static final SqlFunction DATE_PLUS_TIME = new SqlFunction("TESSERA_DATE_PLUS_TIME", SqlKind.OTHER_FUNCTION,
            ReturnTypes.explicit(SqlTypeName.TIMESTAMP).andThen(SqlTypeTransforms.TO_NULLABLE), null,
            OperandTypes.ANY_ANY, SqlFunctionCategory.TIMEDATE);

    static final SqlBinaryOperator PLUS = operator(SqlStdOperatorTable.PLUS);
    static final SqlBinaryOperator MINUS = operator(SqlStdOperatorTable.MINUS);

    private enum Form {
        DATE_DIFF, DATE_PLUS_DAYS, DAYS_PLUS_DATE, DATE_MINUS_DAYS, TIMESTAMP_DIFF, INTERVALS,
        /** DATE +/- INTERVAL (either order for +): a TIMESTAMP, the interval added to the date's midnight. */
        DATE_INTERVAL,
        /** DATE + TIME (either order): the TIMESTAMP of that day at that time. */
        DATE_PLUS_TIME,
        OTHER
    }

    private static boolean isInterval(RelDataType t) {
        return t.getSqlTypeName().getFamily() == SqlTypeFamily.INTERVAL_DAY_TIME
                || t.getSqlTypeName().getFamily() == SqlTypeFamily.INTERVAL_YEAR_MONTH;
    }

    private static Form form(SqlKind kind, RelDataType a, RelDataType b) {
        boolean da = a.getSqlTypeName() == SqlTypeName.DATE;
        boolean db = b.getSqlTypeName() == SqlTypeName.DATE;
        if (kind == SqlKind.MINUS && da && db) {
            return Form.DATE_DIFF;
        }
        if (kind == SqlKind.MINUS && timestamp(a) && timestamp(b)) {
            return Form.TIMESTAMP_DIFF;
        }
        if (isInterval(a) && isInterval(b) && a.getSqlTypeName().getFamily() != b.getSqlTypeName().getFamily()) {
            return Form.INTERVALS; // months and days-to-seconds together: DuckDB's one INTERVAL
        }
        if (kind == SqlKind.PLUS && (da && b.getSqlTypeName() == SqlTypeName.TIME
                || db && a.getSqlTypeName() == SqlTypeName.TIME)) {
            return Form.DATE_PLUS_TIME;
        }
        if (da && isInterval(b) || kind == SqlKind.PLUS && db && isInterval(a)) {
            return Form.DATE_INTERVAL;
        }
        if (da && days(b)) {
            return kind == SqlKind.PLUS ? Form.DATE_PLUS_DAYS : Form.DATE_MINUS_DAYS;
        }
        if (kind == SqlKind.PLUS && db && days(a)) {
            return Form.DAYS_PLUS_DATE;
        }
        return Form.OTHER;
    }

    /** A TIMESTAMP or a TIMESTAMP WITH TIME ZONE. */
    private static boolean timestamp(RelDataType t) {
        return t.getSqlTypeName() == SqlTypeName.TIMESTAMP
                || t.getSqlTypeName() == SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE;
    }

    /**
     * x as the type of y where y is a TIMESTAMP WITH TIME ZONE and x a TIMESTAMP (read in the session's zone, as
     * DuckDB casts it before it subtracts them); else x.
     */
    private static RexNode zonedAs(org.apache.calcite.rex.RexBuilder rex, RexNode x, RexNode y) {
        if (x.getType().getSqlTypeName() != SqlTypeName.TIMESTAMP
                || y.getType().getSqlTypeName() != SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE) {
            return x;
        }
        return rex.makeCast(rex.getTypeFactory().createTypeWithNullability(y.getType(), x.getType().isNullable()), x);
    }

    /** An integer that a DATE takes as days: INTEGER or narrower (DuckDB has no DATE + BIGINT). */
    private static boolean days(RelDataType t) {
        return switch (t.getSqlTypeName()) {
            case TINYINT, SMALLINT, INTEGER -> true;
            default -> false;
        };
    }

    private static SqlBinaryOperator operator(SqlBinaryOperator std) {
        SqlOperandTypeChecker stdChecker = std.getOperandTypeChecker();
        SqlOperandTypeChecker checker = new SqlOperandTypeChecker() {
            @Override
            public boolean checkOperandTypes(SqlCallBinding binding, boolean throwOnFailure) {
                if (form(std.getKind(), binding.getOperandType(0), binding.getOperandType(1)) != Form.OTHER) {
                    return true;
                }
                return stdChecker.checkOperandTypes(binding, throwOnFailure);
            }

            @Override
            public SqlOperandCountRange getOperandCountRange() {
                return stdChecker.getOperandCountRange();
            }

            @Override
            public String getAllowedSignatures(SqlOperator op, String opName) {
                return stdChecker.getAllowedSignatures(op, opName) + "\n'<DATE> " + opName
                        + (std.getKind() == SqlKind.MINUS ? " <DATE>'\n'<DATE> - <INTEGER>'" : " <INTEGER>'");
            }

            @Override
            public Consistency getConsistency() {
                return stdChecker.getConsistency();
            }
        };
        return new SqlBinaryOperator(std.getName(), std.getKind(), std.getLeftPrec(), true,
                (SqlOperatorBinding b) -> switch (form(std.getKind(), b.getOperandType(0), b.getOperandType(1))) {
                    case DATE_DIFF -> nullable(b, SqlTypeName.BIGINT);
                    case DATE_PLUS_DAYS, DAYS_PLUS_DATE, DATE_MINUS_DAYS -> nullable(b, SqlTypeName.DATE);
                    case DATE_INTERVAL, DATE_PLUS_TIME -> nullableTimestamp(b);
                    case TIMESTAMP_DIFF, INTERVALS -> TimestampFunctions.intervalType(b.getTypeFactory(),
                            b.getOperandType(0).isNullable() || b.getOperandType(1).isNullable());
                    case OTHER -> std.inferReturnType(b);
                }, std.getOperandTypeInference(), checker) {
            @Override
            public org.apache.calcite.sql.validate.SqlMonotonicity getMonotonicity(SqlOperatorBinding call) {
                return std.getMonotonicity(call);
            }
        };
    }

    private static RelDataType nullableTimestamp(SqlOperatorBinding b) {
        boolean n = b.getOperandType(0).isNullable() || b.getOperandType(1).isNullable();
        var f = b.getTypeFactory();
        return f.createTypeWithNullability(f.createSqlType(SqlTypeName.TIMESTAMP, TesseraTypeSystem.TIMESTAMP_PRECISION), n);
    }

    private static RelDataType nullable(SqlOperatorBinding b, SqlTypeName t) {
        boolean n = b.getOperandType(0).isNullable() || b.getOperandType(1).isNullable();
        return b.getTypeFactory().createTypeWithNullability(b.getTypeFactory().createSqlType(t), n);
    }

    /**
     * EXTRACT of an INTERVAL as a plain call of the unit and the interval (the planner takes the part of DuckDB's
     * interval); any other EXTRACT as Calcite converts it.
     */
    private static RexNode extract(org.apache.calcite.sql2rel.SqlRexContext cx, SqlCall c) {
        RelDataType type = cx.getValidator().getValidatedNodeType(c);
        if (IntervalSyntax.isInterval(cx.getValidator().getValidatedNodeType(c.operand(1)))) {
            var unit = ((org.apache.calcite.sql.SqlIntervalQualifier) c.operand(0)).timeUnitRange;
            var rex = cx.getRexBuilder();
            return rex.makeCall(type, SqlStdOperatorTable.EXTRACT, List.of(rex.makeFlag(unit),
                    cx.convertExpression(c.operand(1))));
        }
        SqlCall same = SqlStdOperatorTable.EXTRACT.createCall(c.getParserPosition(), c.getOperandList());
        ((SqlValidatorImpl) cx.getValidator()).setValidatedNodeType(same, type);
        return StandardConvertletTable.INSTANCE.get(same).convertCall(cx, same);
    }

    /**
     * Calcite's convertlets, with {@link #PLUS} and {@link #MINUS} converted as described above, and IS [NOT] DISTINCT
     * FROM of structs as {@link StructDistinctFrom} converts it, a CASE of nested values as {@link NestedCaseTypes}
     * converts it, {@code a // b} as {@link IntegerDivision} converts it, {@code a ** b} as {@link PowerOperator} does.
     */
    static final SqlRexConvertletTable CONVERTLETS = new SqlRexConvertletTable() {
        @Override
        public SqlRexConvertlet get(SqlCall call) {
            if (call.getOperator() == IntervalSyntax.EXTRACT) {
                return DateArithmetic::extract;
            }
            if (call.getOperator() == NestedCasts.CAST || call.getOperator() == NestedCasts.TRY_CAST) {
                return NestedCasts.CONVERTLET;
            }
            if (StructDistinctFrom.applies(call)) {
                return StructDistinctFrom.CONVERTLET;
            }
            if (NestedCaseTypes.applies(call)) {
                return NestedCaseTypes.CONVERTLET;
            }
            if (IntegerDivision.applies(call)) {
                return IntegerDivision.CONVERTLET;
            }
            if (PowerOperator.applies(call)) {
                return PowerOperator.CONVERTLET;
            }
            if (call.getOperator() != PLUS && call.getOperator() != MINUS) {
                return StandardConvertletTable.INSTANCE.get(call);
            }
            return (cx, c) -> {
                RelDataType a = cx.getValidator().getValidatedNodeType(c.operand(0));
                RelDataType b = cx.getValidator().getValidatedNodeType(c.operand(1));
                RelDataType type = cx.getValidator().getValidatedNodeType(c);
                Form form = form(c.getKind(), a, b);
                if (form == Form.OTHER) {
                    SqlBinaryOperator std = c.getKind() == SqlKind.PLUS ? SqlStdOperatorTable.PLUS : SqlStdOperatorTable.MINUS;
                    SqlCall same = std.createCall(c.getParserPosition(), c.getOperandList());
                    ((SqlValidatorImpl) cx.getValidator()).setValidatedNodeType(same, type);
                    return StandardConvertletTable.INSTANCE.get(same).convertCall(cx, same);
                }
                RexNode x = cx.convertExpression(c.operand(0));
                RexNode y = cx.convertExpression(c.operand(1));
                var rex = cx.getRexBuilder();
                return switch (form) {
                    case DATE_DIFF -> rex.makeCall(type, DATE_DIFF, List.of(x, y));
                    case DATE_PLUS_DAYS -> rex.makeCall(type, DATE_ADD, List.of(x, y));
                    case DAYS_PLUS_DATE -> rex.makeCall(type, DATE_ADD, List.of(y, x));
                    case DATE_MINUS_DAYS -> rex.makeCall(type, DATE_ADD, List.of(x,
                            rex.makeCall(SqlStdOperatorTable.UNARY_MINUS, y)));
                    case TIMESTAMP_DIFF -> rex.makeCall(type, TimestampFunctions.TIMESTAMP_DIFF,
                            List.of(zonedAs(rex, x, y), zonedAs(rex, y, x)));
                    // kept as + or - of the two intervals (the planner adds them as DuckDB's intervals)
                    case INTERVALS -> rex.makeCall(type, c.getKind() == SqlKind.PLUS ? SqlStdOperatorTable.PLUS
                            : SqlStdOperatorTable.MINUS, List.of(x, y));
                    // the date's midnight plus the interval, as a TIMESTAMP + INTERVAL is converted
                    case DATE_INTERVAL -> {
                        boolean dateFirst = a.getSqlTypeName() == SqlTypeName.DATE;
                        RexNode date = dateFirst ? x : y;
                        RexNode midnight = rex.makeCast(rex.getTypeFactory().createTypeWithNullability(
                                type, date.getType().isNullable()), date);
                        RexNode interval = dateFirst ? y : x;
                        yield c.getKind() == SqlKind.PLUS
                                ? rex.makeCall(type, SqlStdOperatorTable.DATETIME_PLUS, List.of(midnight, interval))
                                : rex.makeCall(type, SqlStdOperatorTable.MINUS, List.of(midnight, interval));
                    }
                    case DATE_PLUS_TIME -> a.getSqlTypeName() == SqlTypeName.DATE
                            ? rex.makeCall(type, DATE_PLUS_TIME, List.of(x, y))
                            : rex.makeCall(type, DATE_PLUS_TIME, List.of(y, x));
                    case OTHER -> throw new IllegalStateException();
                };
            };
        }
    };
}

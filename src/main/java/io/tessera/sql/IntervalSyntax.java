package io.tessera.sql;

import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlCallBinding;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlPostfixOperator;
import org.apache.calcite.sql.fun.SqlExtractFunction;
import org.apache.calcite.sql.fun.SqlLibraryOperators;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.OperandTypes;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql.validate.SqlValidator;
import org.apache.calcite.sql.validate.SqlValidatorScope;

import java.util.List;

/**
 * DuckDB's spellings of INTERVAL that Calcite's grammar lacks, made by the generated parser: a literal without a
 * unit after its text ({@code INTERVAL '1 year 2 days'}), {@code CAST(x AS INTERVAL)} and {@code x::INTERVAL}. Each
 * becomes a call of {@link TimestampFunctions#INTERVAL_LITERAL} on the text, which the planner reads as DuckDB reads
 * it (a constant when the query is planned).
 */
public final class IntervalSyntax {
    private IntervalSyntax() {
    }

    /** {@code x::INTERVAL}: a postfix operator, as binding as {@code ::}; of text or of an interval (itself). */
    public static final SqlPostfixOperator INFIX_INTERVAL = new SqlPostfixOperator("::INTERVAL", SqlKind.OTHER,
            SqlLibraryOperators.INFIX_CAST.getLeftPrec(), TimestampFunctions.INTERVAL_LITERAL.getReturnTypeInference(),
            null, TimestampFunctions.INTERVAL_LITERAL.getOperandTypeChecker()) {
    };

    /**
     * EXTRACT that takes any unit of an INTERVAL (DuckDB's has months and microseconds together, which Calcite's
     * EXTRACT refuses for a day-to-second type); each EXTRACT of a query is made this one before validation
     * ({@link TemporalLiterals}) and converted as Calcite's, an interval's as a plain call ({@link DateArithmetic}).
     */
    public static final SqlExtractFunction EXTRACT = new SqlExtractFunction("EXTRACT", false) {
        @Override
        public boolean checkOperandTypes(SqlCallBinding binding, boolean throwOnFailure) {
            return isInterval(binding.getOperandType(1)) || epochOfDatetime(binding)
                    || super.checkOperandTypes(binding, throwOnFailure);
        }

        @Override
        public void validateCall(SqlCall call, SqlValidator validator, SqlValidatorScope scope,
                SqlValidatorScope operandScope) {
            RelDataType of = validator.deriveType(operandScope, call.operand(1));
            if (isInterval(of)) {
                return; // any unit: the planner takes the part of DuckDB's interval
            }
            if (call.operand(0) instanceof org.apache.calcite.sql.SqlIntervalQualifier q
                    && q.timeUnitRange == org.apache.calcite.avatica.util.TimeUnitRange.EPOCH
                    && SqlTypeFamily.DATETIME.contains(of)) {
                return; // a TIME's too (Calcite's EXTRACT refuses it): seconds since midnight
            }
            super.validateCall(call, validator, scope, operandScope);
        }

        /** EPOCH is DuckDB's DOUBLE of seconds (with their fraction), of every temporal type. */
        @Override
        public RelDataType inferReturnType(org.apache.calcite.sql.SqlOperatorBinding b) {
            if (isEpoch(b)) {
                var f = b.getTypeFactory();
                return f.createTypeWithNullability(f.createSqlType(org.apache.calcite.sql.type.SqlTypeName.DOUBLE),
                        b.getOperandType(1).isNullable());
            }
            return super.inferReturnType(b);
        }
    };

    private static boolean isEpoch(org.apache.calcite.sql.SqlOperatorBinding b) {
        try {
            return b.getOperandLiteralValue(0, org.apache.calcite.avatica.util.TimeUnitRange.class)
                    == org.apache.calcite.avatica.util.TimeUnitRange.EPOCH;
        } catch (RuntimeException notAUnit) {
            return false;
        }
    }

    private static boolean epochOfDatetime(SqlCallBinding b) {
        return isEpoch(b) && SqlTypeFamily.DATETIME.contains(b.getOperandType(1));
    }

    static boolean isInterval(RelDataType t) {
        SqlTypeFamily f = t.getSqlTypeName().getFamily();
        return f == SqlTypeFamily.INTERVAL_DAY_TIME || f == SqlTypeFamily.INTERVAL_YEAR_MONTH;
    }

    /**
     * The part of an INTERVAL that equal intervals share (its length: 30 days equal 1 month), as a VARCHAR; what
     * optimize.IntervalGroups groups by, as DuckDB groups intervals.
     */
    public static final org.apache.calcite.sql.SqlFunction KEY = new org.apache.calcite.sql.SqlFunction(
            "TESSERA_INTERVAL_KEY", SqlKind.OTHER_FUNCTION, org.apache.calcite.sql.type.ReturnTypes.explicit(
            org.apache.calcite.sql.type.SqlTypeName.VARCHAR).andThen(
            org.apache.calcite.sql.type.SqlTypeTransforms.TO_NULLABLE), null, OperandTypes.ANY,
            org.apache.calcite.sql.SqlFunctionCategory.SYSTEM);

    /**
     * A 64-bit hash (BIGINT) of what equal values of a LIST or STRUCT with an INTERVAL inside share (each interval's
     * length): the key of a join on their equality, which also compares the values themselves
     * (optimize.IntervalJoinKeys).
     */
    public static final org.apache.calcite.sql.SqlFunction KEY_HASH = bigintOf("TESSERA_INTERVAL_KEY_HASH");

    /**
     * A LIST's or STRUCT's encoded string as a VARCHAR, and ({@link #OF_CODE}, made with the value's type) the value of
     * such a string: a MIN between them keeps one of a group's values where the values have no order
     * (optimize.IntervalGroups: equal lists with an INTERVAL inside, 1 day and 24 hours).
     */
    public static final org.apache.calcite.sql.SqlFunction CODE = new org.apache.calcite.sql.SqlFunction(
            "TESSERA_NESTED_CODE", SqlKind.OTHER_FUNCTION, org.apache.calcite.sql.type.ReturnTypes.explicit(
            org.apache.calcite.sql.type.SqlTypeName.VARCHAR).andThen(
            org.apache.calcite.sql.type.SqlTypeTransforms.TO_NULLABLE), null, OperandTypes.ANY,
            org.apache.calcite.sql.SqlFunctionCategory.SYSTEM);
    public static final org.apache.calcite.sql.SqlFunction OF_CODE = new org.apache.calcite.sql.SqlFunction(
            "TESSERA_NESTED_OF_CODE", SqlKind.OTHER_FUNCTION, org.apache.calcite.sql.type.ReturnTypes.ARG0, null,
            OperandTypes.ANY, org.apache.calcite.sql.SqlFunctionCategory.SYSTEM);

    /**
     * The whole days of an INTERVAL's length (BIGINT), and below the microseconds beyond them: together a numeric key
     * that equal intervals share, which a join on an equality of intervals compares.
     */
    public static final org.apache.calcite.sql.SqlFunction KEY_DAYS = bigintOf("TESSERA_INTERVAL_KEY_DAYS");
    public static final org.apache.calcite.sql.SqlFunction KEY_MICROS = bigintOf("TESSERA_INTERVAL_KEY_MICROS");

    private static org.apache.calcite.sql.SqlFunction bigintOf(String name) {
        return new org.apache.calcite.sql.SqlFunction(name, SqlKind.OTHER_FUNCTION,
                org.apache.calcite.sql.type.ReturnTypes.explicit(org.apache.calcite.sql.type.SqlTypeName.BIGINT)
                        .andThen(org.apache.calcite.sql.type.SqlTypeTransforms.TO_NULLABLE), null, OperandTypes.ANY,
                org.apache.calcite.sql.SqlFunctionCategory.SYSTEM);
    }

    /** {@code INTERVAL [-] 'text'} with no unit after the text. */
    public static SqlNode literal(SqlParserPos pos, int sign, String text) {
        SqlNode call = TimestampFunctions.INTERVAL_LITERAL.createCall(pos, SqlLiteral.createCharString(text, pos));
        return sign < 0 ? SqlStdOperatorTable.UNARY_MINUS.createCall(pos, call) : call;
    }

    /** A CAST's call; {@code CAST(x AS INTERVAL)} (one argument: no type or unit was parsed) reads x as an interval. */
    public static SqlCall cast(SqlOperator cast, SqlParserPos pos, List<SqlNode> args) {
        if (args.size() == 1 && cast.getKind() == SqlKind.SAFE_CAST) {
            // TRY_CAST(x AS INTERVAL): the CAST's reading of text, NULL where it fails (plan.TryCasts)
            return cast.createCall(pos, args.get(0),
                    new org.apache.calcite.sql.SqlDataTypeSpec(new IntervalTypeName(pos), pos));
        }
        if (args.size() == 1) {
            return TimestampFunctions.INTERVAL_LITERAL.createCall(pos, args.get(0));
        }
        return cast.createCall(pos, args);
    }
}

package io.tessera.sql;

import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlCallBinding;
import org.apache.calcite.sql.SqlFunction;
import org.apache.calcite.sql.SqlFunctionCategory;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlOperatorBinding;
import org.apache.calcite.sql.fun.SqlCase;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.type.OperandTypes;
import org.apache.calcite.sql.type.ReturnTypes;
import org.apache.calcite.sql.type.SqlOperandCountRanges;
import org.apache.calcite.sql.type.SqlReturnTypeInference;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.type.SqlTypeTransforms;
import org.apache.calcite.sql.type.SqlTypeUtil;
import org.apache.calcite.sql.util.SqlShuttle;

import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * DuckDB's conditional and numeric scalar functions: GREATEST and LEAST (of DuckDB's common type, NULLs skipped, a
 * BOOLEAN beside integers an integer),
 * IFNULL and IF (rewritten to COALESCE and CASE before validation), TRUNC, LOG10, LOG2, LOG, POW, BIT_COUNT, GCD,
 * LCM, EVEN, ISNAN, ISINF, ISFINITE, SIGNBIT, the hyperbolic functions, NEXTAFTER, FACTORIAL (also {@code n!}),
 * GAMMA, LGAMMA, ROUND_EVEN (ROUNDBANKERS), HASH and RANDOM, and the sequence functions NEXTVAL, CURRVAL and SETVAL,
 * typed as DuckDB types them (FACTORIAL a BIGINT where DuckDB's is a HUGEINT, HASH a BIGINT where DuckDB's is a
 * UBIGINT). {@link MathFunctions} looks names up
 * here; {@code plan.NumericCalls} lowers them.
 */
final class NumericFunctions {
    private NumericFunctions() {
    }

    private static final SqlReturnTypeInference DOUBLE = ReturnTypes.DOUBLE_NULLABLE;
    private static final SqlReturnTypeInference BOOLEAN =
            ReturnTypes.explicit(SqlTypeName.BOOLEAN).andThen(SqlTypeTransforms.TO_NULLABLE);

    private static SqlFunction fn(String name, SqlReturnTypeInference type,
                                  org.apache.calcite.sql.type.SqlOperandTypeChecker operands) {
        return new SqlFunction(name, SqlKind.OTHER_FUNCTION, type, null, operands, SqlFunctionCategory.NUMERIC);
    }

    /** A new value on every call and row: never folded, never taken for a constant. */
    private static final SqlFunction RANDOM = new SqlFunction("RANDOM", SqlKind.OTHER_FUNCTION,
            ReturnTypes.DOUBLE, null, OperandTypes.NILADIC, SqlFunctionCategory.NUMERIC) {
        @Override
        public boolean isDeterministic() {
            return false;
        }
    };

    /**
     * A function of a sequence, named by its first argument (DuckDB's nextval, currval, setval): it reads or moves the
     * sequence's state on every call and row, so it is never folded, never taken for a constant. A BIGINT, NULL
     * where an argument is.
     */
    private static SqlFunction sequenceFunction(String name, org.apache.calcite.sql.type.SqlOperandTypeChecker operands) {
        return new SqlFunction(name, SqlKind.OTHER_FUNCTION,
                ReturnTypes.explicit(SqlTypeName.BIGINT).andThen(SqlTypeTransforms.TO_NULLABLE), null, operands,
                SqlFunctionCategory.NUMERIC) {
            @Override
            public boolean isDeterministic() {
                return false;
            }
        };
    }

    /**
     * {@code inner}, refusing text as the first argument where DuckDB has no function of text (TRUNC('1.5'),
     * ISNAN('a')) rather than letting Calcite cast it.
     */
    private static org.apache.calcite.sql.type.SqlOperandTypeChecker noText(
            org.apache.calcite.sql.type.SqlOperandTypeChecker inner) {
        return new org.apache.calcite.sql.type.SqlOperandTypeChecker() {
            @Override
            public boolean checkOperandTypes(SqlCallBinding b, boolean throwOnFailure) {
                if (SqlTypeUtil.isCharacter(b.getOperandType(0))) {
                    if (throwOnFailure) {
                        throw b.newValidationSignatureError();
                    }
                    return false;
                }
                return inner.checkOperandTypes(b, throwOnFailure);
            }

            @Override
            public org.apache.calcite.sql.SqlOperandCountRange getOperandCountRange() {
                return inner.getOperandCountRange();
            }

            @Override
            public String getAllowedSignatures(org.apache.calcite.sql.SqlOperator op, String opName) {
                return inner.getAllowedSignatures(op, opName);
            }
        };
    }

    private static final Map<String, SqlFunction> FUNCTIONS = Map.ofEntries(
            Map.entry("GREATEST", fn("GREATEST", NumericFunctions::greatestType,
                    OperandTypes.repeat(SqlOperandCountRanges.from(1), OperandTypes.ANY))),
            Map.entry("LEAST", fn("LEAST", NumericFunctions::greatestType,
                    OperandTypes.repeat(SqlOperandCountRanges.from(1), OperandTypes.ANY))),
            Map.entry("TRUNC", fn("TRUNC", MathFunctions::roundType, noText(OperandTypes.NUMERIC_OPTIONAL_INTEGER))),
            Map.entry("LOG10", fn("LOG10", DOUBLE, OperandTypes.NUMERIC)),
            Map.entry("LOG2", fn("LOG2", DOUBLE, OperandTypes.NUMERIC)),
            Map.entry("LOG", fn("LOG", DOUBLE, OperandTypes.or(OperandTypes.NUMERIC, OperandTypes.NUMERIC_NUMERIC))),
            Map.entry("BIT_COUNT", fn("BIT_COUNT", ReturnTypes.explicit(SqlTypeName.TINYINT)
                    .andThen(SqlTypeTransforms.TO_NULLABLE), noText(OperandTypes.family(SqlTypeFamily.INTEGER)))),
            Map.entry("GCD", fn("GCD", ReturnTypes.explicit(SqlTypeName.BIGINT).andThen(SqlTypeTransforms.TO_NULLABLE),
                    OperandTypes.family(SqlTypeFamily.INTEGER, SqlTypeFamily.INTEGER))),
            Map.entry("LCM", fn("LCM", ReturnTypes.explicit(SqlTypeName.BIGINT).andThen(SqlTypeTransforms.TO_NULLABLE),
                    OperandTypes.family(SqlTypeFamily.INTEGER, SqlTypeFamily.INTEGER))),
            Map.entry("EVEN", fn("EVEN", DOUBLE, OperandTypes.NUMERIC)),
            Map.entry("ISNAN", fn("ISNAN", BOOLEAN, noText(OperandTypes.NUMERIC))),
            Map.entry("ISINF", fn("ISINF", BOOLEAN, noText(OperandTypes.NUMERIC))),
            Map.entry("ISFINITE", fn("ISFINITE", BOOLEAN, noText(OperandTypes.NUMERIC))),
            Map.entry("SIGNBIT", fn("SIGNBIT", BOOLEAN, noText(OperandTypes.NUMERIC))),
            Map.entry("RANDOM", RANDOM),
            Map.entry("NEXTVAL", sequenceFunction("NEXTVAL", OperandTypes.CHARACTER)),
            Map.entry("CURRVAL", sequenceFunction("CURRVAL", OperandTypes.CHARACTER)),
            Map.entry("SETVAL", sequenceFunction("SETVAL", OperandTypes.family(SqlTypeFamily.CHARACTER,
                    SqlTypeFamily.INTEGER))),
            Map.entry("CBRT", fn("CBRT", DOUBLE, noText(OperandTypes.NUMERIC))),
            Map.entry("PI", fn("PI", ReturnTypes.DOUBLE, OperandTypes.NILADIC)),
            Map.entry("DEGREES", fn("DEGREES", DOUBLE, noText(OperandTypes.NUMERIC))),
            Map.entry("RADIANS", fn("RADIANS", DOUBLE, noText(OperandTypes.NUMERIC))),
            Map.entry("SIN", fn("SIN", DOUBLE, noText(OperandTypes.NUMERIC))),
            Map.entry("COS", fn("COS", DOUBLE, noText(OperandTypes.NUMERIC))),
            Map.entry("TAN", fn("TAN", DOUBLE, noText(OperandTypes.NUMERIC))),
            Map.entry("COT", fn("COT", DOUBLE, noText(OperandTypes.NUMERIC))),
            Map.entry("ASIN", fn("ASIN", DOUBLE, noText(OperandTypes.NUMERIC))),
            Map.entry("ACOS", fn("ACOS", DOUBLE, noText(OperandTypes.NUMERIC))),
            Map.entry("ATAN", fn("ATAN", DOUBLE, noText(OperandTypes.NUMERIC))),
            Map.entry("ATAN2", fn("ATAN2", DOUBLE, noText(OperandTypes.NUMERIC_NUMERIC))),
            Map.entry("SINH", fn("SINH", DOUBLE, noText(OperandTypes.NUMERIC))),
            Map.entry("COSH", fn("COSH", DOUBLE, noText(OperandTypes.NUMERIC))),
            Map.entry("TANH", fn("TANH", DOUBLE, noText(OperandTypes.NUMERIC))),
            Map.entry("ASINH", fn("ASINH", DOUBLE, noText(OperandTypes.NUMERIC))),
            Map.entry("ACOSH", fn("ACOSH", DOUBLE, noText(OperandTypes.NUMERIC))),
            Map.entry("ATANH", fn("ATANH", DOUBLE, noText(OperandTypes.NUMERIC))),
            // of DOUBLEs; DuckDB's of two FLOATs steps a FLOAT's width, which Tessera's REAL (held as a DOUBLE) lacks
            Map.entry("NEXTAFTER", fn("NEXTAFTER", NumericFunctions::nextAfterType,
                    noText(OperandTypes.NUMERIC_NUMERIC))),
            // the bitwise exclusive or of two integers, of their common type
            Map.entry("XOR", fn("XOR", ReturnTypes.LEAST_RESTRICTIVE.andThen(SqlTypeTransforms.TO_NULLABLE),
                    noText(OperandTypes.family(SqlTypeFamily.INTEGER, SqlTypeFamily.INTEGER)))),
            Map.entry("GAMMA", fn("GAMMA", DOUBLE, noText(OperandTypes.NUMERIC))),
            Map.entry("LGAMMA", fn("LGAMMA", DOUBLE, noText(OperandTypes.NUMERIC))),
            // ROUND's types, the digits required as DuckDB requires them; ties to the even neighbour
            Map.entry("ROUND_EVEN", fn("ROUND_EVEN", MathFunctions::roundType,
                    noText(OperandTypes.family(SqlTypeFamily.NUMERIC, SqlTypeFamily.INTEGER)))),
            // DuckDB's is a UBIGINT, a type Tessera lacks: the same 64 bits as a BIGINT; never NULL (NULL hashes too)
            Map.entry("HASH", fn("HASH", ReturnTypes.BIGINT,
                    OperandTypes.repeat(SqlOperandCountRanges.from(1), OperandTypes.ANY))),
            // DuckDB's is a HUGEINT (up to 33!): a BIGINT here, up to 20!, past it an error naming the function
            Map.entry("FACTORIAL", fn("FACTORIAL", ReturnTypes.explicit(SqlTypeName.BIGINT)
                    .andThen(SqlTypeTransforms.TO_NULLABLE), OperandTypes.family(SqlTypeFamily.INTEGER))));

    /** Names rewritten before validation: IFNULL as COALESCE, IF as CASE, POW as POWER. */
    static final Set<String> REWRITTEN = Set.of("IFNULL", "IF", "POW");

    /** The function of this upper-case name, or null. */
    static SqlFunction lookup(String name) {
        return FUNCTIONS.get(name);
    }

    /** Every function defined here, for the operator list. */
    static Collection<SqlFunction> all() {
        return FUNCTIONS.values();
    }

    /** Whether a call of this upper-case name is one of these functions (for {@link SupportCheck}). */
    static boolean supports(String name) {
        return FUNCTIONS.containsKey(name) || REWRITTEN.contains(name);
    }

    /** Whether Calcite must leave a constant call of this upper-case name unfolded (it has no code for them). */
    static boolean unfolded(String name) {
        return FUNCTIONS.containsKey(name);
    }

    /** NEXTAFTER's: a DOUBLE; of a REAL an error naming it. */
    private static RelDataType nextAfterType(SqlOperatorBinding b) {
        for (RelDataType t : b.collectOperandTypes()) {
            if (t.getSqlTypeName() == SqlTypeName.REAL || t.getSqlTypeName() == SqlTypeName.FLOAT) {
                throw new SqlError("unsupported: nextafter of a FLOAT (REAL); of DOUBLEs it is supported");
            }
        }
        return DOUBLE.inferReturnType(b);
    }

    /**
     * GREATEST's and LEAST's type: DuckDB's common type of the arguments (a string literal beside numbers or temporal
     * values read as their type, {@link TemporalText}), a VARCHAR for text; NULL only where every argument may be.
     */
    private static RelDataType greatestType(SqlOperatorBinding b) {
        RelDataTypeFactory f = b.getTypeFactory();
        List<RelDataType> types = b.collectOperandTypes();
        RelDataType t = null;
        if (b instanceof SqlCallBinding call) {
            t = TemporalText.commonType(f, TemporalText.Construct.GREATEST, call.operands(), types);
        }
        if (t == null) {
            List<RelDataType> common = booleansAsIntegers(f, types);
            t = keepingScale(common, f.leastRestrictive(common));
        }
        if (t == null && types.stream().allMatch(x -> TemporalText.isTemporal(x)
                || x.getSqlTypeName() == SqlTypeName.NULL)) {
            for (RelDataType x : types) { // a DATE beside a TIMESTAMP: the TIMESTAMP, as in a CASE
                t = t == null || t.getSqlTypeName() == SqlTypeName.NULL ? x
                        : x.getSqlTypeName() == SqlTypeName.NULL ? t : TemporalText.wider(f, t, x);
                if (t == null) {
                    break;
                }
            }
        }
        String pos = b instanceof SqlCallBinding call ? SupportCheck.at(call.getCall().getParserPosition()) : "";
        if (t == null) {
            throw new SqlError("Cannot combine the types of " + b.getOperator().getName() + "'s arguments "
                    + types.stream().map(x -> x.getFullTypeString().replace(" NOT NULL", "")).toList()
                    + " - an explicit cast is required" + pos);
        }
        if (SqlTypeUtil.isCharacter(t)) {
            t = f.createSqlType(SqlTypeName.VARCHAR); // not a CHAR(n) that would pad the shorter values
        }
        boolean nullable = types.stream().allMatch(RelDataType::isNullable);
        return f.createTypeWithNullability(t, nullable);
    }

    /**
     * {@code types} with each BOOLEAN a TINYINT where an integer type is among them: DuckDB's GREATEST and LEAST take a
     * boolean beside integers as 0 or 1 ({@code greatest(1, true)} is the INTEGER 1), beside other types not.
     */
    private static List<RelDataType> booleansAsIntegers(RelDataTypeFactory f, List<RelDataType> types) {
        if (types.stream().noneMatch(x -> SqlTypeUtil.isIntType(x))
                || types.stream().noneMatch(x -> x.getSqlTypeName() == SqlTypeName.BOOLEAN)) {
            return types;
        }
        return types.stream().map(x -> x.getSqlTypeName() != SqlTypeName.BOOLEAN ? x
                : f.createTypeWithNullability(f.createSqlType(SqlTypeName.TINYINT), x.isNullable())).toList();
    }

    /**
     * {@code common}, the common type Calcite made of the values {@code types} (GREATEST's arguments, a CASE's
     * results); an error where it is a DECIMAL with fewer digits after the point than one of them, which Calcite makes
     * where the digits would pass 18 ({@code COALESCE(x, 2.5)} of a BIGINT x: DuckDB's DECIMAL(20,1)) and in which
     * the values would be rounded.
     */
    static RelDataType keepingScale(List<RelDataType> types, RelDataType common) {
        if (common == null || common.getSqlTypeName() != SqlTypeName.DECIMAL) {
            return common;
        }
        for (RelDataType t : types) {
            if (t.getSqlTypeName() == SqlTypeName.DECIMAL && t.getScale() > common.getScale()) {
                throw new SqlError("unsupported: a common type of " + types.stream()
                        .map(x -> x.getFullTypeString().replace(" NOT NULL", "")).distinct().toList()
                        + " with more than 18 digits");
            }
        }
        return common;
    }

    /** The parsed statement with IFNULL(a, b) as COALESCE(a, b), IF(c, a, b) as a CASE and POW as POWER. */
    static SqlNode rewrite(SqlNode parsed) {
        SqlNode r = parsed.accept(new SqlShuttle() {
            @Override
            public SqlNode visit(SqlCall call) {
                SqlNode visited = super.visit(call);
                if (!(visited instanceof SqlCall c)
                        || !(c.getOperator() instanceof org.apache.calcite.sql.SqlUnresolvedFunction fn)) {
                    return visited;
                }
                String name = fn.getName().toUpperCase(Locale.ROOT);
                List<SqlNode> ops = c.getOperandList();
                if (name.equals("IFNULL")) {
                    arguments(c, name, 2);
                    return SqlStdOperatorTable.COALESCE.createCall(c.getParserPosition(), ops);
                }
                if (name.equals("POW")) {
                    return SqlStdOperatorTable.POWER.createCall(c.getParserPosition(), ops);
                }
                if (name.equals("IF")) {
                    arguments(c, name, 3);
                    return new SqlCase(c.getParserPosition(), null,
                            SqlNodeList.of(ops.get(0)), SqlNodeList.of(ops.get(1)), ops.get(2));
                }
                return visited;
            }
        });
        return r == null ? parsed : r;
    }

    private static void arguments(SqlCall c, String name, int count) {
        if (c.operandCount() != count) {
            throw new SqlError("Invalid number of arguments to function " + name + ": " + c.operandCount()
                    + " (it takes " + count + ")" + SupportCheck.at(c.getParserPosition()));
        }
    }
}

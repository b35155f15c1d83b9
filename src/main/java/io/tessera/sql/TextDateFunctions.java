package io.tessera.sql;

import org.apache.calcite.sql.SqlFunction;
import org.apache.calcite.sql.SqlFunctionCategory;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.fun.SqlLibraryOperators;
import org.apache.calcite.sql.type.OperandTypes;
import org.apache.calcite.sql.type.ReturnTypes;
import org.apache.calcite.sql.type.SqlReturnTypeInference;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.type.SqlTypeTransforms;

import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The string and date functions as DuckDB has them (Tessera's reference), for the names Calcite's standard table
 * lacks or types otherwise: lengths and positions are BIGINT counts of code points, CONCAT skips NULLs, DATE_TRUNC
 * of a DATE is a DATE. {@link MathFunctions} looks names up here first. What each computes is decided when the plan
 * is made ({@code plan.TextDateCalls}) and when it runs ({@code backend.jvm.lib.TextRuntime}).
 */
final class TextDateFunctions {
    private TextDateFunctions() {
    }

    private static final SqlReturnTypeInference VARCHAR =
            ReturnTypes.explicit(SqlTypeName.VARCHAR).andThen(SqlTypeTransforms.TO_NULLABLE);
    private static final SqlReturnTypeInference BIGINT =
            ReturnTypes.explicit(SqlTypeName.BIGINT).andThen(SqlTypeTransforms.TO_NULLABLE);
    private static final SqlReturnTypeInference BOOLEAN =
            ReturnTypes.explicit(SqlTypeName.BOOLEAN).andThen(SqlTypeTransforms.TO_NULLABLE);

    private static SqlFunction fn(String name, SqlReturnTypeInference type,
                                  org.apache.calcite.sql.type.SqlOperandTypeChecker operands) {
        return new SqlFunction(name, SqlKind.OTHER_FUNCTION, type, null, operands, SqlFunctionCategory.STRING);
    }

    /** A new UUID on every call: never folded, never taken for a constant. */
    private static SqlFunction randomUuid(String name) {
        return new SqlFunction(name, SqlKind.OTHER_FUNCTION, ReturnTypes.explicit(SqlTypeName.UUID), null,
                OperandTypes.NILADIC, SqlFunctionCategory.SYSTEM) {
            @Override
            public boolean isDeterministic() {
                return false;
            }
        };
    }

    private static final org.apache.calcite.sql.type.SqlOperandTypeChecker STRING_INT =
            OperandTypes.family(SqlTypeFamily.STRING, SqlTypeFamily.INTEGER);
    private static final org.apache.calcite.sql.type.SqlOperandTypeChecker STRING_INT_OPT_INT =
            OperandTypes.family(java.util.List.of(SqlTypeFamily.STRING, SqlTypeFamily.INTEGER, SqlTypeFamily.INTEGER),
                    i -> i == 2);
    private static final org.apache.calcite.sql.type.SqlOperandTypeChecker STRING_OPT_STRING =
            OperandTypes.family(java.util.List.of(SqlTypeFamily.STRING, SqlTypeFamily.STRING), i -> i == 1);
    private static final org.apache.calcite.sql.type.SqlOperandTypeChecker STRING_STRING_OPT_STRING =
            OperandTypes.family(java.util.List.of(SqlTypeFamily.STRING, SqlTypeFamily.STRING, SqlTypeFamily.STRING),
                    i -> i == 2);
    private static final org.apache.calcite.sql.type.SqlOperandTypeChecker STRING_X3_OPT_STRING =
            OperandTypes.family(java.util.List.of(SqlTypeFamily.STRING, SqlTypeFamily.STRING, SqlTypeFamily.STRING,
                    SqlTypeFamily.STRING), i -> i == 3);

    /** Functions by upper-case name; a name maps to one function (its operand count is checked by Calcite). */
    private static final Map<String, SqlOperator> FUNCTIONS = Map.ofEntries(
            Map.entry("SUBSTR", fn("SUBSTR", VARCHAR, STRING_INT_OPT_INT)),
            Map.entry("STRPOS", fn("STRPOS", BIGINT, OperandTypes.STRING_STRING)),
            Map.entry("INSTR", fn("INSTR", BIGINT, OperandTypes.STRING_STRING)),
            Map.entry("LENGTH", fn("LENGTH", BIGINT, OperandTypes.STRING)),
            Map.entry("CHAR_LENGTH", fn("CHAR_LENGTH", BIGINT, OperandTypes.STRING)),
            Map.entry("CHARACTER_LENGTH", fn("CHARACTER_LENGTH", BIGINT, OperandTypes.STRING)),
            Map.entry("STRLEN", fn("STRLEN", BIGINT, OperandTypes.STRING)),
            Map.entry("LTRIM", fn("LTRIM", VARCHAR, STRING_OPT_STRING)),
            Map.entry("RTRIM", fn("RTRIM", VARCHAR, STRING_OPT_STRING)),
            Map.entry("LPAD", fn("LPAD", VARCHAR, OperandTypes.family(SqlTypeFamily.STRING, SqlTypeFamily.INTEGER,
                    SqlTypeFamily.STRING))),
            Map.entry("RPAD", fn("RPAD", VARCHAR, OperandTypes.family(SqlTypeFamily.STRING, SqlTypeFamily.INTEGER,
                    SqlTypeFamily.STRING))),
            Map.entry("LEFT", fn("LEFT", VARCHAR, STRING_INT)),
            Map.entry("RIGHT", fn("RIGHT", VARCHAR, STRING_INT)),
            Map.entry("REPEAT", fn("REPEAT", VARCHAR, STRING_INT)),
            Map.entry("CONCAT", fn("CONCAT", ReturnTypes.explicit(SqlTypeName.VARCHAR),
                    OperandTypes.repeat(org.apache.calcite.sql.type.SqlOperandCountRanges.from(1), OperandTypes.ANY))),
            Map.entry("CONCAT_WS", fn("CONCAT_WS", ReturnTypes.explicit(SqlTypeName.VARCHAR)
                    .andThen(SqlTypeTransforms.ARG0_NULLABLE),
                    OperandTypes.repeat(org.apache.calcite.sql.type.SqlOperandCountRanges.from(2), OperandTypes.ANY))),
            Map.entry("REGEXP_MATCHES", fn("REGEXP_MATCHES", BOOLEAN, STRING_STRING_OPT_STRING)),
            Map.entry("REGEXP_FULL_MATCH", fn("REGEXP_FULL_MATCH", BOOLEAN, STRING_STRING_OPT_STRING)),
            Map.entry("REGEXP_REPLACE", fn("REGEXP_REPLACE", VARCHAR, STRING_X3_OPT_STRING)),
            Map.entry("OCTET_LENGTH", fn("OCTET_LENGTH", BIGINT, OperandTypes.BINARY)),
            // DuckDB's name of its argument's type, known when the query is planned
            Map.entry("TYPEOF", fn("TYPEOF", ReturnTypes.explicit(SqlTypeName.VARCHAR), OperandTypes.ANY)),
            Map.entry("ENCODE", fn("ENCODE", ReturnTypes.explicit(SqlTypeName.VARBINARY)
                    .andThen(SqlTypeTransforms.TO_NULLABLE), OperandTypes.CHARACTER)),
            Map.entry("DECODE", fn("DECODE", VARCHAR, OperandTypes.BINARY)),
            Map.entry("GEN_RANDOM_UUID", randomUuid("GEN_RANDOM_UUID")),
            Map.entry("UUID", randomUuid("UUID")),
            Map.entry("ILIKE", SqlLibraryOperators.ILIKE),
            Map.entry("NOT ILIKE", SqlLibraryOperators.NOT_ILIKE));

    /**
     * Functions of Calcite's standard table that run as DuckDB runs them (their names as Calcite spells them), and
     * whose constant calls must not be folded by Calcite, which would compute them its own way (UTF-16 units,
     * Sunday as day 1).
     */
    private static final Set<String> STANDARD = Set.of("SUBSTRING", "POSITION", "TRIM", "REPLACE", "CURRENT_DATE",
            "SIMILAR TO", "NOT SIMILAR TO", "EXTRACT", "DAYOFWEEK", "TESSERA_DATE_DIFF", "TESSERA_DATE_ADD");

    /**
     * Calcite's rules of which CASTs exist, with BOOLEAN to every number added (TRUE is 1, FALSE 0), as DuckDB
     * allows them.
     */
    static final org.apache.calcite.sql.type.SqlTypeMappingRule CASTS = castRules();

    private static org.apache.calcite.sql.type.SqlTypeMappingRule castRules() {
        Map<SqlTypeName, com.google.common.collect.ImmutableSet<SqlTypeName>> rules =
                new java.util.HashMap<>(org.apache.calcite.sql.type.SqlTypeCoercionRule.instance().getTypeMapping());
        for (SqlTypeName n : List.of(SqlTypeName.TINYINT, SqlTypeName.SMALLINT, SqlTypeName.INTEGER,
                SqlTypeName.BIGINT, SqlTypeName.DECIMAL, SqlTypeName.DOUBLE, SqlTypeName.FLOAT, SqlTypeName.REAL)) {
            rules.put(n, com.google.common.collect.ImmutableSet.<SqlTypeName>builder().addAll(rules.get(n))
                    .add(SqlTypeName.BOOLEAN).build());
        }
        return org.apache.calcite.sql.type.SqlTypeCoercionRule.instance(rules);
    }

    /**
     * The function of this upper-case name, or null; binary + and - are {@link DateArithmetic}'s, // is
     * {@link IntegerDivision}'s, ** and ^ {@link PowerOperator}'s (the validator looks an operator up again by name when it derives a call's type).
     */
    static SqlOperator lookup(String name, org.apache.calcite.sql.SqlSyntax syntax) {
        if (syntax == org.apache.calcite.sql.SqlSyntax.BINARY && (name.equals("+") || name.equals("-"))) {
            return name.equals("+") ? DateArithmetic.PLUS : DateArithmetic.MINUS;
        }
        if (name.equals("EXTRACT")) {
            return IntervalSyntax.EXTRACT; // Calcite's, taking every unit of an INTERVAL
        }
        if (syntax == org.apache.calcite.sql.SqlSyntax.POSTFIX && name.equals("::INTERVAL")) {
            return IntervalSyntax.INFIX_INTERVAL;
        }
        if (syntax == org.apache.calcite.sql.SqlSyntax.BINARY && name.equals("//")) {
            return IntegerDivision.OPERATOR;
        }
        if (syntax == org.apache.calcite.sql.SqlSyntax.BINARY && PowerOperator.named(name) != null) {
            return PowerOperator.named(name);
        }
        if (BitwiseOperators.named(name, syntax) != null) {
            return BitwiseOperators.named(name, syntax);
        }
        SqlOperator f = FUNCTIONS.get(name);
        if (f == null) {
            f = ListOperators.lookup(name);
        }
        if (f == null) {
            f = StructOperators.lookup(name);
        }
        if (f == null) {
            f = MapOperators.lookup(name);
        }
        if (f == null) {
            f = SplitSortFunctions.lookup(name);
        }
        if (f == null) {
            f = ListSelectFunctions.lookup(name);
        }
        if (f == null) {
            f = DateConstructors.lookup(name);
        }
        if (f == null) {
            f = TimeBucketFunctions.lookup(name);
        }
        if (f == null) {
            f = FormatFunctions.lookup(name);
        }
        if (f == null) {
            f = StringDistanceFunctions.lookup(name);
        }
        if (f == null) {
            f = PathFunctions.lookup(name);
        }
        if (f == null) {
            f = JsonFunctions.lookup(name);
        }
        if (f == null) {
            f = UnicodeFunctions.lookup(name);
        }
        if (f == null) {
            f = UuidFunctions.lookup(name);
        }
        if (f == null) {
            f = ListAggregateFunctions.lookup(name);
        }
        if (f == null) {
            f = SliceFunctions.lookup(name);
        }
        if (f == null) {
            f = LambdaFunctions.lookup(name);
        }
        return f != null ? f : TimestampFunctions.lookup(name);
    }

    /** Every function defined here, for the operator list. */
    static java.util.Collection<SqlOperator> all() {
        List<SqlOperator> all = new java.util.ArrayList<>(FUNCTIONS.values());
        all.addAll(TimestampFunctions.all());
        all.addAll(DateConstructors.all());
        all.addAll(TimeBucketFunctions.all());
        all.addAll(FormatFunctions.all());
        all.addAll(StringDistanceFunctions.all());
        all.addAll(PathFunctions.all());
        all.addAll(JsonFunctions.all());
        all.addAll(UnicodeFunctions.all());
        all.addAll(UuidFunctions.all());
        all.addAll(ListAggregateFunctions.all());
        all.addAll(ListOperators.all());
        all.addAll(StructOperators.all());
        all.addAll(MapOperators.all());
        all.addAll(SplitSortFunctions.all());
        all.addAll(ListSelectFunctions.all());
        all.addAll(SliceFunctions.all());
        all.addAll(LambdaFunctions.all());
        all.add(LambdaFunctions.COMPREHENSION);
        return all;
    }

    /** Whether a call of this kind and upper-case name is one of the functions that run (for {@link SupportCheck}). */
    static boolean supports(SqlKind kind, String name) {
        return FUNCTIONS.containsKey(name) || STANDARD.contains(name) || TimestampFunctions.lookup(name) != null
                || DateConstructors.lookup(name) != null || StringDistanceFunctions.has(name)
                || PathFunctions.lookup(name) != null || JsonFunctions.lookup(name) != null
                || UnicodeFunctions.lookup(name) != null
                || UuidFunctions.lookup(name) != null
                || TimeBucketFunctions.lookup(name) != null || FormatFunctions.lookup(name) != null
                || ListAggregateFunctions.lookup(name) != null
                || TimestampFunctions.STANDARD.contains(name) || ListOperators.supports(kind, name) || StructOperators.supports(kind, name) || kind == SqlKind.SIMILAR
                || MapOperators.supports(name)
                || SplitSortFunctions.has(name) || ListSelectFunctions.has(name)
                || SliceFunctions.has(name) || LambdaFunctions.has(name)
                || kind == SqlKind.POSITION || kind == SqlKind.TRIM;
    }

    /** Whether Calcite must leave a constant call of this (upper-case) operator name unfolded. */
    static boolean unfolded(String name) {
        return FUNCTIONS.containsKey(name) || STANDARD.contains(name) || TimestampFunctions.lookup(name) != null
                || DateConstructors.lookup(name) != null || StringDistanceFunctions.has(name)
                || PathFunctions.lookup(name) != null || JsonFunctions.lookup(name) != null
                || UnicodeFunctions.lookup(name) != null
                || UuidFunctions.lookup(name) != null
                || TimeBucketFunctions.lookup(name) != null || FormatFunctions.lookup(name) != null
                || ListAggregateFunctions.lookup(name) != null
                || TimestampFunctions.STANDARD.contains(name) || ListOperators.unfolded(name) || StructOperators.unfolded(name)
                || MapOperators.unfolded(name)
                || SplitSortFunctions.has(name) || ListSelectFunctions.has(name)
                || SliceFunctions.has(name) || LambdaFunctions.has(name)
                || name.equals("UPPER") || name.equals("LOWER")
                || name.equals("||");
    }
}

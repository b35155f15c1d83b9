package io.tessera.sql;

import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.sql.SqlAggFunction;
import org.apache.calcite.sql.SqlBasicTypeNameSpec;
import org.apache.calcite.sql.SqlDataTypeSpec;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlFunctionCategory;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlOperatorBinding;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.type.OperandTypes;
import org.apache.calcite.sql.type.ReturnTypes;
import org.apache.calcite.sql.type.SqlOperandTypeChecker;
import org.apache.calcite.sql.type.SqlReturnTypeInference;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.util.SqlShuttle;
import org.apache.calcite.util.Optionality;

import java.util.List;
import java.util.Locale;

/**
 * DuckDB's aggregates that need all of a group's values, not a running state: MEDIAN, QUANTILE_CONT,
 * QUANTILE_DISC (QUANTILE is its other name), MODE and STRING_AGG (LISTAGG and GROUP_CONCAT are its other names).
 * Their result types are DuckDB's: a continuous quantile of integers is a DOUBLE, of a DECIMAL, DOUBLE or TIMESTAMP
 * the argument's type, of a DATE a TIMESTAMP, and of anything else (strings, booleans) the discrete quantile's;
 * a discrete quantile and MODE give the argument's type; STRING_AGG a VARCHAR. Every result may be NULL (no
 * values). The fraction and the separator must be constants; {@code plan.PhysicalPlanner} checks that.
 */
final class HolisticAggregates {

    private HolisticAggregates() {
    }

    static final SqlAggFunction MEDIAN = function("MEDIAN", HolisticAggregates::continuousType, OperandTypes.ANY);
    static final SqlAggFunction QUANTILE_CONT = function("QUANTILE_CONT", HolisticAggregates::continuousType,
            OperandTypes.family(SqlTypeFamily.ANY, SqlTypeFamily.NUMERIC));
    static final SqlAggFunction QUANTILE_DISC = function("QUANTILE_DISC", HolisticAggregates::argumentType,
            OperandTypes.family(SqlTypeFamily.ANY, SqlTypeFamily.NUMERIC));
    static final SqlAggFunction QUANTILE = function("QUANTILE", HolisticAggregates::argumentType,
            OperandTypes.family(SqlTypeFamily.ANY, SqlTypeFamily.NUMERIC));
    static final SqlAggFunction MODE = function("MODE", HolisticAggregates::argumentType, OperandTypes.ANY);

    private static final SqlOperandTypeChecker VALUE_AND_SEPARATOR = OperandTypes.or(OperandTypes.ANY,
            OperandTypes.family(SqlTypeFamily.ANY, SqlTypeFamily.CHARACTER));
    static final SqlAggFunction STRING_AGG = function("STRING_AGG", HolisticAggregates::textType, VALUE_AND_SEPARATOR);
    static final SqlAggFunction LISTAGG = function("LISTAGG", HolisticAggregates::textType, VALUE_AND_SEPARATOR);
    static final SqlAggFunction GROUP_CONCAT = function("GROUP_CONCAT", HolisticAggregates::textType, VALUE_AND_SEPARATOR);

    /** DuckDB's LIST (ARRAY_AGG its other name): the group's values, NULLs included, as a list. */
    static final SqlAggFunction LIST = function("LIST", HolisticAggregates::listType, OperandTypes.ANY);
    /**
     * ARRAY_AGG as Calcite's grammar reads it (an ORDER BY inside its parentheses), typed as LIST is: Calcite's own
     * types a group's list of non-NULL values NOT NULL where the query's aggregate is nullable.
     */
    static final SqlAggFunction ARRAY_AGG = org.apache.calcite.sql.fun.SqlBasicAggFunction.create("ARRAY_AGG",
                    SqlKind.ARRAY_AGG, ReturnTypes.andThen(ReturnTypes::stripOrderBy, HolisticAggregates::listType),
                    OperandTypes.ANY)
            .withFunctionType(SqlFunctionCategory.SYSTEM).withSyntax(org.apache.calcite.sql.SqlSyntax.ORDERED_FUNCTION);

    /**
     * STRING_AGG and GROUP_CONCAT with an ORDER BY inside their parentheses, typed as STRING_AGG is. Calcite's
     * converter would make such a call its LISTAGG WITHIN GROUP, whose type is its value's: NOT NULL for a value that
     * is never NULL, where the aggregate (NULL over no rows) is nullable, a mismatch Calcite's checks reject. Of the
     * kind ARRAY_AGG, the only one whose inner ORDER BY the converter takes as the call's order and keeps the call's
     * own function.
     */
    private static final SqlAggFunction ORDERED_STRING_AGG = orderedText("STRING_AGG");
    /** LIST with an ORDER BY inside its parentheses, of the kind ARRAY_AGG for the same reason. */
    private static final SqlAggFunction ORDERED_LIST = org.apache.calcite.sql.fun.SqlBasicAggFunction.create("LIST",
                    SqlKind.ARRAY_AGG, ReturnTypes.andThen(ReturnTypes::stripOrderBy, HolisticAggregates::listType),
                    OperandTypes.ANY)
            .withFunctionType(SqlFunctionCategory.SYSTEM).withSyntax(org.apache.calcite.sql.SqlSyntax.ORDERED_FUNCTION);
    private static final SqlAggFunction ORDERED_GROUP_CONCAT = orderedText("GROUP_CONCAT");
    /**
     * MODE with an ORDER BY inside its parentheses, of the kind ARRAY_AGG for the same reason: the order breaks its
     * ties, the value first in it winning, as in DuckDB.
     */
    private static final SqlAggFunction ORDERED_MODE = org.apache.calcite.sql.fun.SqlBasicAggFunction.create("MODE",
                    SqlKind.ARRAY_AGG, ReturnTypes.andThen(ReturnTypes::stripOrderBy, HolisticAggregates::argumentType),
                    OperandTypes.ANY)
            .withFunctionType(SqlFunctionCategory.SYSTEM).withSyntax(org.apache.calcite.sql.SqlSyntax.ORDERED_FUNCTION);

    /** DuckDB's ENTROPY of any values: a DOUBLE, 0 over no values. */
    static final SqlAggFunction ENTROPY = function("ENTROPY", ReturnTypes.DOUBLE, OperandTypes.ANY);

    /**
     * DuckDB's MAD, the median absolute deviation, of integers and DOUBLEs: a DOUBLE. DuckDB's of a DECIMAL is a
     * DECIMAL and of dates an INTERVAL, which Tessera does not compute yet.
     */
    static final SqlAggFunction MAD = function("MAD", HolisticAggregates::madType, OperandTypes.ANY);

    static final List<SqlAggFunction> ALL = List.of(MEDIAN, QUANTILE_CONT, QUANTILE_DISC, QUANTILE, MODE, STRING_AGG,
            LISTAGG, GROUP_CONCAT, LIST, ARRAY_AGG, ENTROPY, MAD);

    private static SqlAggFunction orderedText(String name) {
        return org.apache.calcite.sql.fun.SqlBasicAggFunction.create(name, SqlKind.ARRAY_AGG,
                        ReturnTypes.andThen(ReturnTypes::stripOrderBy, HolisticAggregates::textType),
                        VALUE_AND_SEPARATOR)
                .withFunctionType(SqlFunctionCategory.SYSTEM)
                .withSyntax(org.apache.calcite.sql.SqlSyntax.ORDERED_FUNCTION);
    }

    /** The aggregates that may have an ORDER BY inside their parentheses. */
    private static final java.util.Set<String> ORDERED = java.util.Set.of("STRING_AGG", "GROUP_CONCAT", "LIST",
            "ARRAY_AGG", "MODE");

    private static SqlAggFunction function(String name, SqlReturnTypeInference type, SqlOperandTypeChecker operands) {
        return new SqlAggFunction(name, null, SqlKind.OTHER_FUNCTION, type, null, operands,
                SqlFunctionCategory.SYSTEM, false, false, Optionality.FORBIDDEN) {
        };
    }

    /**
     * Refuses an ORDER BY inside the parentheses of a call other than the aggregates that take one (the grammar
     * gives {@code list(x ORDER BY y)} as a last operand holding the ORDER BY list; sql.OrderedAggregates rewrites
     * the others it allows), naming the call and its position.
     */
    static void checkOrder(SqlCall call) {
        List<SqlNode> operands = call.getOperandList();
        // an alias is checked as the function it names (arbitrary as first), as it is rewritten to it later
        String name = FunctionAliases.resolve(call.getOperator().getName().toUpperCase(Locale.ROOT));
        if (!call.getOperator().isAggregator()
                && !(call.getOperator() instanceof org.apache.calcite.sql.SqlUnresolvedFunction)) {
            return; // an operator or a constructor of the grammar, whose lists are not ORDER BYs
        }
        if (!ORDERED.contains(name) && !OrderedAggregates.orderAllowed(name)
                && !operands.isEmpty() && operands.get(operands.size() - 1) instanceof SqlNodeList) {
            throw SupportCheck.unsupported("ORDER BY inside " + call.getOperator().getName().toLowerCase(Locale.ROOT)
                    + "(...)", call.getParserPosition());
        }
    }

    /**
     * The parsed statement with every key of an ORDER BY inside STRING_AGG's or GROUP_CONCAT's parentheses that names
     * no NULLS order made NULLS LAST, DuckDB's default (Calcite would put NULLs first in a descending order there),
     * and such a call made {@link #ORDERED_STRING_AGG}'s (or GROUP_CONCAT's) with its value cast to VARCHAR;
     * Calcite's ARRAY_AGG replaced by {@link #ARRAY_AGG}.
     */
    static SqlNode nullsLastInside(SqlNode parsed) {
        parsed.accept(new SqlShuttle() {
            @Override
            public SqlNode visit(SqlCall call) {
                if (call.getOperator() == org.apache.calcite.sql.fun.SqlLibraryOperators.ARRAY_AGG
                        && call instanceof org.apache.calcite.sql.SqlBasicCall basic) {
                    basic.setOperator(ARRAY_AGG);
                }
                if (call.getKind() == SqlKind.OVER && call.operand(0) instanceof SqlCall windowed
                        && ORDERED.contains(windowed.getOperator().getName().toUpperCase(Locale.ROOT))
                        && windowed.operandCount() > 0
                        && windowed.getOperandList().get(windowed.operandCount() - 1) instanceof SqlNodeList) {
                    // the converter has no window form of an aggregate ordered inside its parentheses
                    throw SupportCheck.unsupported("window function " + windowed.getOperator().getName()
                            .toLowerCase(Locale.ROOT) + "(... ORDER BY ...)", windowed.getParserPosition());
                }
                List<SqlNode> operands = call.getOperandList();
                String name = call.getOperator().getName().toUpperCase(Locale.ROOT);
                if (ORDERED.contains(name) && !operands.isEmpty()
                        && operands.get(operands.size() - 1) instanceof SqlNodeList order) {
                    if ((name.equals("LIST") || name.equals("MODE"))
                            && call instanceof org.apache.calcite.sql.SqlBasicCall basic) {
                        basic.setOperator(name.equals("LIST") ? ORDERED_LIST : ORDERED_MODE);
                    }
                    if ((name.equals("STRING_AGG") || name.equals("GROUP_CONCAT"))
                            && call instanceof org.apache.calcite.sql.SqlBasicCall basic) {
                        basic.setOperator(name.equals("STRING_AGG") ? ORDERED_STRING_AGG : ORDERED_GROUP_CONCAT);
                        SqlNode value = operands.get(0);
                        call.setOperand(0, SqlStdOperatorTable.CAST.createCall(value.getParserPosition(), value,
                                new SqlDataTypeSpec(new SqlBasicTypeNameSpec(SqlTypeName.VARCHAR,
                                        value.getParserPosition()), value.getParserPosition())));
                    }
                    for (int i = 0; i < order.size(); i++) {
                        SqlNode key = order.get(i);
                        if (key.getKind() != SqlKind.NULLS_FIRST && key.getKind() != SqlKind.NULLS_LAST) {
                            order.set(i, SqlStdOperatorTable.NULLS_LAST.createCall(key.getParserPosition(), key));
                        }
                    }
                }
                return super.visit(call);
            }
        });
        return parsed;
    }

    /** MEDIAN's and QUANTILE_CONT's type (DuckDB's): see the class comment. */
    private static RelDataType continuousType(SqlOperatorBinding b) {
        RelDataTypeFactory f = b.getTypeFactory();
        RelDataType arg = b.getOperandType(0);
        RelDataType t = switch (arg.getSqlTypeName()) {
            case TINYINT, SMALLINT, INTEGER, BIGINT -> f.createSqlType(SqlTypeName.DOUBLE);
            case DATE -> f.createSqlType(SqlTypeName.TIMESTAMP);
            default -> arg;
        };
        return f.createTypeWithNullability(t, true);
    }

    private static RelDataType madType(SqlOperatorBinding b) {
        RelDataType arg = b.getOperandType(0);
        switch (arg.getSqlTypeName()) {
            case TINYINT, SMALLINT, INTEGER, BIGINT, FLOAT, REAL, DOUBLE, NULL -> {
                RelDataTypeFactory f = b.getTypeFactory();
                return f.createTypeWithNullability(f.createSqlType(SqlTypeName.DOUBLE), true);
            }
            default -> {
                String at = b instanceof org.apache.calcite.sql.SqlCallBinding call
                        ? SupportCheck.at(call.getCall().getParserPosition()) : "";
                throw new SqlError("unsupported: mad of " + arg.getFullTypeString() + at
                        + " (of integers and DOUBLEs only; CAST a DECIMAL to DOUBLE)");
            }
        }
    }

    private static RelDataType argumentType(SqlOperatorBinding b) {
        return b.getTypeFactory().createTypeWithNullability(b.getOperandType(0), true);
    }

    private static RelDataType listType(SqlOperatorBinding b) {
        RelDataTypeFactory f = b.getTypeFactory();
        return f.createTypeWithNullability(f.createArrayType(b.getOperandType(0), -1), true);
    }

    private static RelDataType textType(SqlOperatorBinding b) {
        RelDataTypeFactory f = b.getTypeFactory();
        return f.createTypeWithNullability(f.createSqlType(SqlTypeName.VARCHAR), true);
    }
}

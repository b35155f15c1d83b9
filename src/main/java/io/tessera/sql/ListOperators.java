package io.tessera.sql;

import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.sql.SqlFunction;
import org.apache.calcite.sql.SqlFunctionCategory;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlOperatorBinding;
import org.apache.calcite.sql.type.OperandTypes;
import org.apache.calcite.sql.type.ReturnTypes;
import org.apache.calcite.sql.type.SqlReturnTypeInference;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.type.SqlTypeTransforms;

import java.util.Map;
import java.util.Set;

/**
 * The LIST functions as DuckDB names them, typed on Calcite's ARRAY: {@code list_value(a, b)} (as {@code [a, b]},
 * which the parser reads as Calcite's ARRAY constructor), {@code len} and {@code array_length}, {@code flatten}, {@code list_contains}
 * and its other names, {@code list_extract} (as {@code l[i]}, Calcite's ITEM). What they compute is decided in
 * {@code plan.ListCalls} and run by {@code backend.jvm.lib.ListRuntime}; none is folded by Calcite, whose indexes and
 * NULL rules differ.
 */
final class ListOperators {
    private ListOperators() {
    }

    private static final SqlReturnTypeInference BIGINT =
            ReturnTypes.explicit(SqlTypeName.BIGINT).andThen(SqlTypeTransforms.TO_NULLABLE);
    private static final SqlReturnTypeInference BOOLEAN =
            ReturnTypes.explicit(SqlTypeName.BOOLEAN).andThen(SqlTypeTransforms.TO_NULLABLE);

    /**
     * The list of the arguments: an array of their common type, never NULL itself; without arguments a list of the
     * NULL type, as DuckDB's {@code []}, which a cast, a comparison or a column converts to its list type (an INTEGER[]
     * where nothing does).
     */
    private static RelDataType listOf(SqlOperatorBinding b) {
        if (b.getOperandCount() == 0) {
            return b.getTypeFactory().createArrayType(b.getTypeFactory().createSqlType(SqlTypeName.NULL), -1);
        }
        RelDataType element = b.getTypeFactory().leastRestrictive(b.collectOperandTypes());
        if (element == null) {
            throw new SqlError("unsupported: a list of values without a common type (" + b.collectOperandTypes() + ")");
        }
        return b.getTypeFactory().createArrayType(element, -1);
    }

    /** An element of the list (its first operand): the element type, NULL where the index is out of range. */
    private static RelDataType elementOf(SqlOperatorBinding b) {
        RelDataType list = b.getOperandType(0);
        RelDataType element = list.getComponentType();
        if (element == null) {
            throw new SqlError("unsupported: an element of a " + list + " (not a list)");
        }
        return b.getTypeFactory().createTypeWithNullability(element, true);
    }

    /** The elements of a list of lists as one list: the inner list type, NULL where the list is. */
    private static RelDataType flattened(SqlOperatorBinding b) {
        RelDataType list = b.getOperandType(0);
        RelDataType inner = list.getComponentType();
        if (inner != null && inner.getSqlTypeName() == SqlTypeName.NULL) {
            return list; // flatten([]) is [], as DuckDB gives it
        }
        if (inner == null || inner.getComponentType() == null) {
            String at = b instanceof org.apache.calcite.sql.SqlCallBinding call
                    ? SupportCheck.at(call.getCall().getParserPosition()) : "";
            throw new SqlError("unsupported: flatten of " + list + " values" + at + " (flatten takes a list of lists)");
        }
        return b.getTypeFactory().createTypeWithNullability(inner, list.isNullable());
    }

    private static SqlFunction fn(String name, SqlReturnTypeInference type,
                                  org.apache.calcite.sql.type.SqlOperandTypeChecker operands) {
        return new SqlFunction(name, SqlKind.OTHER_FUNCTION, type, null, operands, SqlFunctionCategory.SYSTEM);
    }

    private static final SqlFunction LIST_VALUE = fn("LIST_VALUE", ListOperators::listOf, OperandTypes.VARIADIC);
    private static final org.apache.calcite.sql.type.SqlOperandTypeChecker LIST_ANY =
            StructLookups.byName(OperandTypes.family(SqlTypeFamily.ARRAY, SqlTypeFamily.ANY));
    private static final org.apache.calcite.sql.type.SqlOperandTypeChecker LIST_INTEGER =
            OperandTypes.family(SqlTypeFamily.ARRAY, SqlTypeFamily.INTEGER);

    /** range(...) and generate_series(...) in an expression: a BIGINT[], NULL where an argument is. */
    private static RelDataType series(SqlOperatorBinding b) {
        var types = b.getTypeFactory();
        RelDataType list = types.createArrayType(types.createSqlType(SqlTypeName.BIGINT), -1);
        boolean nullable = b.collectOperandTypes().stream().anyMatch(RelDataType::isNullable);
        return types.createTypeWithNullability(list, nullable);
    }

    private static final org.apache.calcite.sql.type.SqlOperandTypeChecker SERIES = OperandTypes.or(
            OperandTypes.family(SqlTypeFamily.INTEGER),
            OperandTypes.family(SqlTypeFamily.INTEGER, SqlTypeFamily.INTEGER),
            OperandTypes.family(SqlTypeFamily.INTEGER, SqlTypeFamily.INTEGER, SqlTypeFamily.INTEGER));

    /** Functions by upper-case name. */
    private static final Map<String, SqlOperator> FUNCTIONS = Map.ofEntries(
            Map.entry("LIST_VALUE", LIST_VALUE),
            Map.entry("LIST_PACK", fn("LIST_PACK", ListOperators::listOf, OperandTypes.VARIADIC)),
            Map.entry("LEN", fn("LEN", BIGINT, OperandTypes.ARRAY)),
            Map.entry("FLATTEN", fn("FLATTEN", ListOperators::flattened, OperandTypes.ARRAY)),
            Map.entry("ARRAY_LENGTH", fn("ARRAY_LENGTH", BIGINT, OperandTypes.ARRAY)),
            Map.entry("LIST_CONTAINS", fn("LIST_CONTAINS", BOOLEAN, LIST_ANY)),
            Map.entry("LIST_HAS", fn("LIST_HAS", BOOLEAN, LIST_ANY)),
            Map.entry("ARRAY_CONTAINS", fn("ARRAY_CONTAINS", BOOLEAN, LIST_ANY)),
            Map.entry("ARRAY_HAS", fn("ARRAY_HAS", BOOLEAN, LIST_ANY)),
            Map.entry("LIST_EXTRACT", fn("LIST_EXTRACT", ListOperators::elementOf, LIST_INTEGER)),
            Map.entry("LIST_ELEMENT", fn("LIST_ELEMENT", ListOperators::elementOf, LIST_INTEGER)),
            Map.entry("ARRAY_EXTRACT", fn("ARRAY_EXTRACT", ListOperators::elementOf, LIST_INTEGER)),
            Map.entry("RANGE", fn("RANGE", ListOperators::series, SERIES)),
            Map.entry("GENERATE_SERIES", fn("GENERATE_SERIES", ListOperators::series, SERIES)));

    /** Calcite's own operators that lists use: the ARRAY constructor ({@code [a, b]}), ITEM ({@code l[i]}). */
    private static final Set<String> STANDARD = Set.of("ARRAY", "ITEM", "CARDINALITY");

    static SqlOperator lookup(String name) {
        return FUNCTIONS.get(name);
    }

    static java.util.Collection<SqlOperator> all() {
        return FUNCTIONS.values();
    }

    /** Whether a call of this kind and upper-case name is one of the list functions (for {@link SupportCheck}). */
    static boolean supports(SqlKind kind, String name) {
        return FUNCTIONS.containsKey(name) || kind == SqlKind.ARRAY_VALUE_CONSTRUCTOR || kind == SqlKind.ITEM;
    }

    /** Whether Calcite must leave a constant call of this (upper-case) operator name unfolded. */
    static boolean unfolded(String name) {
        return FUNCTIONS.containsKey(name) || STANDARD.contains(name) || name.equals("ARRAY_VALUE_CONSTRUCTOR");
    }
}

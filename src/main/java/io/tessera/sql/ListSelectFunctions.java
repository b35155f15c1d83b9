package io.tessera.sql;

import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.sql.SqlCallBinding;
import org.apache.calcite.sql.SqlFunction;
import org.apache.calcite.sql.SqlFunctionCategory;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlOperatorBinding;
import org.apache.calcite.sql.type.OperandTypes;
import org.apache.calcite.sql.type.SqlOperandTypeChecker;
import org.apache.calcite.sql.type.SqlReturnTypeInference;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.type.SqlTypeUtil;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * DuckDB's list functions that pick, pair or rearrange elements: list_zip (a list of unnamed structs), list_select
 * (elements by index), list_where (elements by a BOOLEAN mask), list_grade_up (the indexes that sort a list),
 * list_resize; and the distances of two lists of numbers (list_inner_product, list_distance,
 * list_cosine_similarity, ...), each with DuckDB's other names. What they compute is decided in
 * {@code plan.ListSelectCalls}; none is folded by Calcite.
 */
final class ListSelectFunctions {
    private ListSelectFunctions() {
    }

    private static String named(SqlOperatorBinding b) {
        String at = b instanceof SqlCallBinding call ? SupportCheck.at(call.getCall().getParserPosition()) : "";
        return b.getOperator().getName().toLowerCase(Locale.ROOT) + at;
    }

    /** The element type of list operand {@code i}, or an error naming the function. */
    private static RelDataType element(SqlOperatorBinding b, int i) {
        RelDataType t = b.getOperandType(i);
        if (t.getComponentType() == null || t.getKeyType() != null) {
            throw new SqlError(named(b) + ": argument " + (i + 1) + " must be a list, not " + t.getFullTypeString()
                    + (t.getSqlTypeName() == SqlTypeName.NULL ? " (CAST a NULL to a list type)" : ""));
        }
        return t.getComponentType();
    }

    private static boolean anyNullable(SqlOperatorBinding b, int count) {
        for (int i = 0; i < count; i++) {
            if (b.getOperandType(i).isNullable()) {
                return true;
            }
        }
        return false;
    }

    /** Whether the last operand is list_zip's BOOLEAN flag (truncate to the shortest list). */
    static boolean zipFlag(List<RelDataType> operands) {
        return operands.size() > 1 && operands.getLast().getSqlTypeName() == SqlTypeName.BOOLEAN;
    }

    /**
     * list_zip(l1, l2, ... [, truncate]): a list of unnamed structs, the elements of each list at one position as
     * its fields (NULL past a list's end, or only as many as the shortest list has where truncate); a NULL list as
     * an empty one, so never NULL.
     */
    private static RelDataType zipped(SqlOperatorBinding b) {
        RelDataTypeFactory f = b.getTypeFactory();
        int lists = zipFlag(b.collectOperandTypes()) ? b.getOperandCount() - 1 : b.getOperandCount();
        if (lists == 0) {
            throw new SqlError(named(b) + " needs at least one list");
        }
        List<RelDataType> types = new ArrayList<>();
        List<String> names = new ArrayList<>();
        for (int i = 0; i < lists; i++) {
            types.add(f.createTypeWithNullability(element(b, i), true));
            names.add("EXPR$" + i);
        }
        return f.createArrayType(f.createStructType(types, names), -1);
    }

    /** list_select(l, indexes) and list_where(l, mask): the list's type, NULL where either is. */
    private static SqlReturnTypeInference picked(boolean mask) {
        return b -> {
            RelDataType list = b.getOperandType(0);
            element(b, 0);
            RelDataType by = element(b, 1);
            boolean ok = by.getSqlTypeName() == SqlTypeName.NULL
                    || (mask ? by.getSqlTypeName() == SqlTypeName.BOOLEAN : SqlTypeUtil.isIntType(by));
            if (!ok) {
                throw new SqlError(named(b) + ": argument 2 must be " + (mask ? "a BOOLEAN" : "an integer")
                        + " list, not " + b.getOperandType(1).getFullTypeString());
            }
            RelDataTypeFactory f = b.getTypeFactory();
            RelDataType elements = f.createArrayType(f.createTypeWithNullability(list.getComponentType(), true), -1);
            return f.createTypeWithNullability(elements, anyNullable(b, 2));
        };
    }

    /** list_grade_up(l [, order [, nulls]]): a BIGINT[] of positions from 1, NULL where the list is. */
    private static RelDataType graded(SqlOperatorBinding b) {
        element(b, 0);
        RelDataTypeFactory f = b.getTypeFactory();
        RelDataType list = f.createArrayType(f.createSqlType(SqlTypeName.BIGINT), -1);
        return f.createTypeWithNullability(list, b.getOperandType(0).isNullable());
    }

    /** list_resize(l, size [, fill]): the list's type, NULL where the list is (a NULL size gives the empty list). */
    private static RelDataType resized(SqlOperatorBinding b) {
        element(b, 0);
        RelDataTypeFactory f = b.getTypeFactory();
        RelDataType list = b.getOperandType(0);
        RelDataType elements = f.createArrayType(f.createTypeWithNullability(list.getComponentType(), true), -1);
        return f.createTypeWithNullability(elements, list.isNullable());
    }

    /** The distances of two lists of numbers: a DOUBLE, NULL where either list is. */
    private static RelDataType distance(SqlOperatorBinding b) {
        for (int i = 0; i < 2; i++) {
            RelDataType e = element(b, i);
            if (!SqlTypeUtil.isNumeric(e) && e.getSqlTypeName() != SqlTypeName.NULL) {
                throw new SqlError(named(b) + ": argument " + (i + 1) + " must be a list of numbers, not "
                        + b.getOperandType(i).getFullTypeString());
            }
        }
        RelDataTypeFactory f = b.getTypeFactory();
        return f.createTypeWithNullability(f.createSqlType(SqlTypeName.DOUBLE), anyNullable(b, 2));
    }

    private static SqlFunction fn(String name, SqlReturnTypeInference type, SqlOperandTypeChecker operands) {
        return new SqlFunction(name, SqlKind.OTHER_FUNCTION, type, null, operands, SqlFunctionCategory.SYSTEM);
    }

    private static final SqlOperandTypeChecker LIST_OPT_ORDER_OPT_NULLS = OperandTypes.family(
            List.of(SqlTypeFamily.ARRAY, SqlTypeFamily.CHARACTER, SqlTypeFamily.CHARACTER), i -> i > 0);
    private static final SqlOperandTypeChecker LIST_SIZE_OPT_FILL = OperandTypes.family(
            List.of(SqlTypeFamily.ARRAY, SqlTypeFamily.INTEGER, SqlTypeFamily.ANY), i -> i == 2);

    /** The names of each function, DuckDB's other names after the first. */
    private static final Map<String, List<String>> NAMES = Map.of(
            "LIST_ZIP", List.of("LIST_ZIP", "ARRAY_ZIP"),
            "LIST_SELECT", List.of("LIST_SELECT", "ARRAY_SELECT"),
            "LIST_WHERE", List.of("LIST_WHERE", "ARRAY_WHERE"),
            "LIST_GRADE_UP", List.of("LIST_GRADE_UP", "ARRAY_GRADE_UP", "GRADE_UP"),
            "LIST_RESIZE", List.of("LIST_RESIZE", "ARRAY_RESIZE"),
            "LIST_INNER_PRODUCT", List.of("LIST_INNER_PRODUCT", "LIST_DOT_PRODUCT"),
            "LIST_NEGATIVE_INNER_PRODUCT", List.of("LIST_NEGATIVE_INNER_PRODUCT", "LIST_NEGATIVE_DOT_PRODUCT"),
            "LIST_DISTANCE", List.of("LIST_DISTANCE"),
            "LIST_COSINE_SIMILARITY", List.of("LIST_COSINE_SIMILARITY"),
            "LIST_COSINE_DISTANCE", List.of("LIST_COSINE_DISTANCE"));

    /** The first name of the function named {@code name} (in upper case), or null where it is none of these. */
    static String canonical(String name) {
        for (Map.Entry<String, List<String>> e : NAMES.entrySet()) {
            if (e.getValue().contains(name)) {
                return e.getKey();
            }
        }
        return null;
    }

    private static SqlFunction typed(String name) {
        return switch (canonical(name)) {
            case "LIST_ZIP" -> fn(name, ListSelectFunctions::zipped, OperandTypes.VARIADIC);
            case "LIST_SELECT" -> fn(name, picked(false), OperandTypes.family(SqlTypeFamily.ARRAY,
                    SqlTypeFamily.ARRAY));
            case "LIST_WHERE" -> fn(name, picked(true), OperandTypes.family(SqlTypeFamily.ARRAY, SqlTypeFamily.ARRAY));
            case "LIST_GRADE_UP" -> fn(name, ListSelectFunctions::graded, LIST_OPT_ORDER_OPT_NULLS);
            case "LIST_RESIZE" -> fn(name, ListSelectFunctions::resized, LIST_SIZE_OPT_FILL);
            default -> fn(name, ListSelectFunctions::distance, OperandTypes.family(SqlTypeFamily.ARRAY,
                    SqlTypeFamily.ARRAY));
        };
    }

    /** Functions by upper-case name. */
    private static final Map<String, SqlOperator> FUNCTIONS = functions();

    private static Map<String, SqlOperator> functions() {
        Map<String, SqlOperator> all = new java.util.HashMap<>();
        for (List<String> names : NAMES.values()) {
            for (String n : names) {
                all.put(n, typed(n));
            }
        }
        return Map.copyOf(all);
    }

    static SqlOperator lookup(String name) {
        return FUNCTIONS.get(name);
    }

    static java.util.Collection<SqlOperator> all() {
        return FUNCTIONS.values();
    }

    /** Whether this upper-case name is one of these functions (for {@link SupportCheck}, and never folded). */
    static boolean has(String name) {
        return FUNCTIONS.containsKey(name);
    }
}

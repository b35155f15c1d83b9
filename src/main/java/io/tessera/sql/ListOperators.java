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

import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The LIST functions as DuckDB names them, typed on Calcite's ARRAY: {@code list_value(a, b)} (as {@code [a, b]},
 * which the parser reads as Calcite's ARRAY constructor), {@code len} and {@code array_length}, {@code flatten}, {@code list_contains}
 * and its other names, {@code list_extract} (as {@code l[i]}, Calcite's ITEM), {@code list_concat}, {@code list_append}
 * and {@code list_prepend} with their other names. What they compute is decided in
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
    /** list_position's: an INTEGER, NULL where no element is equal. */
    private static final SqlReturnTypeInference POSITION =
            ReturnTypes.explicit(SqlTypeName.INTEGER).andThen(SqlTypeTransforms.FORCE_NULLABLE);

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

    /**
     * list_concat's list (and list_append's, list_prepend's, whose value is a list of one): a list of the common type of
     * the lists' elements in the order given ({@code list_prepend({'b': 2}, [{'a': 1}])}'s structs have b first, as in
     * DuckDB); a NULL list counts as none.
     */
    private static RelDataType concatenated(SqlOperatorBinding b, String name, List<RelDataType> elements,
                                            boolean nullable) {
        var types = b.getTypeFactory();
        // the common type of the lists, not of their elements: a list literal's structs are typed as relation rows,
        // whose common type by name only lists of them have (StructCommonType)
        List<RelDataType> lists = elements.stream().filter(t -> t.getSqlTypeName() != SqlTypeName.NULL)
                .map(t -> types.createArrayType(t, -1)).toList();
        RelDataType list = lists.isEmpty() ? types.createArrayType(types.createSqlType(SqlTypeName.NULL), -1)
                : types.leastRestrictive(lists);
        if (list == null || list.getComponentType() == null
                || lists.stream().anyMatch(t -> textFrom(list.getComponentType(), t.getComponentType()))) {
            throw new SqlError("Cannot concatenate lists of types " + lists + " in "
                    + name.toLowerCase(java.util.Locale.ROOT) + " (an explicit cast is required)");
        }
        return types.createTypeWithNullability(list, nullable);
    }

    /**
     * Whether the common type {@code common} makes text of a {@code part} that is none (a number beside text, in a
     * struct's field or a list inside too): DuckDB concatenates no such lists without a cast.
     */
    private static boolean textFrom(RelDataType common, RelDataType part) {
        if (part.getSqlTypeName() == SqlTypeName.NULL) {
            return false;
        }
        if (org.apache.calcite.sql.type.SqlTypeUtil.isCharacter(common)) {
            return !org.apache.calcite.sql.type.SqlTypeUtil.isCharacter(part);
        }
        if (common.getComponentType() != null && part.getComponentType() != null) {
            return textFrom(common.getComponentType(), part.getComponentType());
        }
        if (common.isStruct() && part.isStruct()) {
            for (var field : part.getFieldList()) {
                var same = common.getField(field.getName(), false, false);
                if (same != null && textFrom(same.getType(), field.getType())) {
                    return true;
                }
            }
        }
        return false;
    }

    /** The element type of a list argument ({@code [1]}: INTEGER; {@code []} and an untyped NULL: the NULL type). */
    private static RelDataType elementType(SqlOperatorBinding b, String name, int operand) {
        RelDataType t = b.getOperandType(operand);
        if (t.getSqlTypeName() == SqlTypeName.NULL) {
            return t;
        }
        if (t.getComponentType() == null || t.getKeyType() != null) {
            throw new SqlError("unsupported: " + name.toLowerCase(java.util.Locale.ROOT) + " of a " + t
                    + " (argument " + (operand + 1) + " must be a list)");
        }
        return t.getComponentType();
    }

    /** list_concat(l1, l2, ...) and its other names. */
    private static SqlReturnTypeInference concatType(String name) {
        return b -> {
            if (b.getOperandCount() == 0) {
                throw new SqlError("unsupported: " + name.toLowerCase(java.util.Locale.ROOT) + " without lists");
            }
            List<RelDataType> elements = new java.util.ArrayList<>();
            for (int i = 0; i < b.getOperandCount(); i++) {
                elements.add(elementType(b, name, i));
            }
            // list_concat(NULL::INTEGER[], NULL::INTEGER[]) is [] in DuckDB, list_concat(NULL, NULL) NULL
            boolean nullable = elements.stream().allMatch(t -> t.getSqlTypeName() == SqlTypeName.NULL);
            return concatenated(b, name, elements, nullable);
        };
    }

    /** list_append(l, x) (listFirst) and list_prepend(x, l): never NULL, as DuckDB's ({@code list_append(NULL, 3)} is [3]). */
    private static SqlReturnTypeInference appendType(String name, boolean listFirst) {
        return b -> {
            int list = listFirst ? 0 : 1;
            RelDataType elements = elementType(b, name, list);
            RelDataType value = b.getOperandType(1 - list);
            List<RelDataType> both = listFirst ? List.of(elements, value) : List.of(value, elements);
            return concatenated(b, name, both, false);
        };
    }

    private static SqlFunction concat(String name) {
        return fn(name, concatType(name), OperandTypes.VARIADIC);
    }

    /** list_intersect(l1, l2): a list of the elements' common type; NULL where l1 is (a NULL l2 is empty, as DuckDB's). */
    private static SqlFunction intersect(String name) {
        return fn(name, b -> concatenated(b, name, List.of(elementType(b, name, 0), elementType(b, name, 1)),
                b.getOperandType(0).isNullable()), OperandTypes.ARRAY_ARRAY);
    }

    private static SqlFunction append(String name, boolean listFirst) {
        return fn(name, appendType(name, listFirst), OperandTypes.ANY_ANY);
    }

    private static SqlFunction fn(String name, SqlReturnTypeInference type,
                                  org.apache.calcite.sql.type.SqlOperandTypeChecker operands) {
        return new SqlFunction(name, SqlKind.OTHER_FUNCTION, type, null, operands, SqlFunctionCategory.SYSTEM);
    }

    private static final SqlFunction LIST_VALUE = fn("LIST_VALUE", ListOperators::listOf, OperandTypes.VARIADIC);

    /**
     * A list, or a string as it is (never a list cast to text, as an OR of Calcite's checkers would coerce it: len of
     * [1, 2] is 2, not the 6 characters of '[1, 2]').
     */
    private static final org.apache.calcite.sql.type.SqlOperandTypeChecker LIST_OR_TEXT =
            new org.apache.calcite.sql.type.SqlOperandTypeChecker() {
                @Override
                public boolean checkOperandTypes(org.apache.calcite.sql.SqlCallBinding b, boolean throwOnFailure) {
                    return org.apache.calcite.sql.type.SqlTypeUtil.isCharacter(b.getOperandType(0))
                            || OperandTypes.ARRAY.checkOperandTypes(b, throwOnFailure);
                }

                @Override
                public org.apache.calcite.sql.SqlOperandCountRange getOperandCountRange() {
                    return OperandTypes.ARRAY.getOperandCountRange();
                }

                @Override
                public String getAllowedSignatures(SqlOperator op, String opName) {
                    return opName + "(<ARRAY>)\n" + opName + "(<STRING>)";
                }
            };
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
            // of a string too, its length in characters, as DuckDB's len
            Map.entry("LEN", fn("LEN", BIGINT, LIST_OR_TEXT)),
            Map.entry("FLATTEN", fn("FLATTEN", ListOperators::flattened, OperandTypes.ARRAY)),
            Map.entry("ARRAY_LENGTH", fn("ARRAY_LENGTH", BIGINT, OperandTypes.ARRAY)),
            Map.entry("LIST_CONTAINS", fn("LIST_CONTAINS", BOOLEAN, LIST_ANY)),
            Map.entry("LIST_HAS", fn("LIST_HAS", BOOLEAN, LIST_ANY)),
            Map.entry("ARRAY_CONTAINS", fn("ARRAY_CONTAINS", BOOLEAN, LIST_ANY)),
            Map.entry("ARRAY_HAS", fn("ARRAY_HAS", BOOLEAN, LIST_ANY)),
            Map.entry("LIST_POSITION", fn("LIST_POSITION", POSITION, LIST_ANY)),
            Map.entry("LIST_HAS_ANY", fn("LIST_HAS_ANY", BOOLEAN, OperandTypes.ARRAY_ARRAY)),
            Map.entry("ARRAY_HAS_ANY", fn("ARRAY_HAS_ANY", BOOLEAN, OperandTypes.ARRAY_ARRAY)),
            Map.entry("LIST_HAS_ALL", fn("LIST_HAS_ALL", BOOLEAN, OperandTypes.ARRAY_ARRAY)),
            Map.entry("ARRAY_HAS_ALL", fn("ARRAY_HAS_ALL", BOOLEAN, OperandTypes.ARRAY_ARRAY)),
            // the distinct elements that are not NULL (DuckDB's a UBIGINT)
            Map.entry("LIST_UNIQUE", fn("LIST_UNIQUE", BIGINT, OperandTypes.ARRAY)),
            Map.entry("ARRAY_UNIQUE", fn("ARRAY_UNIQUE", BIGINT, OperandTypes.ARRAY)),
            Map.entry("LIST_INDEXOF", fn("LIST_INDEXOF", POSITION, LIST_ANY)),
            Map.entry("ARRAY_POSITION", fn("ARRAY_POSITION", POSITION, LIST_ANY)),
            Map.entry("ARRAY_INDEXOF", fn("ARRAY_INDEXOF", POSITION, LIST_ANY)),
            Map.entry("LIST_EXTRACT", fn("LIST_EXTRACT", ListOperators::elementOf, LIST_INTEGER)),
            Map.entry("LIST_ELEMENT", fn("LIST_ELEMENT", ListOperators::elementOf, LIST_INTEGER)),
            Map.entry("ARRAY_EXTRACT", fn("ARRAY_EXTRACT", ListOperators::elementOf, LIST_INTEGER)),
            Map.entry("LIST_CONCAT", concat("LIST_CONCAT")),
            Map.entry("LIST_INTERSECT", intersect("LIST_INTERSECT")),
            Map.entry("ARRAY_INTERSECT", intersect("ARRAY_INTERSECT")),
            Map.entry("LIST_CAT", concat("LIST_CAT")),
            Map.entry("ARRAY_CONCAT", concat("ARRAY_CONCAT")),
            Map.entry("ARRAY_CAT", concat("ARRAY_CAT")),
            Map.entry("LIST_APPEND", append("LIST_APPEND", true)),
            Map.entry("ARRAY_APPEND", append("ARRAY_APPEND", true)),
            Map.entry("LIST_PREPEND", append("LIST_PREPEND", false)),
            Map.entry("ARRAY_PREPEND", append("ARRAY_PREPEND", false)),
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

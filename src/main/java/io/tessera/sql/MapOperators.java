package io.tessera.sql;

import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.sql.SqlCallBinding;
import org.apache.calcite.sql.SqlFunction;
import org.apache.calcite.sql.SqlFunctionCategory;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlOperandCountRange;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlOperatorBinding;
import org.apache.calcite.sql.type.OperandTypes;
import org.apache.calcite.sql.type.SqlOperandCountRanges;
import org.apache.calcite.sql.type.SqlOperandTypeChecker;
import org.apache.calcite.sql.type.SqlReturnTypeInference;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql.type.SqlTypeName;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The MAP functions as DuckDB 2.0 names them, typed on Calcite's MAP: {@code MAP {'a': 1}} (MAP_PACK, each key before
 * its value), {@code map(keys, values)} (MAP_OF_LISTS; {@code map()} the empty map), {@code map_from_entries},
 * {@code map_extract} and {@code element_at} (a list of the value, empty where the key is missing), {@code m[k]}
 * (Calcite's ITEM: the value), {@code map_keys}, {@code map_values}, {@code map_entries}, {@code map_contains},
 * {@code map_concat} (the maps' entries, a later map's value for a key replacing an earlier one's), {@code cardinality}
 * (Calcite's). What they compute is decided in {@code plan.MapCalls}; none is folded by Calcite.
 */
public final class MapOperators {
    private MapOperators() {
    }

    private static RelDataType map(RelDataTypeFactory f, RelDataType key, RelDataType value, boolean nullable) {
        return f.createTypeWithNullability(f.createMapType(f.createTypeWithNullability(key, false),
                f.createTypeWithNullability(value, true)), nullable);
    }

    private static RelDataType nullType(RelDataTypeFactory f) {
        return f.createSqlType(SqlTypeName.NULL);
    }

    /** The common type of these operand types, an error naming {@code what} where there is none. */
    private static RelDataType common(RelDataTypeFactory f, List<RelDataType> types, String what) {
        if (types.isEmpty()) {
            return nullType(f);
        }
        if (types.stream().allMatch(IntervalSyntax::isInterval)) {
            return TimestampFunctions.intervalType(f, true); // DuckDB's one INTERVAL type, whatever the units
        }
        RelDataType t = f.leastRestrictive(types);
        if (t == null) {
            throw new SqlError("unsupported: a map of " + what + " without a common type (" + types + ")");
        }
        if (IntervalSyntax.isInterval(t)) {
            t = TimestampFunctions.intervalType(f, true); // DuckDB's one INTERVAL type
        }
        return t;
    }

    /** {@code MAP {k: v, ...}}: the map of the keys' and the values' common types, never NULL itself. */
    private static RelDataType packType(SqlOperatorBinding b) {
        RelDataTypeFactory f = b.getTypeFactory();
        List<RelDataType> keys = new ArrayList<>();
        List<RelDataType> values = new ArrayList<>();
        for (int i = 0; i + 1 < b.getOperandCount(); i += 2) {
            keys.add(b.getOperandType(i));
            values.add(b.getOperandType(i + 1));
        }
        return map(f, common(f, keys, "keys"), common(f, values, "values"), false);
    }

    /** {@code map(keys, values)}: the map of the two lists' element types, NULL where a list is. */
    private static RelDataType ofListsType(SqlOperatorBinding b) {
        RelDataTypeFactory f = b.getTypeFactory();
        if (b.getOperandCount() == 0) {
            return map(f, nullType(f), nullType(f), false);
        }
        RelDataType keys = b.getOperandType(0);
        RelDataType values = b.getOperandType(1);
        return map(f, element(f, keys), element(f, values), keys.isNullable() || values.isNullable());
    }

    private static RelDataType element(RelDataTypeFactory f, RelDataType list) {
        return list.getSqlTypeName() == SqlTypeName.NULL ? nullType(f) : list.getComponentType();
    }

    /** {@code map_from_entries(list of structs)}: the map of the structs' two fields' types. */
    private static RelDataType fromEntriesType(SqlOperatorBinding b) {
        RelDataTypeFactory f = b.getTypeFactory();
        RelDataType list = b.getOperandType(0);
        RelDataType entry = list.getComponentType();
        if (entry != null && entry.getSqlTypeName() == SqlTypeName.NULL) {
            return map(f, nullType(f), nullType(f), list.isNullable());
        }
        if (entry == null || !entry.isStruct() || entry.getFieldCount() != 2) {
            throw new SqlError("unsupported: map_from_entries of " + list.getFullTypeString()
                    + " (it takes a list of structs of two fields, a key and a value)");
        }
        return map(f, entry.getFieldList().get(0).getType(), entry.getFieldList().get(1).getType(),
                list.isNullable());
    }

    /** The map operand, an error naming the function where it is no map. */
    private static RelDataType mapOperand(SqlOperatorBinding b) {
        RelDataType m = b.getOperandType(0);
        if (m.getSqlTypeName() != SqlTypeName.MAP) {
            throw new SqlError("unsupported: " + b.getOperator().getName().toLowerCase(java.util.Locale.ROOT)
                    + " of a " + m.getFullTypeString() + " (not a MAP)");
        }
        return m;
    }

    private static SqlReturnTypeInference listOf(boolean keys) {
        return b -> {
            RelDataTypeFactory f = b.getTypeFactory();
            if (b.getOperandType(0).getSqlTypeName() == SqlTypeName.NULL) {
                // map_keys(NULL): DuckDB's NULL list of NULLs
                return f.createTypeWithNullability(f.createArrayType(nullType(f), -1), true);
            }
            RelDataType m = mapOperand(b);
            RelDataType e = keys ? m.getKeyType() : f.createTypeWithNullability(m.getValueType(), true);
            return f.createTypeWithNullability(f.createArrayType(e, -1), m.isNullable());
        };
    }

    /** map_entries: the list of STRUCT(key, value), as DuckDB holds the map. */
    private static RelDataType entriesType(SqlOperatorBinding b) {
        RelDataType m = mapOperand(b);
        RelDataTypeFactory f = b.getTypeFactory();
        RelDataType entry = f.createStructType(org.apache.calcite.rel.type.StructKind.PEEK_FIELDS_NO_EXPAND,
                List.of(f.createTypeWithNullability(m.getKeyType(), true),
                        f.createTypeWithNullability(m.getValueType(), true)), List.of("key", "value"));
        return f.createTypeWithNullability(f.createArrayType(entry, -1), m.isNullable());
    }

    /** map_extract and element_at: a list of the value, empty where the key is missing (DuckDB 2.0's). */
    private static RelDataType extractType(SqlOperatorBinding b) {
        RelDataType m = mapOperand(b);
        RelDataTypeFactory f = b.getTypeFactory();
        return f.createTypeWithNullability(f.createArrayType(f.createTypeWithNullability(m.getValueType(), true), -1),
                true);
    }

    private static RelDataType containsType(SqlOperatorBinding b) {
        mapOperand(b);
        return b.getTypeFactory().createTypeWithNullability(
                b.getTypeFactory().createSqlType(SqlTypeName.BOOLEAN), true);
    }

    /** Keys and values: an even number of operands. */
    private static final SqlOperandTypeChecker PAIRS = new SqlOperandTypeChecker() {
        @Override
        public boolean checkOperandTypes(SqlCallBinding b, boolean throwOnFailure) {
            return b.getOperandCount() % 2 == 0;
        }

        @Override
        public SqlOperandCountRange getOperandCountRange() {
            return SqlOperandCountRanges.from(0);
        }

        @Override
        public String getAllowedSignatures(SqlOperator op, String opName) {
            return "MAP {key: value, ...}";
        }
    };

    /**
     * {@code map_concat(m1, m2, ...)}: two or more maps (or NULLs), DuckDB's messages where there are fewer or one is
     * no map; typed as the first map of a key type (not {@code map{}}, an empty MAP("NULL", "NULL") that DuckDB types
     * as the others), NULL only where every argument may be (a NULL map adds no entries). That the
     * maps' types are equal, as DuckDB asks, is checked where the call is lowered (plan.MapCalls), on DuckDB's names.
     */
    private static final SqlOperandTypeChecker MAPS = new SqlOperandTypeChecker() {
        @Override
        public boolean checkOperandTypes(SqlCallBinding b, boolean throwOnFailure) {
            if (b.getOperandCount() < 2) {
                throw new SqlError("The provided amount of arguments is incorrect, please provide 2 or more maps");
            }
            for (RelDataType t : b.collectOperandTypes()) {
                if (t.getSqlTypeName() != SqlTypeName.MAP && t.getSqlTypeName() != SqlTypeName.NULL) {
                    throw new SqlError("MAP_CONCAT only takes map arguments");
                }
            }
            return true;
        }

        @Override
        public SqlOperandCountRange getOperandCountRange() {
            return SqlOperandCountRanges.from(0);
        }

        @Override
        public String getAllowedSignatures(SqlOperator op, String opName) {
            return "map_concat(MAP, MAP, ...)";
        }
    };

    private static RelDataType concatType(SqlOperatorBinding b) {
        RelDataTypeFactory f = b.getTypeFactory();
        List<RelDataType> types = b.collectOperandTypes();
        boolean nullable = types.stream().allMatch(RelDataType::isNullable);
        return types.stream().filter(t -> t.getSqlTypeName() == SqlTypeName.MAP
                        && t.getKeyType().getSqlTypeName() != SqlTypeName.NULL).findFirst()
                .map(t -> f.createTypeWithNullability(t, nullable))
                .orElseGet(() -> map(f, nullType(f), nullType(f), true));
    }

    private static SqlFunction fn(String name, SqlReturnTypeInference type, SqlOperandTypeChecker operands) {
        return new SqlFunction(name, SqlKind.OTHER_FUNCTION, type, null, operands, SqlFunctionCategory.SYSTEM);
    }

    /** {@code MAP {k: v, ...}}: keys and values alternating. */
    public static final SqlFunction MAP_PACK = fn("MAP_PACK", MapOperators::packType, PAIRS);
    /** {@code map(keys, values)} of two lists, or {@code map()}. */
    public static final SqlFunction MAP_OF_LISTS = fn("MAP", MapOperators::ofListsType,
            OperandTypes.NILADIC.or(OperandTypes.family(SqlTypeFamily.ANY, SqlTypeFamily.ANY)));

    private static final SqlOperandTypeChecker MAP_ANY = OperandTypes.family(SqlTypeFamily.MAP, SqlTypeFamily.ANY);

    private static final Map<String, SqlOperator> FUNCTIONS = Map.of("MAP_PACK", MAP_PACK, "MAP", MAP_OF_LISTS,
            "MAP_FROM_ENTRIES", fn("MAP_FROM_ENTRIES", MapOperators::fromEntriesType, OperandTypes.ANY),
            "MAP_EXTRACT", fn("MAP_EXTRACT", MapOperators::extractType, MAP_ANY),
            "ELEMENT_AT", fn("ELEMENT_AT", MapOperators::extractType, MAP_ANY),
            "MAP_KEYS", fn("MAP_KEYS", listOf(true), OperandTypes.family(SqlTypeFamily.MAP)),
            "MAP_VALUES", fn("MAP_VALUES", listOf(false), OperandTypes.family(SqlTypeFamily.MAP)),
            "MAP_ENTRIES", fn("MAP_ENTRIES", MapOperators::entriesType, OperandTypes.family(SqlTypeFamily.MAP)),
            "MAP_CONTAINS", fn("MAP_CONTAINS", MapOperators::containsType, MAP_ANY),
            "MAP_CONCAT", fn("MAP_CONCAT", MapOperators::concatType, MAPS));

    static SqlOperator lookup(String name) {
        return FUNCTIONS.get(name);
    }

    static java.util.Collection<SqlOperator> all() {
        return FUNCTIONS.values();
    }

    /** Whether a call of this upper-case name is one of the map functions (for {@link SupportCheck}). */
    static boolean supports(String name) {
        return FUNCTIONS.containsKey(name) || name.equals("CARDINALITY");
    }

    /** Whether Calcite must leave a constant call of this (upper-case) operator name unfolded. */
    static boolean unfolded(String name) {
        return supports(name);
    }
}

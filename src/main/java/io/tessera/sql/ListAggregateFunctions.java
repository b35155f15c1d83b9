package io.tessera.sql;

import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.sql.SqlFunction;
import org.apache.calcite.sql.SqlFunctionCategory;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlOperatorBinding;
import org.apache.calcite.sql.type.OperandTypes;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql.type.SqlTypeName;

import java.util.Collection;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * DuckDB's aggregates of a list's elements, of lists of numbers: LIST_SUM (a BIGINT of integers where DuckDB's is a
 * HUGEINT, a DOUBLE of DOUBLEs, a DECIMAL at the elements' scale), LIST_AVG and LIST_PRODUCT (DOUBLE), LIST_MIN and
 * LIST_MAX (the element type), LIST_COUNT (BIGINT, the elements that are not NULL) and LIST_AGGREGATE(l, 'name') of
 * these names (the name a constant); of a list of any type LIST_AGGREGATE(l, 'string_agg' [, separator]) (also
 * 'group_concat' and 'listagg': the elements' texts joined, a comma where the separator is NULL or not given) and
 * ARRAY_TO_STRING(l, separator) (the same, but '' of an empty list), a VARCHAR; a separator must be a constant, as
 * DuckDB's. Lowered by {@code plan.ListAggregateCalls}.
 */
final class ListAggregateFunctions {

    private ListAggregateFunctions() {
    }

    /** The aggregates a list's elements can be reduced by, as LIST_AGGREGATE names them. */
    static final Set<String> AGGREGATES = Set.of("sum", "avg", "min", "max", "count", "product", "string_agg",
            "group_concat", "listagg");

    /** The aggregates that join the elements' texts, which take a separator. */
    static final Set<String> JOINS = Set.of("string_agg", "group_concat", "listagg");

    /** The aggregate a call names: LIST_SUM's sum, LIST_AGGREGATE's constant second argument. */
    private static String aggregate(SqlOperatorBinding b) {
        String name = b.getOperator().getName().toUpperCase(Locale.ROOT);
        if (!name.equals("LIST_AGGREGATE") && !name.equals("ARRAY_AGGREGATE") && !name.equals("LIST_AGGR")) {
            return name.substring(name.indexOf('_') + 1).toLowerCase(Locale.ROOT);
        }
        String named = b.isOperandLiteral(1, false) ? b.getOperandLiteralValue(1, String.class) : null;
        if (named == null || !AGGREGATES.contains(named.toLowerCase(Locale.ROOT))) {
            throw new SqlError("unsupported: " + name.toLowerCase(Locale.ROOT) + " with "
                    + (named == null ? "a name that is not a constant" : "'" + named + "'")
                    + " (it runs sum, avg, min, max, count, product and string_agg)");
        }
        String aggregate = named.toLowerCase(Locale.ROOT);
        if (b.getOperandCount() == 3 && !JOINS.contains(aggregate)) {
            throw new SqlError("unsupported: " + name.toLowerCase(Locale.ROOT) + " with '" + named
                    + "' and a third argument (only string_agg takes one, its separator)");
        }
        return aggregate;
    }

    private static RelDataType type(SqlOperatorBinding b) {
        RelDataTypeFactory f = b.getTypeFactory();
        RelDataType element = b.getOperandType(0).getComponentType();
        String name = b.getOperator().getName().toUpperCase(Locale.ROOT);
        if (name.equals("ARRAY_TO_STRING") || JOINS.contains(aggregate(b))) {
            // the elements of any type as their texts; NULL where no element is not NULL (or the list is NULL)
            if (b.getOperandCount() == (name.equals("ARRAY_TO_STRING") ? 2 : 3)
                    && !b.isOperandLiteral(b.getOperandCount() - 1, true)) {
                throw new SqlError("unsupported: " + name.toLowerCase(Locale.ROOT) + " with a separator that is not"
                        + " a constant (as in DuckDB)");
            }
            return f.createTypeWithNullability(f.createSqlType(SqlTypeName.VARCHAR), true);
        }
        if (element == null || !SqlTypeFamily.NUMERIC.contains(element)) {
            throw new SqlError("unsupported: " + b.getOperator().getName().toLowerCase(Locale.ROOT) + " of a "
                    + b.getOperandType(0).getFullTypeString().replace(" NOT NULL", "") + " (lists of numbers only)");
        }
        RelDataType t = switch (aggregate(b)) {
            case "count" -> f.createSqlType(SqlTypeName.BIGINT);
            case "avg", "product" -> f.createSqlType(SqlTypeName.DOUBLE);
            case "min", "max" -> element;
            default -> switch (element.getSqlTypeName()) { // sum
                case DOUBLE, FLOAT, REAL -> f.createSqlType(SqlTypeName.DOUBLE);
                case DECIMAL -> f.createSqlType(SqlTypeName.DECIMAL, 18, element.getScale());
                default -> f.createSqlType(SqlTypeName.BIGINT);
            };
        };
        // NULL over a NULL list or no elements that are not NULL (COUNT: 0 of the elements, NULL of a NULL list)
        return f.createTypeWithNullability(t, true);
    }

    private static SqlFunction fn(String name, boolean named) {
        return new SqlFunction(name, SqlKind.OTHER_FUNCTION, ListAggregateFunctions::type, null,
                named ? OperandTypes.or(OperandTypes.family(SqlTypeFamily.ARRAY, SqlTypeFamily.CHARACTER),
                        OperandTypes.family(SqlTypeFamily.ARRAY, SqlTypeFamily.CHARACTER, SqlTypeFamily.CHARACTER))
                        : OperandTypes.family(SqlTypeFamily.ARRAY), SqlFunctionCategory.SYSTEM);
    }

    private static final Map<String, SqlOperator> FUNCTIONS = Map.of(
            "ARRAY_TO_STRING", new SqlFunction("ARRAY_TO_STRING", SqlKind.OTHER_FUNCTION, ListAggregateFunctions::type,
                    null, OperandTypes.family(SqlTypeFamily.ARRAY, SqlTypeFamily.CHARACTER), SqlFunctionCategory.SYSTEM),
            "LIST_SUM", fn("LIST_SUM", false), "LIST_AVG", fn("LIST_AVG", false),
            "LIST_MIN", fn("LIST_MIN", false), "LIST_MAX", fn("LIST_MAX", false),
            "LIST_COUNT", fn("LIST_COUNT", false), "LIST_PRODUCT", fn("LIST_PRODUCT", false),
            "LIST_AGGREGATE", fn("LIST_AGGREGATE", true), "ARRAY_AGGREGATE", fn("ARRAY_AGGREGATE", true),
            "LIST_AGGR", fn("LIST_AGGR", true));

    /** The function of this upper-case name, or null. */
    static SqlOperator lookup(String name) {
        return FUNCTIONS.get(name);
    }

    static Collection<SqlOperator> all() {
        return FUNCTIONS.values();
    }
}

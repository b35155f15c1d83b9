package io.tessera.sql;

import org.apache.calcite.sql.SqlAggFunction;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlFunction;
import org.apache.calcite.sql.SqlFunctionCategory;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.fun.SqlLibraryOperators;
import org.apache.calcite.sql.type.OperandTypes;
import org.apache.calcite.sql.type.ReturnTypes;
import org.apache.calcite.sql.type.SqlTypeTransforms;
import org.apache.calcite.util.Optionality;

import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * The aggregate functions beyond COUNT, SUM, AVG, MIN and MAX: the standard deviations and variances, always a
 * nullable DOUBLE (NULL over too few rows, which Calcite's own types do not say for a group of one row), and
 * BOOL_AND and BOOL_OR (Calcite's MIN and MAX of booleans, as EVERY is), and the aggregates of all a group's values
 * ({@link HolisticAggregates}). {@link MathFunctions} looks them up here.
 */
final class AggregateFunctions {

    private AggregateFunctions() {
    }

    static final SqlAggFunction STDDEV_SAMP = statistic("STDDEV_SAMP", SqlKind.STDDEV_SAMP);
    static final SqlAggFunction STDDEV = statistic("STDDEV", SqlKind.STDDEV_SAMP);
    static final SqlAggFunction STDDEV_POP = statistic("STDDEV_POP", SqlKind.STDDEV_POP);
    static final SqlAggFunction VAR_SAMP = statistic("VAR_SAMP", SqlKind.VAR_SAMP);
    static final SqlAggFunction VARIANCE = statistic("VARIANCE", SqlKind.VAR_SAMP);
    static final SqlAggFunction VAR_POP = statistic("VAR_POP", SqlKind.VAR_POP);

    /** DuckDB's PRODUCT: the product of the values as a DOUBLE, NULL over none. */
    static final SqlAggFunction PRODUCT = new SqlAggFunction("PRODUCT", null, SqlKind.OTHER_FUNCTION,
            ReturnTypes.DOUBLE.andThen(SqlTypeTransforms.FORCE_NULLABLE), null, OperandTypes.NUMERIC,
            SqlFunctionCategory.NUMERIC, false, false, Optionality.FORBIDDEN) {
    };

    static final List<SqlFunction> ALL = all();

    /** Grouping constructs and aggregate kinds the engine runs that SupportCheck's general lists do not hold. */
    private static final Set<SqlKind> KINDS = EnumSet.of(SqlKind.FILTER, SqlKind.ROLLUP, SqlKind.CUBE,
            SqlKind.GROUPING_SETS, SqlKind.GROUPING);

    /**
     * Calcite's own functions that run: EVERY (MIN of booleans), GROUPING and GROUPING_ID (constants per set), and
     * APPROX_COUNT_DISTINCT (Calcite's COUNT(DISTINCT) marked approximate: Tessera counts exactly), ANY_VALUE (some
     * value of the group that is not NULL) and the bitwise BIT_AND, BIT_OR and BIT_XOR of integers.
     */
    static final Set<String> NAMES = Set.of("EVERY", "GROUPING", "GROUPING_ID", "APPROX_COUNT_DISTINCT", "ANY_VALUE",
            "BIT_AND", "BIT_OR", "BIT_XOR");

    private static List<SqlFunction> all() {
        List<SqlFunction> all = new java.util.ArrayList<>(List.of(STDDEV_SAMP, STDDEV, STDDEV_POP, VAR_SAMP, VARIANCE,
                VAR_POP, SqlLibraryOperators.BOOL_AND, SqlLibraryOperators.BOOL_OR, PRODUCT));
        all.addAll(HolisticAggregates.ALL);
        return List.copyOf(all);
    }

    private static SqlAggFunction statistic(String name, SqlKind kind) {
        return new SqlAggFunction(name, null, kind, ReturnTypes.DOUBLE.andThen(SqlTypeTransforms.FORCE_NULLABLE), null,
                OperandTypes.NUMERIC, SqlFunctionCategory.NUMERIC, false, false, Optionality.FORBIDDEN) {
        };
    }

    /** The function of this name, or null. */
    static SqlFunction lookup(String upperName) {
        for (SqlFunction f : ALL) {
            if (f.getName().equals(upperName)) {
                return f;
            }
        }
        return null;
    }

    /** Whether SupportCheck lets this call through: one of these functions, EVERY, FILTER or a grouping construct. */
    static boolean supports(SqlCall call) {
        String name = call.getOperator().getName().toUpperCase(java.util.Locale.ROOT);
        return KINDS.contains(call.getKind()) || lookup(name) != null || NAMES.contains(name);
    }
}

package io.tessera.sql;

import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlNode;

import java.util.Map;
import java.util.Set;

/**
 * DuckDB's other names of functions Tessera runs, written as those functions before validation (after ColumnNames,
 * so a result column keeps the name as written, and before the rewrites that read the functions' names, such as
 * {@link DerivedAggregates}'s COUNT_IF): the arguments, DISTINCT and everything around the call are kept.
 */
final class FunctionAliases {

    private FunctionAliases() {
    }

    /** Each alias (upper case) with the function it names. */
    private static final Map<String, String> TARGETS = Map.ofEntries(Map.entry("LCASE", "LOWER"),
            Map.entry("UCASE", "UPPER"), Map.entry("MEAN", "AVG"), Map.entry("COUNTIF", "COUNT_IF"),
            Map.entry("DATETRUNC", "DATE_TRUNC"), Map.entry("PREFIX", "STARTS_WITH"), Map.entry("SUFFIX", "ENDS_WITH"),
            Map.entry("WEEKDAY", "DAYOFWEEK"), Map.entry("ARBITRARY", "FIRST"), Map.entry("DAY", "DAYOFMONTH"),
            Map.entry("ARGMAX", "ARG_MAX"), Map.entry("ARGMIN", "ARG_MIN"), Map.entry("GREATEST_COMMON_DIVISOR", "GCD"),
            Map.entry("LEAST_COMMON_MULTIPLE", "LCM"), Map.entry("ARRAY_AGGR", "LIST_AGGR"),
            Map.entry("SPLIT", "STRING_SPLIT"), Map.entry("UUIDV4", "GEN_RANDOM_UUID"),
            Map.entry("SUM_NO_OVERFLOW", "SUM"), Map.entry("ROUNDBANKERS", "ROUND_EVEN"));

    static final Set<String> NAMES = TARGETS.keySet();

    /** The function an upper-case name names: its target where it is an alias, else the name itself. */
    static String resolve(String name) {
        return TARGETS.getOrDefault(name, name);
    }

    static SqlNode rewrite(SqlNode parsed) {
        return UnresolvedCalls.rewrite(parsed, (name, c) -> {
            String target = TARGETS.get(name);
            return target == null ? null : new SqlBasicCall(UnresolvedCalls.function(target), c.getOperandList(),
                    c.getParserPosition(), c.getFunctionQuantifier());
        });
    }
}

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
    private static final Map<String, String> TARGETS = Map.of("LCASE", "LOWER", "UCASE", "UPPER", "MEAN", "AVG",
            "COUNTIF", "COUNT_IF", "DATETRUNC", "DATE_TRUNC", "PREFIX", "STARTS_WITH", "SUFFIX", "ENDS_WITH",
            "WEEKDAY", "DAYOFWEEK");

    static final Set<String> NAMES = TARGETS.keySet();

    static SqlNode rewrite(SqlNode parsed) {
        return UnresolvedCalls.rewrite(parsed, (name, c) -> {
            String target = TARGETS.get(name);
            return target == null ? null : new SqlBasicCall(UnresolvedCalls.function(target), c.getOperandList(),
                    c.getParserPosition(), c.getFunctionQuantifier());
        });
    }
}

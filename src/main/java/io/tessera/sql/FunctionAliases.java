package io.tessera.sql;

import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlFunctionCategory;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlUnresolvedFunction;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.util.SqlShuttle;

import java.util.Locale;
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
        SqlNode r = parsed.accept(new SqlShuttle() {
            @Override
            public SqlNode visit(SqlCall call) {
                SqlNode visited = super.visit(call);
                if (!(visited instanceof SqlCall c) || !(c.getOperator() instanceof SqlUnresolvedFunction fn)) {
                    return visited;
                }
                String target = TARGETS.get(fn.getName().toUpperCase(Locale.ROOT));
                if (target == null) {
                    return visited;
                }
                SqlUnresolvedFunction named = new SqlUnresolvedFunction(new SqlIdentifier(target, SqlParserPos.ZERO),
                        null, null, null, null, SqlFunctionCategory.USER_DEFINED_FUNCTION);
                return new SqlBasicCall(named, c.getOperandList(), c.getParserPosition(), c.getFunctionQuantifier());
            }
        });
        return r == null ? parsed : r;
    }
}

package io.tessera.sql;

import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlFunctionCategory;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlUnresolvedFunction;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.util.SqlShuttle;

import java.util.Locale;
import java.util.function.BiFunction;

/**
 * The walk the parse-tree rewrites of functions by name share ({@link FunctionAliases}, {@link DateFunctionAliases},
 * {@link SessionFunctions}): every call of a function the parser left unresolved, innermost first, given with its
 * upper-case name to a rewrite that returns what replaces it, or null to keep it.
 */
final class UnresolvedCalls {

    private UnresolvedCalls() {
    }

    static SqlNode rewrite(SqlNode parsed, BiFunction<String, SqlCall, SqlNode> byName) {
        SqlNode r = parsed.accept(new SqlShuttle() {
            @Override
            public SqlNode visit(SqlCall call) {
                SqlNode visited = super.visit(call);
                if (!(visited instanceof SqlCall c) || !(c.getOperator() instanceof SqlUnresolvedFunction fn)) {
                    return visited;
                }
                SqlNode replaced = byName.apply(fn.getName().toUpperCase(Locale.ROOT), c);
                return replaced != null ? replaced : visited;
            }
        });
        return r == null ? parsed : r;
    }

    /** A call's operator for the function of this name, resolved by the validator as a written name is. */
    static SqlUnresolvedFunction function(String name) {
        return new SqlUnresolvedFunction(new SqlIdentifier(name, SqlParserPos.ZERO), null, null, null, null,
                SqlFunctionCategory.USER_DEFINED_FUNCTION);
    }
}

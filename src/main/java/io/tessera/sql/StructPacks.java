package io.tessera.sql;

import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.util.SqlShuttle;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * DuckDB's {@code struct_pack(a := 1, b := 'x')} (the parser reads {@code :=} as Calcite's named argument {@code =>})
 * as {@link StructOperators}' STRUCT_PACK of each field's name, a string, before its value; a struct_pack without a
 * name for every value is refused by name; struct_insert and struct_update likewise, after their struct; DuckDB's
 * {@code row(...)}, a struct without field names, as Calcite's ROW.
 */
final class StructPacks {
    private StructPacks() {
    }

    static SqlNode rewrite(SqlNode node) {
        SqlNode r = node.accept(new SqlShuttle() {
            @Override
            public SqlNode visit(SqlCall call) {
                SqlCall c = (SqlCall) super.visit(call);
                if (c == null) {
                    c = call;
                }
                if (c.getOperator() instanceof org.apache.calcite.sql.SqlUnresolvedFunction
                        && c.getOperator().getName().equalsIgnoreCase("ROW")) {
                    // DuckDB's row(1, 'a'): an unnamed struct, as (1, 'a') is
                    return org.apache.calcite.sql.fun.SqlStdOperatorTable.ROW.createCall(c.getParserPosition(),
                            c.getOperandList());
                }
                String function = c.getOperator().getName().toUpperCase(Locale.ROOT);
                if (c.getKind() == SqlKind.OTHER_FUNCTION && (function.equals("STRUCT_INSERT")
                        || function.equals("STRUCT_UPDATE"))
                        && c.getOperator() instanceof org.apache.calcite.sql.SqlUnresolvedFunction) {
                    return edit(c, function.equals("STRUCT_UPDATE"));
                }
                if (c.getKind() != SqlKind.OTHER_FUNCTION
                        || !function.equals("STRUCT_PACK")
                        || c.getOperator() == StructOperators.STRUCT_PACK) {
                    return c;
                }
                List<SqlNode> args = new ArrayList<>();
                namesAndValues(c.getOperandList(), "struct_pack", args);
                return StructOperators.pack(c.getParserPosition(), args);
            }
        });
        return r == null ? node : r;
    }

    /**
     * struct_insert(s, a := 1) and struct_update(s, a := 1) as {@link StructOperators}' calls of the struct, then
     * each field's name, a string, before its value; the struct must come first, unnamed.
     */
    private static SqlNode edit(SqlCall c, boolean update) {
        String function = update ? "struct_update" : "struct_insert";
        List<SqlNode> ops = c.getOperandList();
        if (ops.isEmpty() || ops.get(0).getKind() == SqlKind.ARGUMENT_ASSIGNMENT) {
            throw new SqlError(function + " needs a struct as its first argument" + SupportCheck.at(c.getParserPosition()));
        }
        List<SqlNode> args = new ArrayList<>();
        args.add(ops.get(0));
        namesAndValues(ops.subList(1, ops.size()), function, args);
        return StructOperators.edit(c.getParserPosition(), update, args);
    }

    /** Each {@code name := value} as the name, a string, then the value; anything else refused by name. */
    private static void namesAndValues(List<SqlNode> ops, String function, List<SqlNode> args) {
        for (SqlNode o : ops) {
            if (!(o instanceof SqlBasicCall a) || a.getKind() != SqlKind.ARGUMENT_ASSIGNMENT
                    || !(a.operand(1) instanceof SqlIdentifier name)) {
                throw new SqlError("unsupported: " + function + " needs name := value for every field"
                        + SupportCheck.at(o.getParserPosition()));
            }
            args.add(SqlLiteral.createCharString(name.getSimple(), name.getParserPosition()));
            args.add(a.operand(0));
        }
    }
}

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
 * name for every value is refused by name; DuckDB's {@code row(...)}, a struct without field names, as Calcite's ROW.
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
                if (c.getKind() != SqlKind.OTHER_FUNCTION
                        || !c.getOperator().getName().toUpperCase(Locale.ROOT).equals("STRUCT_PACK")
                        || c.getOperator() == StructOperators.STRUCT_PACK) {
                    return c;
                }
                List<SqlNode> args = new ArrayList<>();
                for (SqlNode o : c.getOperandList()) {
                    if (!(o instanceof SqlBasicCall a) || a.getKind() != SqlKind.ARGUMENT_ASSIGNMENT
                            || !(a.operand(1) instanceof SqlIdentifier name)) {
                        throw new SqlError("unsupported: struct_pack needs name := value for every field"
                                + SupportCheck.at(o.getParserPosition()));
                    }
                    args.add(SqlLiteral.createCharString(name.getSimple(), name.getParserPosition()));
                    args.add(a.operand(0));
                }
                return StructOperators.pack(c.getParserPosition(), args);
            }
        });
        return r == null ? node : r;
    }
}

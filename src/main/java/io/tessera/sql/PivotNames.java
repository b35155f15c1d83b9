package io.tessera.sql;

import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlCharStringLiteral;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlPivot;
import org.apache.calcite.sql.SqlUnpivot;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.util.SqlBasicVisitor;

/**
 * The names of the columns PIVOT and UNPIVOT make, as DuckDB gives them where Calcite's differ: a PIVOT value that is
 * a string and has no alias names its column by the string itself ({@code IN ('a', 'b')} makes columns {@code a} and
 * {@code b}, where Calcite would name them {@code 'a'} with the quotes); an UNPIVOT value's alias written as a name
 * ({@code IN ((a, b) AS ab)}) is the text that names it, where Calcite reads only a string literal there and took
 * {@code ab} for a column.
 */
final class PivotNames {
    private PivotNames() {
    }

    /** Renames in place: PIVOT and UNPIVOT keep their lists as they were parsed. */
    static void rewrite(SqlNode node) {
        node.accept(new SqlBasicVisitor<Void>() {
            @Override
            public Void visit(SqlCall call) {
                if (call instanceof SqlPivot p) {
                    namePivotValues(p.inList);
                } else if (call instanceof SqlUnpivot u) {
                    nameUnpivotAliases(u.inList);
                }
                return super.visit(call);
            }
        });
    }

    private static void namePivotValues(SqlNodeList in) {
        for (int i = 0; i < in.size(); i++) {
            SqlNode value = in.get(i);
            // a value of a one-column axis is parsed as a list of one
            SqlNode only = value instanceof SqlNodeList l && l.size() == 1 ? l.get(0) : value;
            if (only instanceof SqlCharStringLiteral s) {
                SqlParserPos pos = s.getParserPosition();
                in.set(i, SqlStdOperatorTable.AS.createCall(pos, value,
                        new SqlIdentifier(s.getValueAs(String.class), pos)));
            }
        }
    }

    private static void nameUnpivotAliases(SqlNodeList in) {
        for (SqlNode item : in) {
            if (item instanceof SqlBasicCall as && as.getKind() == SqlKind.AS && as.operandCount() == 2) {
                SqlNode alias = as.operand(1);
                if (alias instanceof SqlIdentifier id && id.isSimple()) {
                    as.setOperand(1, text(id));
                } else if (alias instanceof SqlNodeList list) {
                    for (int j = 0; j < list.size(); j++) {
                        if (list.get(j) instanceof SqlIdentifier id && id.isSimple()) {
                            list.set(j, text(id));
                        }
                    }
                }
            }
        }
    }

    private static SqlNode text(SqlIdentifier id) {
        return SqlLiteral.createCharString(id.getSimple(), id.getParserPosition());
    }
}

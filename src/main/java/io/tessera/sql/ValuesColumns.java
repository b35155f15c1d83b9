package io.tessera.sql;

import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlInsert;
import org.apache.calcite.sql.SqlJoin;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.util.SqlShuttle;

import java.util.ArrayList;
import java.util.List;

/**
 * The columns of a VALUES list named {@code col0, col1, ...}, as DuckDB names them, where Calcite would name them
 * {@code EXPR$0, EXPR$1, ...}: {@code VALUES (1, 'a')} and {@code SELECT * FROM (VALUES (1)) v} give col0 (and col1).
 * A VALUES in FROM gets the names as its column list (a shorter list the user wrote, {@code v(x)}, is filled up
 * with DuckDB's names for the rest); a VALUES anywhere else a query stands (the statement, a branch of a set
 * operation, a WITH item, a subquery) becomes {@code SELECT * FROM (VALUES ...) AS valueslist(col0, ...)}. An
 * INSERT's VALUES is left as it is: its rows go to the table's columns by position.
 */
final class ValuesColumns {

    /** The alias of a VALUES list in FROM that has none, DuckDB's. */
    private static final String ALIAS = "valueslist";

    private ValuesColumns() {
    }

    static SqlNode rewrite(SqlNode node) {
        SqlNode r = node.accept(new SqlShuttle() {
            @Override
            public SqlNode visit(SqlCall call) {
                if (call.getKind() == SqlKind.VALUES) {
                    SqlParserPos pos = call.getParserPosition();
                    return new SqlSelect(pos, null, SqlNodeList.of(SqlIdentifier.star(pos)), named(call, null),
                            null, null, null, null, null, null, null, null, null);
                }
                if (call.getKind() == SqlKind.AS && call.operand(0).getKind() == SqlKind.VALUES
                        && call.operandCount() > 2) {
                    return call; // a VALUES in FROM, already named by fromItem
                }
                if (call instanceof SqlInsert insert && insert.getSource().getKind() == SqlKind.VALUES) {
                    return insert;
                }
                if (call instanceof SqlSelect select && select.getFrom() != null) {
                    select.setFrom(fromItem(select.getFrom()));
                }
                if (call instanceof SqlJoin join) {
                    join.setLeft(fromItem(join.getLeft()));
                    join.setRight(fromItem(join.getRight()));
                }
                return super.visit(call);
            }
        });
        return r == null ? node : r;
    }

    /** An item of FROM, a VALUES in it named with an alias and all its columns. */
    private static SqlNode fromItem(SqlNode item) {
        if (item.getKind() == SqlKind.VALUES) {
            return named((SqlCall) item, null);
        }
        if (item.getKind() == SqlKind.AS && ((SqlCall) item).operand(0).getKind() == SqlKind.VALUES) {
            return named(((SqlCall) item).operand(0), (SqlCall) item);
        }
        return item;
    }

    /**
     * {@code values AS alias(col0, ...)}: the alias and column names of {@code as} where it has them, DuckDB's
     * names for the columns it leaves unnamed.
     */
    private static SqlCall named(SqlCall values, SqlCall as) {
        SqlParserPos pos = values.getParserPosition();
        List<SqlNode> operands = new ArrayList<>();
        operands.add(values);
        operands.add(as == null ? new SqlIdentifier(ALIAS, pos) : as.operand(1));
        int given = as == null ? 0 : as.operandCount() - 2;
        for (int i = 0; i < given; i++) {
            operands.add(as.operand(i + 2));
        }
        for (int i = given; i < columns(values); i++) {
            operands.add(new SqlIdentifier("col" + i, pos));
        }
        return SqlStdOperatorTable.AS.createCall(pos, operands);
    }

    /** The number of columns of a VALUES list: that of its first row. */
    private static int columns(SqlCall values) {
        if (values.operandCount() == 0) {
            return 0;
        }
        SqlNode first = values.operand(0);
        return first instanceof SqlCall row && row.getKind() == SqlKind.ROW ? row.operandCount() : 1;
    }
}

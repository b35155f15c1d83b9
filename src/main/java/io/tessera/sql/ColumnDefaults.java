package io.tessera.sql;

import io.tessera.storage.ColumnSchema;
import io.tessera.storage.Database;
import io.tessera.storage.Table;
import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlInsert;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.util.SqlBasicVisitor;

import java.util.ArrayList;
import java.util.List;

/**
 * A column's DEFAULT: kept as the text of its expression as written ({@link #text}: a constant or a call such as
 * {@code nextval('s')}; a column name or a subquery refused, as DuckDB refuses them), and put into an INSERT before
 * validation ({@link #rewrite}): for each column the INSERT's column list leaves out, and for each {@code DEFAULT} in
 * its VALUES rows, the expression parsed again from its text, so that it is computed for each row inserted, a
 * sequence's next value for each. A column without a default stays NULL, as Calcite makes it.
 */
public final class ColumnDefaults {

    private static final SqlParserPos POS = SqlParserPos.ZERO;
    /** The name of an INSERT's query when the defaults are added to its rows. */
    private static final String SOURCE = "inserted";

    private ColumnDefaults() {
    }

    /**
     * The text of a DEFAULT expression in the statement {@code sql}, checked: as written where its position gives
     * text that parses to the same expression, else as Calcite writes the expression.
     */
    public static String text(SqlNode expression, String sql) {
        expression.accept(new SqlBasicVisitor<Void>() {
            @Override
            public Void visit(SqlIdentifier id) {
                throw new SqlError("DEFAULT value cannot contain column names" + SupportCheck.at(
                        expression.getParserPosition()));
            }

            @Override
            public Void visit(SqlCall call) {
                if (call instanceof SqlSelect || call.getKind() == SqlKind.SELECT || call.getKind() == SqlKind.UNION) {
                    throw new SqlError("DEFAULT value cannot contain subqueries" + SupportCheck.at(
                            expression.getParserPosition()));
                }
                return super.visit(call);
            }
        });
        return ExpressionText.of(expression, sql);
    }

    /** A default's expression, parsed from its text: nodes of its own for each use. */
    private static SqlNode parse(String text) {
        return ExpressionText.parse(text);
    }

    /** An INSERT into a table with defaults with them put in; any other statement as it is. */
    static SqlNode rewrite(SqlNode node, Database db) {
        if (!(node instanceof SqlInsert insert) || db == null
                || !(insert.getTargetTable() instanceof SqlIdentifier name) || !db.hasTable(name.names.getLast())) {
            return node;
        }
        Table table = db.table(name.names.getLast());
        if (insert instanceof InsertClauses clauses) {
            clauses.completeDefaultValues(table.schema());
        }
        if (table.schema().columns().stream().allMatch(c -> c.defaultValue() == null)) {
            return node;
        }
        SqlNodeList columns = insert.getTargetColumnList();
        List<ColumnSchema> targets = new ArrayList<>();
        List<ColumnSchema> omitted = new ArrayList<>(table.schema().columns());
        if (columns == null) {
            targets.addAll(omitted);
            omitted.clear();
        } else {
            for (SqlNode c : columns) {
                int i = c instanceof SqlIdentifier id && id.isSimple() ? table.schema().indexOf(id.getSimple()) : -1;
                if (i < 0) {
                    return node; // the validator names it
                }
                targets.add(table.schema().columns().get(i));
                omitted.remove(table.schema().columns().get(i));
            }
        }
        omitted.removeIf(c -> c.defaultValue() == null);
        SqlNode source = insert.getSource();
        boolean values = source.getKind() == SqlKind.VALUES;
        if (values) {
            SqlCall rows = (SqlCall) source;
            for (int r = 0; r < rows.operandCount(); r++) {
                if (rows.operand(r) instanceof SqlBasicCall row && row.getKind() == SqlKind.ROW) {
                    rows.setOperand(r, withDefaults(row, targets, omitted));
                }
            }
        }
        if (omitted.isEmpty()) {
            return node;
        }
        SqlNodeList extended = new SqlNodeList(columns.getList(), columns.getParserPosition());
        for (ColumnSchema c : omitted) {
            extended.add(new SqlIdentifier(c.name(), POS));
        }
        insert.setOperand(3, extended);
        if (!values) {
            // SELECT inserted.*, default, ... FROM (query) AS inserted: the defaults computed for each of its rows
            SqlNodeList list = SqlNodeList.of(SqlIdentifier.star(List.of(SOURCE, ""), POS, List.of(POS, POS)));
            omitted.forEach(c -> list.add(parse(c.defaultValue())));
            SqlNode from = SqlStdOperatorTable.AS.createCall(POS, source, new SqlIdentifier(SOURCE, POS));
            insert.setOperand(2, new SqlSelect(POS, null, list, from, null, null, null, null, null, null, null,
                    null, null));
        }
        return node;
    }

    /** A VALUES row with each DEFAULT of a column that has one, and the omitted columns' defaults after it. */
    private static SqlNode withDefaults(SqlBasicCall row, List<ColumnSchema> targets, List<ColumnSchema> omitted) {
        List<SqlNode> operands = new ArrayList<>(row.getOperandList());
        for (int i = 0; i < operands.size() && i < targets.size(); i++) {
            if (operands.get(i).getKind() == SqlKind.DEFAULT && targets.get(i).defaultValue() != null) {
                operands.set(i, parse(targets.get(i).defaultValue()));
            }
        }
        omitted.forEach(c -> operands.add(parse(c.defaultValue())));
        return SqlStdOperatorTable.ROW.createCall(row.getParserPosition(), operands);
    }
}

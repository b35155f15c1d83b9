package io.tessera.exec;

import io.tessera.api.QueryCancel;
import io.tessera.api.QueryResult;
import io.tessera.sql.InsertClauses;
import io.tessera.sql.Parameters;
import io.tessera.sql.SqlError;
import io.tessera.storage.Table;
import io.tessera.storage.TableSchema;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.util.SqlBasicVisitor;

import java.util.List;

/**
 * RETURNING of INSERT, UPDATE and DELETE: its items over the rows the statement wrote (or removed), computed as
 * {@code SELECT items FROM table AS alias} is, planned over the table (so the items are typed, checked and named as
 * in a query of it) and run with the plan's scan of the table replaced by a scan of those rows, held in the
 * statement's temporary database ({@link FileTableLoader}).
 */
final class ReturningRows {

    private ReturningRows() {
    }

    static QueryResult of(QueryEngine engine, TableSchema schema, String alias, SqlNodeList items, List<Object[]> rows,
            Parameters parameters, QueryCancel cancel) {
        refuseSubqueries(items);
        FileTableLoader files = engine.statementFiles();
        if (files == null) {
            throw new SqlError("RETURNING runs only as a statement of its own");
        }
        Table held = files.rows("returning", schema.columns(), rows);
        SqlParserPos pos = SqlParserPos.ZERO;
        SqlNode from = SqlStdOperatorTable.AS.createCall(pos, new SqlIdentifier(schema.name(), pos),
                new SqlIdentifier(alias, pos));
        SqlSelect query = new SqlSelect(pos, null, items, from, null, null, null, null, null, null, null, null, null);
        return engine.result(HeldRowScans.over(engine, schema.name(), HeldRowScans.EVERY, held,
                parameters.bind(query)), cancel);
    }

    /**
     * A subquery among the items would read the table as the statement left it, and the plan's scans of the table
     * are all replaced: refused rather than answered from the wrong rows.
     */
    private static void refuseSubqueries(SqlNodeList items) {
        items.accept(new SqlBasicVisitor<Void>() {
            @Override
            public Void visit(SqlCall call) {
                if (call instanceof SqlSelect || call.getKind() == SqlKind.UNION || call.getKind() == SqlKind.EXISTS) {
                    throw new SqlError("unsupported: a subquery in RETURNING" + InsertClauses.at(
                            call.getParserPosition()));
                }
                return super.visit(call);
            }
        });
    }
}

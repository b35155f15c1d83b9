package io.tessera.sql;

import org.apache.calcite.sql.SqlDelete;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.parser.SqlParserPos;

/**
 * A DELETE as Tessera's grammar reads it: Calcite's {@link SqlDelete} with PostgreSQL's and DuckDB's clauses beside
 * it: {@code USING from-list} (the rows of the table that the condition matches with some row of the list are
 * deleted, {@link DataChangeQueries#delete}) and {@code RETURNING items} (the deleted rows' items, computed by
 * exec.ReturningRows).
 */
public final class DeleteClauses extends SqlDelete {

    private final SqlNode using;
    private final SqlNodeList returning;

    public DeleteClauses(SqlParserPos pos, SqlNode table, SqlNode condition, SqlIdentifier alias, SqlNode using,
            SqlNodeList returning) {
        super(pos, table, condition, null, alias);
        this.using = using;
        this.returning = returning;
    }

    /** The USING list (a table reference, or the join of several), or null. */
    public SqlNode using() {
        return using;
    }

    /** The RETURNING items, or null. */
    public SqlNodeList returning() {
        return returning;
    }
}

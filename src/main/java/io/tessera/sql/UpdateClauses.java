package io.tessera.sql;

import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlUpdate;
import org.apache.calcite.sql.parser.SqlParserPos;

/**
 * An UPDATE as Tessera's grammar reads it: Calcite's {@link SqlUpdate} with PostgreSQL's and DuckDB's clauses beside
 * it: {@code FROM from-list} (each row of the table that the condition matches with some row of the list takes its
 * new values from one such row, {@link DataChangeQueries#update}) and {@code RETURNING items} (the changed rows'
 * items, computed by exec.ReturningRows).
 */
public final class UpdateClauses extends SqlUpdate {

    private final SqlNode from;
    private final SqlNodeList returning;

    public UpdateClauses(SqlParserPos pos, SqlNode table, SqlNodeList columns, SqlNodeList values, SqlNode condition,
            SqlIdentifier alias, SqlNode from, SqlNodeList returning) {
        super(pos, table, columns, values, condition, null, alias);
        this.from = from;
        this.returning = returning;
    }

    /** The FROM list (a table reference, or the join of several), or null. */
    public SqlNode from() {
        return from;
    }

    /** The RETURNING items, or null. */
    public SqlNodeList returning() {
        return returning;
    }
}

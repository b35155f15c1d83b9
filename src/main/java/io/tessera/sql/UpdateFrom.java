package io.tessera.sql;

import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlUpdate;
import org.apache.calcite.sql.parser.SqlParserPos;

/**
 * {@code UPDATE table SET ... FROM from-list WHERE condition}, PostgreSQL's and DuckDB's: each row of the table that
 * the condition matches with some row of the FROM list takes its new values from one such row
 * ({@link DataChangeQueries#update}).
 */
public final class UpdateFrom extends SqlUpdate {

    private final SqlNode from;

    public UpdateFrom(SqlParserPos pos, SqlNode table, SqlNodeList columns, SqlNodeList values, SqlNode condition,
            SqlIdentifier alias, SqlNode from) {
        super(pos, table, columns, values, condition, null, alias);
        this.from = from;
    }

    /** The FROM list: a table reference, or the join of several. */
    public SqlNode from() {
        return from;
    }
}

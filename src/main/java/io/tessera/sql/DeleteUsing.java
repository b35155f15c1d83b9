package io.tessera.sql;

import org.apache.calcite.sql.SqlDelete;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.parser.SqlParserPos;

/**
 * {@code DELETE FROM table USING from-list WHERE condition}, PostgreSQL's and DuckDB's: the rows of the table that the
 * condition matches with some row of the USING list are deleted ({@link DataChangeQueries#delete}).
 */
public final class DeleteUsing extends SqlDelete {

    private final SqlNode using;

    public DeleteUsing(SqlParserPos pos, SqlNode table, SqlNode condition, SqlIdentifier alias, SqlNode using) {
        super(pos, table, condition, null, alias);
        this.using = using;
    }

    /** The USING list: a table reference, or the join of several. */
    public SqlNode using() {
        return using;
    }
}

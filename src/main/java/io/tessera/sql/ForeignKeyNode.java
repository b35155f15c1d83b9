package io.tessera.sql;

import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlSpecialOperator;
import org.apache.calcite.sql.parser.SqlParserPos;

import java.util.Arrays;
import java.util.List;

/**
 * A FOREIGN KEY of CREATE TABLE as the grammar reads it: a column's {@code REFERENCES parent [(column)]} or the
 * table's {@code [CONSTRAINT name] FOREIGN KEY (columns) REFERENCES parent [(columns)]}, and where an ON DELETE or ON
 * UPDATE action other than NO ACTION or RESTRICT was written (refused by {@link ForeignKeys}), else null.
 */
public final class ForeignKeyNode extends SqlCall {

    private static final SqlOperator OPERATOR = new SqlSpecialOperator("FOREIGN KEY", SqlKind.FOREIGN_KEY);

    /** The referencing columns, as written. */
    public final SqlNodeList columns;
    public final SqlIdentifier parent;
    /** The parent's columns, as written; null where the parent's primary key is meant. */
    public final SqlNodeList referenced;
    /** Where a CASCADE, SET NULL or SET DEFAULT action was written, or null. */
    public final SqlParserPos cascade;

    public ForeignKeyNode(SqlParserPos pos, SqlNodeList columns, SqlIdentifier parent, SqlNodeList referenced,
            SqlParserPos cascade) {
        super(pos);
        this.columns = columns;
        this.parent = parent;
        this.referenced = referenced;
        this.cascade = cascade;
    }

    @Override
    public SqlOperator getOperator() {
        return OPERATOR;
    }

    @Override
    public List<SqlNode> getOperandList() {
        return Arrays.asList(columns, parent, referenced);
    }
}

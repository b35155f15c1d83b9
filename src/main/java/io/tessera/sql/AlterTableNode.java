package io.tessera.sql;

import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlDataTypeSpec;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlSpecialOperator;
import org.apache.calcite.sql.parser.SqlParserPos;

import java.util.Arrays;
import java.util.List;

/**
 * {@code ALTER TABLE [IF EXISTS] table} and its one action as the grammar reads it ({@code TesseraAlterTable} in
 * {@code src/main/codegen/includes/parserImpls.ftl}); exec.TableAlterations carries it out. Names keep their
 * positions, for errors that name them.
 */
public final class AlterTableNode extends SqlCall {

    /** What the statement changes. */
    public enum Action {
        ADD_COLUMN, DROP_COLUMN, RENAME_COLUMN, RENAME_TABLE, SET_TYPE, SET_DEFAULT, DROP_DEFAULT, SET_NOT_NULL,
        DROP_NOT_NULL, ADD_CHECK
    }

    private static final SqlOperator OPERATOR = new SqlSpecialOperator("ALTER TABLE", SqlKind.OTHER_DDL);

    public final SqlIdentifier table;
    public final boolean ifExists;
    public final Action action;
    /** The column the action changes; null for RENAME TO. */
    public final SqlIdentifier column;
    /** ADD's IF NOT EXISTS, DROP's IF EXISTS. */
    public final boolean ifColumn;
    /** RENAME's new name (of the column or the table), else null. */
    public final SqlIdentifier newName;
    /** ADD's column type, or the type ALTER ... TYPE converts to; else null. */
    public final SqlDataTypeSpec type;
    /** ADD's DEFAULT, ALTER ... TYPE's USING or SET DEFAULT's expression; null where none is written. */
    public final SqlNode expression;
    /** ADD's NOT NULL. */
    public final boolean notNull;
    /** Where ADD's column has a PRIMARY KEY or UNIQUE, or where ADD CHECK's constraint is (both refused); else null. */
    public final SqlParserPos constraint;

    public AlterTableNode(SqlParserPos pos, SqlIdentifier table, boolean ifExists, Action action,
            SqlIdentifier column, boolean ifColumn, SqlIdentifier newName, SqlDataTypeSpec type, SqlNode expression,
            boolean notNull, SqlParserPos constraint) {
        super(pos);
        this.table = table;
        this.ifExists = ifExists;
        this.action = action;
        this.column = column;
        this.ifColumn = ifColumn;
        this.newName = newName;
        this.type = type;
        this.expression = expression;
        this.notNull = notNull;
        this.constraint = constraint;
    }

    /** ADD's or ALTER ... TYPE's type as storage keeps it. */
    public io.tessera.storage.DataType columnType(String tableName) {
        return ColumnTypes.of(type, tableName);
    }

    /** " at line l, column c" of {@code pos}, for an error about a part of the statement. */
    public static String at(SqlParserPos pos) {
        return SupportCheck.at(pos);
    }

    @Override
    public SqlOperator getOperator() {
        return OPERATOR;
    }

    @Override
    public List<SqlNode> getOperandList() {
        return Arrays.asList(table, column, newName, type, expression);
    }
}

package io.tessera.sql;

import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.ddl.SqlColumnDeclaration;
import org.apache.calcite.sql.ddl.SqlCreateTable;
import org.apache.calcite.sql.ddl.SqlDropTable;

import java.util.ArrayList;
import java.util.List;

/**
 * CREATE TABLE and DROP TABLE as Calcite's DDL grammar parsed them, turned into {@link Statement}s. What the grammar
 * takes and Tessera does not keep (a default, a key, a schema name, {@code AS query}) is an error naming its
 * position, never silently dropped.
 */
final class TableDefinitions {

    private TableDefinitions() {
    }

    static Statement.CreateTable create(SqlCreateTable create) {
        if (create.getReplace()) {
            throw SupportCheck.unsupported("CREATE OR REPLACE TABLE", create.getParserPosition());
        }
        String table = tableName(create.name);
        if (create.query != null) {
            throw SupportCheck.unsupported("CREATE TABLE ... AS query", create.query.getParserPosition());
        }
        if (create.columnList == null || create.columnList.isEmpty()) {
            throw new SqlError("CREATE TABLE " + table + " needs its columns: CREATE TABLE name (column type"
                    + " [NOT NULL], ...)" + SupportCheck.at(create.name.getParserPosition()));
        }
        List<Statement.Column> columns = new ArrayList<>();
        for (SqlNode element : create.columnList) {
            columns.add(column(element, table));
        }
        return new Statement.CreateTable(table, columns, create.ifNotExists);
    }

    static Statement.DropTable drop(SqlDropTable drop) {
        return new Statement.DropTable(tableName(drop.name), drop.ifExists);
    }

    private static Statement.Column column(SqlNode element, String table) {
        if (element instanceof SqlIdentifier id) {
            throw new SqlError("CREATE TABLE " + table + ": column " + id + " needs a type"
                    + SupportCheck.at(id.getParserPosition()));
        }
        if (!(element instanceof SqlColumnDeclaration c)) {
            // PRIMARY KEY (...), UNIQUE (...), CONSTRAINT name ...
            throw SupportCheck.unsupported("table constraint " + element.getKind().name().replace('_', ' '),
                    element.getParserPosition());
        }
        if (c.expression != null) {
            throw SupportCheck.unsupported("column default or generated column", c.expression.getParserPosition());
        }
        Boolean nullable = c.dataType.getNullable();
        return new Statement.Column(c.name.getSimple(), ColumnTypes.of(c.dataType, table),
                nullable == null || nullable);
    }

    private static String tableName(SqlIdentifier name) {
        if (!name.isSimple()) {
            throw SupportCheck.unsupported("a qualified table name " + name, name.getParserPosition());
        }
        return name.getSimple();
    }
}

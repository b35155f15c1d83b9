package io.tessera.sql;

import io.tessera.storage.TableKey;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.ddl.SqlCheckConstraint;
import org.apache.calcite.sql.ddl.SqlKeyConstraint;
import org.apache.calcite.sql.ddl.SqlColumnDeclaration;
import org.apache.calcite.sql.ddl.SqlCreateTable;
import org.apache.calcite.sql.ddl.SqlCreateView;
import org.apache.calcite.sql.ddl.SqlDropTable;
import org.apache.calcite.sql.ddl.SqlDropView;

import java.util.ArrayList;
import java.util.List;

/**
 * CREATE TABLE [AS], DROP TABLE, CREATE VIEW and DROP VIEW as Calcite's DDL grammar parsed them, turned into
 * {@link Statement}s. What the grammar takes and Tessera does not keep (a schema name) is an
 * error naming its position, never silently dropped; PRIMARY KEY and UNIQUE are kept as the table's keys, a column's
 * DEFAULT as its text ({@link ColumnDefaults}), a CHECK as its condition's text ({@link CheckConstraints}), a generated
 * column's expression as its text ({@link GeneratedColumns}), a FOREIGN KEY as its columns and parent
 * ({@link ForeignKeys}, resolved against the parent when the table is made).
 */
final class TableDefinitions {

    private TableDefinitions() {
    }

    /** {@code CREATE TABLE name (columns)}; {@code sql} is the statement's text, whose defaults are kept as written. */
    static Statement.CreateTable create(SqlCreateTable create, String sql) {
        replaceOrIfNotExists(create);
        String table = tableName(create.name);
        if (create.query != null) {
            throw SupportCheck.unsupported("CREATE TABLE ... AS query", create.query.getParserPosition());
        }
        if (create.columnList == null || create.columnList.isEmpty()) {
            throw new SqlError("CREATE TABLE " + table + " needs its columns: CREATE TABLE name (column type"
                    + " [NOT NULL], ...)" + SupportCheck.at(create.name.getParserPosition()));
        }
        List<Statement.Column> columns = new ArrayList<>();
        List<SqlKeyConstraint> constraints = new ArrayList<>();
        List<SqlCheckConstraint> checkNodes = new ArrayList<>();
        List<ForeignKeyNode> foreignKeyNodes = new ArrayList<>();
        for (SqlNode element : create.columnList) {
            if (element instanceof ForeignKeyNode foreignKey) {
                foreignKeyNodes.add(foreignKey);
            } else if (element instanceof SqlKeyConstraint key) {
                constraints.add(key);
            } else if (element instanceof SqlCheckConstraint check) {
                checkNodes.add(check); // a column's or the table's: either may name any of the table's columns
            } else {
                columns.add(column(element, table, sql));
            }
        }
        List<TableKey> keys = new ArrayList<>();
        for (SqlKeyConstraint key : constraints) {
            keys.add(key(key, table, columns, keys));
        }
        List<String> names = columns.stream().map(Statement.Column::name).toList();
        List<CheckConstraints.Declared> checks = new ArrayList<>();
        for (SqlCheckConstraint check : checkNodes) {
            checks.add(CheckConstraints.of(check, table, names, sql));
        }
        List<ForeignKeys.Declared> foreignKeys = new ArrayList<>();
        for (ForeignKeyNode foreignKey : foreignKeyNodes) {
            foreignKeys.add(ForeignKeys.of(foreignKey, table, names));
        }
        return new Statement.CreateTable(table, columns, keys, checks, foreignKeys, create.ifNotExists,
                create.getReplace());
    }

    /**
     * A PRIMARY KEY or UNIQUE constraint (of a column, or of the table), its columns named as the table's are; a
     * column it does not have, a column named twice and a second primary key are errors, as in DuckDB.
     */
    private static TableKey key(SqlKeyConstraint key, String table, List<Statement.Column> columns,
            List<TableKey> before) {
        SqlIdentifier name = (SqlIdentifier) key.getOperandList().get(0);
        if (name != null) {
            throw SupportCheck.unsupported("a constraint's name (CONSTRAINT " + name + ")", name.getParserPosition());
        }
        boolean primary = key.getKind() == SqlKind.PRIMARY_KEY;
        if (primary && before.stream().anyMatch(TableKey::primary)) {
            throw new SqlError("CREATE TABLE " + table + ": table " + table + " has more than one PRIMARY KEY"
                    + SupportCheck.at(key.getParserPosition()));
        }
        List<String> names = new ArrayList<>();
        for (SqlNode c : (SqlNodeList) key.getOperandList().get(1)) {
            String written = ((SqlIdentifier) c).getSimple();
            String stored = columns.stream().map(Statement.Column::name).filter(written::equalsIgnoreCase)
                    .findFirst().orElseThrow(() -> new SqlError("CREATE TABLE " + table + ": column " + written
                            + " named in a key does not exist" + SupportCheck.at(c.getParserPosition())));
            if (names.contains(stored)) {
                throw new SqlError("CREATE TABLE " + table + ": column " + written + " appears twice in a key"
                        + SupportCheck.at(c.getParserPosition()));
            }
            names.add(stored);
        }
        return new TableKey(names, primary);
    }

    /** OR REPLACE with IF NOT EXISTS: an error, as in DuckDB (the one replaces what the other keeps). */
    private static void replaceOrIfNotExists(SqlCreateTable create) {
        if (create.getReplace() && create.ifNotExists) {
            throw new SqlError("Cannot specify both OR REPLACE and IF NOT EXISTS within single create statement"
                    + SupportCheck.at(create.getParserPosition()));
        }
    }

    static Statement.DropTable drop(SqlDropTable drop) {
        return new Statement.DropTable(tableName(drop.name), drop.ifExists);
    }

    private static Statement.Column column(SqlNode element, String table, String sql) {
        if (element instanceof SqlIdentifier id) {
            throw new SqlError("CREATE TABLE " + table + ": column " + id + " needs a type"
                    + SupportCheck.at(id.getParserPosition()));
        }
        if (!(element instanceof SqlColumnDeclaration c)) {
            throw SupportCheck.unsupported("table constraint " + element.getKind().name().replace('_', ' '),
                    element.getParserPosition());
        }
        if (c.expression != null && c.strategy != org.apache.calcite.schema.ColumnStrategy.DEFAULT) {
            return new Statement.Column(c.name.getSimple(), c.dataType == null ? null
                    : ColumnTypes.of(c.dataType, table), true, null, GeneratedColumns.text(table, c.name.getSimple(),
                    c.expression, c.strategy == org.apache.calcite.schema.ColumnStrategy.STORED, sql));
        }
        Boolean nullable = c.dataType.getNullable();
        return new Statement.Column(c.name.getSimple(), ColumnTypes.of(c.dataType, table),
                nullable == null || nullable, c.expression == null ? null : ColumnDefaults.text(c.expression, sql));
    }

    /** {@code CREATE [OR REPLACE] TABLE name AS query}; {@code query} is the query's text as written. */
    static Statement.CreateTableAs createAs(SqlCreateTable create, String query) {
        replaceOrIfNotExists(create);
        String table = tableName(create.name);
        if (create.columnList != null) {
            throw SupportCheck.unsupported("a column list in CREATE TABLE ... AS query (name the query's columns"
                    + " instead)", create.columnList.getParserPosition());
        }
        return new Statement.CreateTableAs(table, query, create.ifNotExists, create.getReplace());
    }

    /** {@code CREATE [OR REPLACE] VIEW name [(columns)] AS query}; {@code query} is the query's text as written. */
    static Statement.CreateView createView(SqlCreateView view, String query) {
        String name = tableName(view.name);
        List<String> columns = new ArrayList<>();
        if (view.columnList != null) {
            for (SqlNode c : view.columnList) {
                columns.add(((SqlIdentifier) c).getSimple());
            }
        }
        return new Statement.CreateView(name, columns, query, view.getReplace());
    }

    static Statement.DropView dropView(SqlDropView drop) {
        return new Statement.DropView(tableName(drop.name), drop.ifExists);
    }

    /** The table an INSERT, UPDATE or DELETE writes. */
    static String target(SqlNode table) {
        if (!(table instanceof SqlIdentifier id)) {
            throw SupportCheck.unsupported("a target that is not a table name", table.getParserPosition());
        }
        return tableName(id);
    }

    static String tableName(SqlIdentifier name) {
        if (!name.isSimple()) {
            throw SupportCheck.unsupported("a qualified table name " + name, name.getParserPosition());
        }
        return name.getSimple();
    }
}

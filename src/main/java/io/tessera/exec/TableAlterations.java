package io.tessera.exec;

import io.tessera.api.QueryCancel;
import io.tessera.api.QueryResult;
import io.tessera.sql.AlterTableNode;
import io.tessera.sql.CheckConstraints;
import io.tessera.sql.ColumnDefaults;
import io.tessera.sql.DidYouMean;
import io.tessera.sql.GeneratedColumns;
import io.tessera.sql.Parameters;
import io.tessera.sql.SqlError;
import io.tessera.sql.SqlFrontEnd;
import io.tessera.sql.Statement;
import io.tessera.storage.CheckConstraint;
import io.tessera.storage.ColumnSchema;
import io.tessera.storage.DataType;
import io.tessera.storage.Database;
import io.tessera.storage.StorageException;
import io.tessera.storage.Table;
import io.tessera.storage.TableKey;
import io.tessera.storage.TableSchema;
import io.tessera.storage.TableWriter;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;

import java.util.ArrayList;
import java.util.List;

/**
 * ALTER TABLE, each form one commit of the table's next version under the writer lock: a reader sees the table
 * before or after, and a statement that fails changes nothing. RENAME COLUMN, DROP COLUMN, SET / DROP NOT NULL and
 * RENAME TO change the manifest alone ({@link Database#alterColumns}, {@link Database#renameTable}); ADD COLUMN and
 * ALTER ... TYPE rewrite the table through a query built as a parsed tree (the stored columns, and the new column's
 * value or the converted one), as CREATE OR REPLACE TABLE ... AS writes its rows. Keys and CHECK constraints follow
 * their columns' names; a column a CHECK names is neither dropped nor converted, and ADD CHECK is refused (as DuckDB
 * does each).
 */
final class TableAlterations {

    private final QueryEngine engine;
    private final Database db;

    TableAlterations(QueryEngine engine, Database db) {
        this.engine = engine;
        this.db = db;
    }

    QueryResult alter(Statement.AlterTable s, Parameters parameters, QueryCancel cancel) {
        try (Database.WriteLock lock = db.lockForWriting()) {
            AlterTableNode node = parse(s.sql());
            String name = s.table();
            if (db.view(name) != null) {
                throw new SqlError("ALTER TABLE " + name + ": " + name + " is a view, not a table"
                        + AlterTableNode.at(node.table.getParserPosition()));
            }
            if (!db.hasTable(name)) {
                if (node.ifExists) {
                    return ResultRows.empty();
                }
                throw new SqlError("ALTER TABLE " + name + ": no table " + name
                        + DidYouMean.hint(name, DataChanges.tableNames(db)) + AlterTableNode.at(node.table.getParserPosition()));
            }
            TableSchema schema = db.table(name).schema();
            GeneratedColumns.checkAlter(schema, node.action, node.column == null ? null : node.column.getSimple());
            ForeignKeyAlterations.verify(db, schema, node);
            TableIndexes.verifyAlter(schema, node);
            switch (node.action) {
                case ADD_COLUMN -> addColumn(node, schema, s.sql(), parameters, cancel);
                case DROP_COLUMN -> dropColumn(node, schema);
                case RENAME_COLUMN -> renameColumn(node, schema);
                case RENAME_TABLE -> renameTable(node, schema);
                case SET_TYPE -> setType(node, schema, s.sql(), parameters, cancel);
                case SET_NOT_NULL, DROP_NOT_NULL -> setNullable(node, schema);
                case SET_DEFAULT, DROP_DEFAULT -> setDefault(node, schema, s.sql());
                case ADD_CHECK -> throw new SqlError("unsupported: ALTER TABLE " + schema.name() + " ADD CHECK: a"
                        + " CHECK constraint is declared with the table (CREATE TABLE), as in DuckDB"
                        + AlterTableNode.at(node.constraint));
            }
            return ResultRows.empty();
        }
    }

    private static AlterTableNode parse(String sql) {
        return (AlterTableNode) SqlFrontEnd.parse(sql);
    }

    /** ADD COLUMN: the table rewritten with the new column, its DEFAULT's value in every stored row (else NULL). */
    private void addColumn(AlterTableNode node, TableSchema schema, String sql, Parameters parameters,
            QueryCancel cancel) {
        String column = node.column.getSimple();
        if (schema.indexOf(column) >= 0) {
            if (node.ifColumn) {
                return;
            }
            throw exists(schema, column, node.column);
        }
        if (node.constraint != null) {
            throw new SqlError("unsupported: ALTER TABLE " + schema.name() + " ADD COLUMN " + column
                    + " with a PRIMARY KEY or UNIQUE constraint" + AlterTableNode.at(node.constraint));
        }
        DataType type = node.columnType(schema.name());
        List<ColumnSchema> columns = new ArrayList<>(schema.columns());
        String defaultText = node.expression == null ? null : ColumnDefaults.text(node.expression, sql);
        columns.add(column(column, type, !node.notNull, defaultText, schema, node.column));
        TableSchema next = schema(schema, columns, schema.keys(), node);
        if (node.expression != null) {
            // the default is a value of its own, no column of the table: planned alone first, so that a column named
            // in it is an error (as DuckDB's "the FROM clause is missing") rather than the row's value
            AlterTableNode alone = parse(sql);
            SqlNodeList item = SqlNodeList.of(cast(alone.expression, alone));
            plan(new SqlSelect(SqlParserPos.ZERO, null, item, null, null, null, null, null, null, null, null, null,
                    null), parameters);
        }
        AlterTableNode fresh = parse(sql);
        SqlNode value = fresh.expression == null ? SqlLiteral.createNull(SqlParserPos.ZERO) : fresh.expression;
        List<SqlNode> items = stored(schema);
        items.add(cast(value, fresh));
        rewrite(next, items, parameters, cancel);
    }

    /** DROP COLUMN: refused for the last column and for a key's; the manifest changes alone. */
    private void dropColumn(AlterTableNode node, TableSchema schema) {
        int c = schema.indexOf(node.column.getSimple());
        if (c < 0) {
            if (node.ifColumn) {
                return;
            }
            throw noColumn(schema, node.column);
        }
        String column = schema.columns().get(c).name();
        if (schema.columns().size() == 1) {
            throw new SqlError("ALTER TABLE " + schema.name() + " DROP COLUMN " + column + ": cannot drop the only"
                    + " column of a table" + AlterTableNode.at(node.column.getParserPosition()));
        }
        TableKey key = keyOf(schema, column);
        if (key != null) {
            throw new SqlError("ALTER TABLE " + schema.name() + " DROP COLUMN " + column + ": the constraint "
                    + key + " depends on it" + AlterTableNode.at(node.column.getParserPosition()));
        }
        List<CheckConstraint> checks = CheckConstraints.naming(schema, column);
        if (!checks.isEmpty()) {
            throw new SqlError("ALTER TABLE " + schema.name() + " DROP COLUMN " + column + ": cannot drop column "
                    + column + " because the CHECK constraint " + checks.get(0).name(schema.name()) + " depends on it"
                    + AlterTableNode.at(node.column.getParserPosition()));
        }
        List<ColumnSchema> columns = new ArrayList<>(schema.columns());
        columns.remove(c);
        int[] from = new int[columns.size()];
        for (int i = 0; i < from.length; i++) {
            from[i] = i < c ? i : i + 1;
        }
        alterColumns(schema, schema(schema, columns, schema.keys(), node), from);
    }

    /**
     * RENAME COLUMN a TO b: the manifest changes alone; keys name the column by its new name, and so do CHECKs'
     * conditions (their text rewritten where they name it, as DuckDB renames it in them).
     */
    private void renameColumn(AlterTableNode node, TableSchema schema) {
        int c = schema.indexOf(node.column.getSimple());
        if (c < 0) {
            throw noColumn(schema, node.column);
        }
        String old = schema.columns().get(c).name();
        String name = node.newName.getSimple();
        int other = schema.indexOf(name);
        if (other >= 0 && other != c) {
            throw exists(schema, name, node.newName);
        }
        List<ColumnSchema> columns = new ArrayList<>(schema.columns());
        ColumnSchema col = columns.get(c);
        columns.set(c, column(name, col.type(), col.nullable(), col.defaultValue(), schema, node.newName));
        columns.set(c, col.with(name, col.type(), col.nullable()));
        columns.replaceAll(g -> GeneratedColumns.renamed(g, schema.name(), old, name)); // inside the expressions
        List<TableKey> keys = new ArrayList<>();
        for (TableKey k : schema.keys()) {
            keys.add(new TableKey(k.columns().stream().map(n -> n.equalsIgnoreCase(old) ? name : n).toList(),
                    k.primary()));
        }
        List<CheckConstraint> checks = schema.checks().stream()
                .map(ch -> CheckConstraints.renamed(ch, schema.name(), old, name)).toList();
        alterColumns(schema, schema(schema, columns, keys, checks, node), identity(columns.size()));
    }

    /** RENAME TO: the manifest changes, the files are linked into the new name's folder. */
    private void renameTable(AlterTableNode node, TableSchema schema) {
        String name = node.newName.getSimple();
        if (!name.equalsIgnoreCase(schema.name()) && (db.hasTable(name) || db.view(name) != null)) {
            throw new SqlError("ALTER TABLE " + schema.name() + " RENAME TO " + name + ": a " + (db.hasTable(name)
                    ? "table" : "view") + " named " + name + " already exists"
                    + AlterTableNode.at(node.newName.getParserPosition()));
        }
        try {
            new TableSchema(name, schema.columns(), schema.keys());
            db.renameTable(schema.name(), name);
        } catch (IllegalArgumentException | StorageException e) {
            throw new SqlError("ALTER TABLE " + schema.name() + " RENAME TO " + name + ": " + e.getMessage()
                    + AlterTableNode.at(node.newName.getParserPosition()), e);
        }
    }

    /**
     * ALTER COLUMN c [SET DATA] TYPE type [USING expression]: the table rewritten with the column's values (or the
     * expression's) cast as CAST converts them; a value that does not convert fails the statement. A column of a key
     * or of a CHECK keeps its type, as in DuckDB.
     */
    private void setType(AlterTableNode node, TableSchema schema, String sql, Parameters parameters,
            QueryCancel cancel) {
        int c = schema.indexOf(node.column.getSimple());
        if (c < 0) {
            throw noColumn(schema, node.column);
        }
        ColumnSchema col = schema.columns().get(c);
        if (keyOf(schema, col.name()) != null) {
            throw new SqlError("ALTER TABLE " + schema.name() + " ALTER COLUMN " + col.name() + " TYPE: cannot change"
                    + " the type of a column of a PRIMARY KEY or UNIQUE constraint"
                    + AlterTableNode.at(node.column.getParserPosition()));
        }
        if (!CheckConstraints.naming(schema, col.name()).isEmpty()) {
            throw new SqlError("ALTER TABLE " + schema.name() + " ALTER COLUMN " + col.name() + " TYPE: cannot change"
                    + " the type of a column that has a CHECK constraint"
                    + AlterTableNode.at(node.column.getParserPosition()));
        }
        List<ColumnSchema> columns = new ArrayList<>(schema.columns());
        columns.set(c, new ColumnSchema(col.name(), node.columnType(schema.name()), col.nullable(), col.defaultValue()));
        AlterTableNode fresh = parse(sql);
        List<SqlNode> items = stored(schema);
        items.set(c, cast(fresh.expression != null ? fresh.expression
                : new SqlIdentifier(col.name(), SqlParserPos.ZERO), fresh));
        rewrite(schema(schema, columns, schema.keys(), node), items, parameters, cancel);
    }

    /** SET NOT NULL (refused where a stored value is NULL) or DROP NOT NULL (not of a primary key's column). */
    private void setNullable(AlterTableNode node, TableSchema schema) {
        int c = schema.indexOf(node.column.getSimple());
        if (c < 0) {
            throw noColumn(schema, node.column);
        }
        ColumnSchema col = schema.columns().get(c);
        boolean nullable = node.action == AlterTableNode.Action.DROP_NOT_NULL;
        if (nullable && schema.primaryKey() != null && schema.primaryKey().has(col.name())) {
            throw new SqlError("ALTER TABLE " + schema.name() + " ALTER COLUMN " + col.name() + " DROP NOT NULL:"
                    + " column " + col.name() + " is in the PRIMARY KEY" + AlterTableNode.at(node.column.getParserPosition()));
        }
        Table table = db.table(schema.name());
        if (!nullable && table.column(c).stats().nullCount() > 0) {
            throw new SqlError("NOT NULL constraint failed: " + schema.name() + "." + col.name() + " holds NULL"
                    + AlterTableNode.at(node.column.getParserPosition()));
        }
        List<ColumnSchema> columns = new ArrayList<>(schema.columns());
        columns.set(c, col.with(col.name(), col.type(), nullable));
        alterColumns(schema, schema(schema, columns, schema.keys(), node), identity(columns.size()));
    }

    /**
     * SET DEFAULT (kept as written, checked as CREATE TABLE checks a default) or DROP DEFAULT: the manifest changes
     * alone; the stored rows keep their values, later INSERTs that leave the column out take the new default.
     */
    private void setDefault(AlterTableNode node, TableSchema schema, String sql) {
        int c = schema.indexOf(node.column.getSimple());
        if (c < 0) {
            throw noColumn(schema, node.column);
        }
        ColumnSchema col = schema.columns().get(c);
        String text = node.action == AlterTableNode.Action.DROP_DEFAULT ? null
                : ColumnDefaults.text(node.expression, sql);
        List<ColumnSchema> columns = new ArrayList<>(schema.columns());
        columns.set(c, new ColumnSchema(col.name(), col.type(), col.nullable(), text));
        alterColumns(schema, schema(schema, columns, schema.keys(), node), identity(columns.size()));
    }

    private void alterColumns(TableSchema schema, TableSchema next, int[] from) {
        try {
            db.alterColumns(schema.name(), next, from);
        } catch (StorageException e) {
            throw new SqlError("ALTER TABLE " + schema.name() + ": " + e.getMessage(), e);
        }
    }

    /** The table replaced by the rows of {@code SELECT items FROM table}, in one commit. */
    private void rewrite(TableSchema next, List<SqlNode> items, Parameters parameters, QueryCancel cancel) {
        SqlSelect select = new SqlSelect(SqlParserPos.ZERO, null, new SqlNodeList(items, SqlParserPos.ZERO),
                new SqlIdentifier(next.name(), SqlParserPos.ZERO), null, null, null, null, null, null, null, null,
                null);
        QueryExecutor.Ran ran = engine.runLogical(plan(select, parameters), cancel);
        try (TableWriter w = db.replace(next)) {
            RowAppender.append(ran, w, cancel);
            w.commit();
        }
    }

    private SqlFrontEnd.LogicalPlan plan(SqlNode query, Parameters parameters) {
        return engine.frontEnd().plan(parameters.bind(query));
    }

    /** The table's stored columns, each by its name, as select items. */
    private static List<SqlNode> stored(TableSchema schema) {
        List<SqlNode> items = new ArrayList<>();
        for (ColumnSchema c : schema.columns()) {
            items.add(new SqlIdentifier(c.name(), SqlParserPos.ZERO));
        }
        return items;
    }

    /** {@code CAST(value AS type)}, the type as the statement wrote it. */
    private static SqlNode cast(SqlNode value, AlterTableNode node) {
        return SqlStdOperatorTable.CAST.createCall(value.getParserPosition(), value, node.type);
    }

    private static int[] identity(int n) {
        int[] out = new int[n];
        for (int i = 0; i < n; i++) {
            out[i] = i;
        }
        return out;
    }

    /** The key {@code column} belongs to, or null. */
    private static TableKey keyOf(TableSchema schema, String column) {
        return schema.keys().stream().filter(k -> k.has(column)).findFirst().orElse(null);
    }

    private static ColumnSchema column(String name, DataType type, boolean nullable, String defaultText,
            TableSchema schema, SqlIdentifier at) {
        try {
            return new ColumnSchema(name, type, nullable, defaultText);
        } catch (IllegalArgumentException e) {
            throw new SqlError("ALTER TABLE " + schema.name() + ": " + e.getMessage()
                    + AlterTableNode.at(at.getParserPosition()), e);
        }
    }

    /** The table's next schema, with the CHECKs, FOREIGN KEYs and indexes {@code current} has. */
    private static TableSchema schema(TableSchema current, List<ColumnSchema> columns, List<TableKey> keys,
            AlterTableNode node) {
        return schema(current, columns, keys, current.checks(), node);
    }

    private static TableSchema schema(TableSchema current, List<ColumnSchema> columns, List<TableKey> keys,
            List<CheckConstraint> checks, AlterTableNode node) {
        String name = current.name();
        try {
            return new TableSchema(name, columns, keys, checks, current.foreignKeys(), current.indexes());
        } catch (IllegalArgumentException e) {
            throw new SqlError("ALTER TABLE " + name + ": " + e.getMessage()
                    + AlterTableNode.at(node.getParserPosition()), e);
        }
    }

    private static SqlError noColumn(TableSchema schema, SqlIdentifier column) {
        return new SqlError("ALTER TABLE " + schema.name() + ": table " + schema.name() + " has no column "
                + column.getSimple() + DidYouMean.hint(column.getSimple(),
                schema.columns().stream().map(ColumnSchema::name).toList())
                + AlterTableNode.at(column.getParserPosition()));
    }

    private static SqlError exists(TableSchema schema, String column, SqlIdentifier at) {
        return new SqlError("ALTER TABLE " + schema.name() + ": column " + column + " already exists"
                + AlterTableNode.at(at.getParserPosition()));
    }
}

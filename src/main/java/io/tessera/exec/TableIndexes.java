package io.tessera.exec;

import io.tessera.api.QueryCancel;
import io.tessera.api.QueryResult;
import io.tessera.sql.AlterTableNode;
import io.tessera.sql.DidYouMean;
import io.tessera.sql.SqlError;
import io.tessera.sql.Statement;
import io.tessera.storage.Database;
import io.tessera.storage.Table;
import io.tessera.storage.TableIndex;
import io.tessera.storage.TableKey;
import io.tessera.storage.TableSchema;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;

/**
 * CREATE INDEX and DROP INDEX (sql.IndexStatements reads them), each one commit of its table's next version that
 * changes the manifest alone (storage.Database#alterColumns, the columns' files kept). Index names are one namespace
 * per database, apart from tables', views' and sequences', as in DuckDB (whose CREATE OR REPLACE INDEX replaces no
 * index either: a name taken is an error). A UNIQUE index is refused where the stored
 * rows already hold a duplicate, checked by a {@link KeyIndex} of its key; later writes check it with the table's
 * keys (TableSchema.enforcedKeys). DuckDB's messages throughout, and its refusal of ALTER TABLE on an indexed table.
 */
final class TableIndexes {

    private final Database db;
    private final DataChanges changes;

    TableIndexes(Database db, DataChanges changes) {
        this.db = db;
        this.changes = changes;
    }

    QueryResult create(Statement.CreateIndex c, QueryCancel cancel) {
        try (Database.WriteLock lock = db.lockForWriting()) {
            if (db.view(c.table()) != null) {
                throw new SqlError("Binder Error: can only create an index on a base table" + AlterTableNode.at(c.at()));
            }
            if (!db.hasTable(c.table())) {
                throw new SqlError("Catalog Error: Table with name " + c.table() + " does not exist!"
                        + DidYouMean.hint(c.table(), DataChanges.tableNames(db)) + AlterTableNode.at(c.at()));
            }
            if (owner(db, c.name()) != null) {
                if (c.ifNotExists()) {
                    return ResultRows.empty();
                }
                throw new SqlError("Catalog Error: Index with name \"" + c.name() + "\" already exists!");
            }
            TableSchema schema = db.table(c.table()).schema();
            for (String column : c.columns()) {
                if (schema.indexOf(column) < 0) {
                    throw new SqlError("Binder Error: Table \"" + schema.name() + "\" does not have a column named \""
                            + column + "\"" + DidYouMean.hint(column, schema.columns().stream()
                            .map(io.tessera.storage.ColumnSchema::name).toList()) + AlterTableNode.at(c.at()));
                }
            }
            TableIndex index = new TableIndex(c.name(), c.columns(), c.unique(), c.method());
            List<TableIndex> indexes = new ArrayList<>(schema.indexes());
            indexes.add(index);
            TableSchema next = schema.withIndexes(indexes);
            if (index.unique()) {
                verifyUnique(next, next.enforcedKeys().getLast(), cancel);
            }
            commit(next);
            return ResultRows.empty();
        }
    }

    QueryResult drop(Statement.DropIndex d) {
        try (Database.WriteLock lock = db.lockForWriting()) {
            Table owner = owner(db, d.name());
            if (owner == null) {
                if (d.ifExists()) {
                    return ResultRows.empty();
                }
                throw new SqlError("Catalog Error: Index with name " + d.name() + " does not exist!"
                        + DidYouMean.hint(d.name(), names(db)));
            }
            commit(without(owner.schema(), d.name()));
            return ResultRows.empty();
        }
    }

    /**
     * DuckDB's refusal of an ALTER TABLE of a table with indexes: only ADD COLUMN and SET / DROP DEFAULT pass (the
     * indexes kept as they are); any other change of the table, its columns' names, types or NULLs, is refused
     * naming the indexes, which DROP INDEX removes first.
     */
    static void verifyAlter(TableSchema schema, AlterTableNode node) {
        if (schema.indexes().isEmpty()) {
            return;
        }
        switch (node.action) {
            case ADD_COLUMN, SET_DEFAULT, DROP_DEFAULT, ADD_CHECK -> {
            }
            default -> throw new SqlError("Dependency Error: Cannot alter entry \"" + schema.name()
                    + "\" because there are entries that depend on it: index "
                    + String.join(", ", schema.indexes().stream().map(TableIndex::name).toList())
                    + " (DROP INDEX first)" + AlterTableNode.at(node.getParserPosition()));
        }
    }

    /** The table that has the index named {@code name} (names compared ignoring case), or null. */
    static Table owner(Database db, String name) {
        for (Table t : db.tables()) {
            if (t.schema().indexes().stream().anyMatch(x -> x.named(name))) {
                return t;
            }
        }
        return null;
    }

    private static List<String> names(Database db) {
        return db.tables().stream().flatMap(t -> t.schema().indexes().stream()).map(TableIndex::name).toList();
    }

    /** Fails where two stored rows have the same values of {@code key} (none NULL), as DuckDB's CREATE does. */
    private void verifyUnique(TableSchema schema, TableKey key, QueryCancel cancel) {
        KeyIndex seen = new KeyIndex(schema, List.of(key));
        List<Object[]> stored = changes.storedKeys(schema, List.of(key), cancel);
        for (int i = 0; i < stored.size(); i++) {
            if (seen.find(stored.get(i)) != null) {
                throw new SqlError("Constraint Error: Data contains duplicates on indexed column(s)");
            }
            seen.add(stored.get(i), i);
        }
    }

    private static TableSchema without(TableSchema schema, String index) {
        return schema.withIndexes(schema.indexes().stream().filter(x -> !x.named(index)).toList());
    }

    /** The table's next version: {@code next}'s indexes over the same columns and files. */
    private void commit(TableSchema next) {
        db.alterColumns(next.name(), next, IntStream.range(0, next.columns().size()).toArray());
    }
}

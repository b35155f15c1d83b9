package io.tessera.exec;

import io.tessera.api.QueryCancel;
import io.tessera.api.QueryResult;
import io.tessera.sql.ForeignKeys;
import io.tessera.sql.SqlError;
import io.tessera.storage.Database;
import io.tessera.storage.ForeignKey;
import io.tessera.storage.Table;
import io.tessera.storage.TableKey;
import io.tessera.storage.TableSchema;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.IntPredicate;

/**
 * FOREIGN KEY constraints over the rows a statement writes or removes, each checked by a query of the other table
 * ({@link ForeignKeys#missing}, {@link ForeignKeys#referenced}: an anti or semi join) whose scan of the written table
 * is replaced by a scan of those rows, held in the statement's temporary database (as {@link CheckedRows} does). The
 * rows are checked against the other table as stored before the statement, as DuckDB checks them. A failing check
 * fails the statement before anything is committed.
 */
final class ForeignKeyChecks {

    private ForeignKeyChecks() {
    }

    /** Fails where a row of {@code held} (rows about to be written into table {@code schema}) references no parent row. */
    static void verifyWritten(QueryEngine engine, TableSchema schema, Table held, QueryCancel cancel) {
        for (ForeignKey key : schema.foreignKeys()) {
            // the child's scan is the query's first; a table that references itself keeps its stored rows as parent
            QueryResult found = engine.result(HeldRowScans.over(engine, schema.name(), HeldRowScans.nth(0), held,
                    ForeignKeys.missing(schema.name(), key)), cancel);
            if (found.rowCount() > 0) {
                throw ForeignKeys.missingKey(key, found.rows().get(0));
            }
        }
    }

    /** Whether a row of table {@code parent} of {@code db} may be referenced by a foreign key. */
    static boolean referenced(Database db, String parent) {
        return !ForeignKeys.referencing(parent, schemas(db)).isEmpty();
    }

    /**
     * Fails where a row that a write removes from table {@code schema} (those of {@code removed}: deleted, or whose
     * key an UPDATE changes) is referenced by a row of a table's foreign key.
     */
    static void verifyRemoved(QueryEngine engine, Database db, TableSchema schema, Table removed, QueryCancel cancel) {
        for (ForeignKeys.Reference r : ForeignKeys.referencing(schema.name(), schemas(db))) {
            // the parent's scan comes after the child's: the second scan where the table references itself
            IntPredicate parentScan = HeldRowScans.nth(r.self() ? 1 : 0);
            QueryResult found = engine.result(HeldRowScans.over(engine, schema.name(), parentScan, removed,
                    ForeignKeys.referenced(r.child().name(), r.key())), cancel);
            if (found.rowCount() > 0) {
                throw ForeignKeys.stillReferenced(r.key(), found.rows().get(0));
            }
        }
    }

    /** Fails where another table's foreign key references table {@code table}, which DROP TABLE would drop. */
    static void verifyDrop(Database db, String table) {
        for (ForeignKeys.Reference r : ForeignKeys.referencing(table, schemas(db))) {
            if (!r.self()) {
                throw new SqlError("Could not drop the table because this table is main key table of the table \""
                        + r.child().name() + "\"");
            }
        }
    }

    /**
     * The rows of {@code before} whose values in a key column of {@code schema} differ in {@code after} (the same rows,
     * updated in place by ON CONFLICT DO UPDATE or INSERT OR REPLACE): rows removed for a foreign key referencing
     * them, as DuckDB sees them; a row replaced by one of the same keys removes nothing.
     */
    static List<Object[]> keyChanged(TableSchema schema, List<Object[]> before, List<Object[]> after) {
        List<Object[]> removed = new ArrayList<>();
        for (int i = 0; i < before.size(); i++) {
            Object[] old = before.get(i);
            Object[] now = after.get(i);
            for (TableKey k : schema.keys()) {
                if (k.columns().stream().map(schema::indexOf).anyMatch(c -> !Objects.equals(old[c], now[c]))) {
                    removed.add(old);
                    break;
                }
            }
        }
        return removed;
    }

    /** {@code rows} (values as a query gives them) held as a table of {@code schema}'s columns. */
    static Table held(QueryEngine engine, TableSchema schema, List<Object[]> rows) {
        return CheckedRows.files(engine).rows("referenced", schema.columns(), rows);
    }

    private static List<TableSchema> schemas(Database db) {
        return db.tables().stream().map(Table::schema).toList();
    }
}

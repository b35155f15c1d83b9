package io.tessera.exec;

import io.tessera.api.QueryCancel;
import io.tessera.api.QueryResult;
import io.tessera.sql.CheckConstraints;
import io.tessera.sql.SqlError;
import io.tessera.sql.SqlFrontEnd;
import io.tessera.storage.Database;
import io.tessera.storage.Table;
import io.tessera.storage.TableSchema;
import io.tessera.storage.TableWriter;

import java.util.List;
import java.util.function.BiFunction;

/**
 * A table's CHECK constraints over the rows a statement is about to write: {@link CheckConstraints#violations}
 * planned over the table (its conditions typed and resolved as in a query of it) and run with the plan's scan of the
 * table replaced by a scan of those rows, held in the statement's temporary database (as {@link ReturningRows} does).
 * A row that makes a condition FALSE fails the statement before anything is committed.
 */
final class CheckedRows {

    private CheckedRows() {
    }

    /** Whether rows written into a table of {@code schema} must pass a CHECK or a FOREIGN KEY before the commit. */
    static boolean constrained(TableSchema schema) {
        return !schema.checks().isEmpty() || !schema.foreignKeys().isEmpty();
    }

    /**
     * Fails where one of {@code rows} (values as a query's result gives them) makes a CHECK of {@code schema} FALSE
     * or references no row of a FOREIGN KEY's parent.
     */
    static void verify(QueryEngine engine, TableSchema schema, List<Object[]> rows, QueryCancel cancel) {
        if (!constrained(schema) || rows.isEmpty()) {
            return;
        }
        verify(engine, schema, files(engine).rows("checked", schema.columns(), rows), cancel);
    }

    /**
     * Fails where a row of {@code held} (a table of {@code schema}'s columns) makes a CHECK of it FALSE or references
     * no row of a FOREIGN KEY's parent ({@link ForeignKeyChecks}).
     */
    static void verify(QueryEngine engine, TableSchema schema, Table held, QueryCancel cancel) {
        ForeignKeyChecks.verifyWritten(engine, schema, held, cancel);
        if (schema.checks().isEmpty()) {
            return;
        }
        QueryResult failed = engine.result(HeldRowScans.over(engine, schema.name(), HeldRowScans.EVERY, held,
                CheckConstraints.violations(schema)), cancel);
        if (failed.rowCount() == 0) {
            return;
        }
        Object[] row = failed.rows().get(0);
        for (int i = 0; i < row.length; i++) {
            if (Boolean.TRUE.equals(row[i])) {
                throw CheckConstraints.failure(schema, schema.checks().get(i));
            }
        }
        throw CheckConstraints.failure(schema, schema.checks().get(0));
    }

    /**
     * Appends to {@code db}'s table of {@code schema}, which has CHECK constraints, the rows {@code importInto} writes
     * into the table it is given (a new table of the same columns, named by its second argument, in the statement's
     * temporary database, its first): they are checked there, and only then appended, so a row that fails writes
     * nothing (COPY FROM, {@code tessera import}). Returns what {@code importInto} returned; the caller holds the
     * database's writer lock.
     */
    static <T> T append(QueryEngine engine, Database db, TableSchema schema,
                        BiFunction<Database, String, T> importInto, QueryCancel cancel) {
        FileTableLoader.Imported<T> imported = files(engine).imported("checked", schema.columns(), importInto);
        verify(engine, schema, imported.rows(), cancel);
        try (TableWriter w = db.append(schema.name())) {
            if (RowAppender.append(rows(engine, schema, imported.rows(), cancel), w, cancel) > 0) {
                w.commit();
            }
        }
        return imported.result();
    }

    /** The rows of {@code held} (a table of {@code schema}'s columns), read as a query of the table reads them. */
    static QueryExecutor.Ran rows(QueryEngine engine, TableSchema schema, Table held, QueryCancel cancel) {
        return engine.runLogical(HeldRowScans.over(engine, schema.name(), HeldRowScans.EVERY, held,
                SqlFrontEnd.selectAll(schema.name())), cancel);
    }

    /** The statement's temporary database, which holds the rows checked. */
    static FileTableLoader files(QueryEngine engine) {
        FileTableLoader files = engine.statementFiles();
        if (files == null) {
            throw new SqlError("a write to a table with CHECK or FOREIGN KEY constraints runs only as a statement of"
                    + " its own");
        }
        return files;
    }
}

package io.tessera.exec;

import io.tessera.api.QueryCancel;
import io.tessera.api.QueryResult;
import io.tessera.api.ResultColumn;
import io.tessera.optimize.Optimizer;
import io.tessera.plan.PhysicalPlanner;
import io.tessera.sql.DataChangeQueries;
import io.tessera.sql.Parameters;
import io.tessera.sql.SqlError;
import io.tessera.sql.SqlFrontEnd;
import io.tessera.sql.Statement;
import io.tessera.storage.ColumnSchema;
import io.tessera.storage.DataType;
import io.tessera.storage.Database;
import io.tessera.storage.StorageException;
import io.tessera.storage.Table;
import io.tessera.storage.TableSchema;
import io.tessera.storage.TableWriter;
import io.tessera.storage.View;
import org.apache.calcite.sql.SqlNode;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The statements that change a database besides CREATE and DROP TABLE: INSERT, UPDATE, DELETE, CREATE TABLE AS,
 * COPY (through {@link CopyFiles}), CREATE and DROP VIEW. Each holds the writer lock from reading to commit, so
 * what it read is what it changes; each writes a new generation of one table and commits it at once, or, failing
 * anywhere, commits nothing (the writer's files are removed and the table stays as it was). Readers of the
 * previous generation go on reading it. A data change returns one row, {@code count}: the rows it inserted,
 * changed or deleted.
 */
final class DataChanges {

    private final QueryEngine engine;
    private final Database db;

    DataChanges(QueryEngine engine, Database db) {
        this.engine = engine;
        this.db = db;
    }

    QueryResult insert(Statement.Insert s, Parameters parameters, QueryCancel cancel) {
        try (Database.WriteLock lock = db.lockForWriting()) {
            String table = existingTable(s.table(), "INSERT INTO");
            // Calcite's conversion of the INSERT gives the rows to append, cast to the table's column types
            QueryExecutor.Ran ran = engine.runLogical(plan(SqlFrontEnd.parse(s.sql()), parameters), cancel);
            try (TableWriter w = db.append(table)) {
                long n = RowAppender.append(ran, w, cancel);
                if (n > 0) {
                    w.commit();
                }
                return count(n);
            }
        }
    }

    QueryResult update(Statement.Update s, Parameters parameters, QueryCancel cancel) {
        try (Database.WriteLock lock = db.lockForWriting()) {
            Table table = db.table(existingTable(s.table(), "UPDATE"));
            DataChangeQueries.Update rows = DataChangeQueries.update(s.sql(), table.schema());
            try (TableWriter w = db.replace(table.schema())) {
                long changed = RowAppender.append(run(rows.changed(), parameters, cancel), w, cancel);
                if (changed == 0) {
                    return count(0);
                }
                if (rows.kept() != null) {
                    RowAppender.append(run(rows.kept(), parameters, cancel), w, cancel);
                }
                w.commit();
                return count(changed);
            }
        }
    }

    private QueryExecutor.Ran run(SqlNode query, Parameters parameters, QueryCancel cancel) {
        return engine.runLogical(plan(query, parameters), cancel);
    }

    /** A query of this statement planned with its parameters bound (each ? keeps its number in the statement). */
    private SqlFrontEnd.LogicalPlan plan(SqlNode query, Parameters parameters) {
        return engine.frontEnd().plan(parameters.bind(query));
    }

    QueryResult delete(Statement.Delete s, Parameters parameters, QueryCancel cancel) {
        try (Database.WriteLock lock = db.lockForWriting()) {
            Table table = db.table(existingTable(s.table(), "DELETE FROM"));
            SqlNode kept = DataChangeQueries.delete(s.sql());
            try (TableWriter w = db.replace(table.schema())) {
                long keptRows = 0;
                if (kept != null) {
                    QueryExecutor.Ran ran = engine.runLogical(plan(kept, parameters), cancel);
                    keptRows = RowAppender.append(ran, w, cancel);
                }
                long deleted = table.rowCount() - keptRows;
                if (deleted > 0) {
                    w.commit();
                }
                return count(deleted);
            }
        }
    }

    QueryResult createTableAs(Statement.CreateTableAs s, Parameters parameters, QueryCancel cancel) {
        try (Database.WriteLock lock = db.lockForWriting()) {
            String name = s.name();
            if (s.replace() && db.view(name) != null) {
                throw new SqlError("a view named " + name + " exists; a table needs a name of its own");
            }
            if (db.view(name) != null || db.hasTable(name) && !s.replace()) {
                if (s.ifNotExists()) {
                    return count(0);
                }
                throw new SqlError((db.hasTable(name) ? "table " : "a view named ") + name + " already exists");
            }
            SqlFrontEnd.LogicalPlan logical = plan(SqlFrontEnd.parse(s.query()), parameters);
            QueryExecutor.Ran ran = engine.runLogical(logical, cancel);
            List<ColumnSchema> columns = new ArrayList<>();
            Set<String> names = new HashSet<>();
            for (int i = 0; i < ran.columns().size(); i++) {
                String col = logical.fieldNames().get(i);
                DataType type = ran.columns().get(i).type();
                if (col.toLowerCase(Locale.ROOT).startsWith("expr$")) {
                    throw new SqlError("CREATE TABLE " + name + " AS: column " + (i + 1) + " of the query has no name;"
                            + " name it with AS");
                }
                if (!col.matches("[A-Za-z_][A-Za-z0-9_]*")) {
                    // a name made from the column's expression, such as sum(a)
                    throw new SqlError("CREATE TABLE " + name + " AS: column " + (i + 1) + " of the query, "
                            + logical.fieldNames().get(i) + ", has no name that a table column can have; name it with AS");
                }
                if (!names.add(col.toLowerCase(Locale.ROOT))) {
                    throw new SqlError("CREATE TABLE " + name + " AS: the query has two columns named " + col);
                }
                columns.add(new ColumnSchema(col, type, true));
            }
            TableSchema schema;
            try {
                schema = new TableSchema(name, columns);
            } catch (IllegalArgumentException e) {
                throw new SqlError("CREATE TABLE " + name + " AS: " + e.getMessage(), e);
            }
            try (TableWriter w = db.replace(schema)) {
                long n = RowAppender.append(ran, w, cancel);
                w.commit();
                return count(n);
            }
        }
    }

    /** CREATE [OR REPLACE] TABLE [IF NOT EXISTS] name (columns). */
    QueryResult createTable(Statement.CreateTable c) {
        if (db.view(c.schema().name()) != null) {
            throw new SqlError("a view named " + c.schema().name() + " exists; a table needs a name of its own");
        }
        if (c.replace()) {
            replaceEmpty(c.schema());
            return ResultRows.empty();
        }
        if (db.hasTable(c.schema().name())) {
            if (c.ifNotExists()) {
                return ResultRows.empty();
            }
            throw new SqlError("table " + c.schema().name() + " already exists");
        }
        db.createTable(c.schema());
        return ResultRows.empty();
    }

    /**
     * CREATE OR REPLACE TABLE without a query: the table, made or replaced by an empty one of {@code schema} in one
     * commit (a reader sees the old table or the new one, never none).
     */
    private void replaceEmpty(TableSchema schema) {
        try (Database.WriteLock lock = db.lockForWriting(); TableWriter w = db.replace(schema)) {
            if (db.view(schema.name()) != null) {
                throw new SqlError("a view named " + schema.name() + " exists; a table needs a name of its own");
            }
            w.commit();
        }
    }

    QueryResult createView(Statement.CreateView s) {
        try (Database.WriteLock lock = db.lockForWriting()) {
            String name = s.name();
            if (db.hasTable(name)) {
                throw new SqlError("a table named " + name + " exists; a view needs a name of its own");
            }
            if (!s.replace() && db.view(name) != null) {
                throw new SqlError("view " + name + " already exists (CREATE OR REPLACE VIEW replaces it)");
            }
            List<String> columns = s.columns();
            if (columns.stream().map(c -> c.toLowerCase(Locale.ROOT)).distinct().count() != columns.size()) {
                throw new SqlError("CREATE VIEW " + name + " names a column twice");
            }
            if (Parameters.count(s.query()) > 0) {
                // the view keeps its query's text, which a value bound now would not be part of
                throw new SqlError("CREATE VIEW " + name + ": a view's query cannot hold parameters (?)");
            }
            View view;
            try {
                view = new View(name, s.query(), columns);
            } catch (IllegalArgumentException e) {
                throw new SqlError("CREATE VIEW " + name + ": " + e.getMessage(), e);
            }
            // the query must run now, as the database will have the view: planned in full (not compiled), errors
            // naming what it cannot do, and a view that would refer to itself refused
            SqlFrontEnd.LogicalPlan logical = engine.frontEnd().withView(view)
                    .withPivotValues(io.tessera.sql.PivotValues.IN_VIEW).plan(s.query());
            if (!io.tessera.sql.RecursiveUnions.any(logical.rel())) {
                // a recursive query's parts are planned as it runs, each iteration over the rows of the one before
                PhysicalPlanner.plan(Optimizer.optimize(logical));
            }
            if (columns.size() > logical.fieldNames().size()) {
                throw new SqlError("CREATE VIEW " + name + " names " + columns.size() + " columns, its query has "
                        + logical.fieldNames().size());
            }
            engine.frontEnd().withView(view).plan(selectAll(name));
            try {
                db.createView(view, s.replace());
            } catch (StorageException e) {
                throw new SqlError("CREATE VIEW " + name + ": " + e.getMessage(), e);
            }
            return empty();
        }
    }

    QueryResult dropView(Statement.DropView s) {
        try (Database.WriteLock lock = db.lockForWriting()) {
            String name = s.name();
            if (db.view(name) == null) {
                if (db.hasTable(name)) {
                    throw new SqlError(name + " is a table, not a view (DROP TABLE " + name + ")");
                }
                if (s.ifExists()) {
                    return empty();
                }
                throw new SqlError("no view " + name);
            }
            db.dropView(name);
            return empty();
        }
    }

    /** The names of the database's tables, for "did you mean". */
    static java.util.List<String> tableNames(io.tessera.storage.Database db) {
        return db.tables().stream().map(io.tessera.storage.Table::name).toList();
    }

    /**
     * The stored name of a table a statement writes (as it was created: {@code name} is matched ignoring case); a
     * view or a missing table is an error.
     */
    String existingTable(String name, String statement) {
        if (db.view(name) != null) {
            throw new SqlError(statement + " " + name + ": " + name + " is a view; only tables can be changed");
        }
        if (!db.hasTable(name)) {
            throw new SqlError(statement + " " + name + ": no table " + name
                    + io.tessera.sql.DidYouMean.hint(name, tableNames(db)));
        }
        return db.table(name).name();
    }

    /** {@code SELECT * FROM name}, built as a tree: the name is never read as SQL text. */
    private static SqlNode selectAll(String name) {
        org.apache.calcite.sql.parser.SqlParserPos pos = org.apache.calcite.sql.parser.SqlParserPos.ZERO;
        return new org.apache.calcite.sql.SqlSelect(pos, null,
                org.apache.calcite.sql.SqlNodeList.of(org.apache.calcite.sql.SqlIdentifier.star(pos)),
                new org.apache.calcite.sql.SqlIdentifier(name, pos), null, null, null, null, null, null, null, null,
                null);
    }

    static QueryResult count(long n) {
        return new QueryResult(List.of(new ResultColumn("count", DataType.BIGINT, false)),
                List.<Object[]>of(new Object[] {n}), 0, 0);
    }

    static QueryResult empty() {
        return new QueryResult(List.of(), List.of(), 0, 0);
    }
}

package io.tessera.exec;

import io.tessera.api.QueryCancel;
import io.tessera.api.QueryResult;
import io.tessera.api.ResultColumn;
import io.tessera.optimize.Optimizer;
import io.tessera.plan.PhysicalPlanner;
import io.tessera.sql.CheckConstraints;
import io.tessera.sql.ConflictUpdates;
import io.tessera.sql.DataChangeQueries;
import io.tessera.sql.DeleteClauses;
import io.tessera.sql.GeneratedColumns;
import io.tessera.sql.ForeignKeys;
import io.tessera.sql.InsertClauses;
import io.tessera.sql.Parameters;
import io.tessera.sql.SqlError;
import io.tessera.sql.SqlFrontEnd;
import io.tessera.sql.Statement;
import io.tessera.sql.UpdateClauses;
import io.tessera.storage.ColumnSchema;
import io.tessera.storage.DataType;
import io.tessera.storage.Database;
import io.tessera.storage.StorageException;
import io.tessera.storage.Table;
import io.tessera.storage.TableKey;
import io.tessera.storage.TableSchema;
import io.tessera.storage.TableWriter;
import io.tessera.storage.View;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.parser.SqlParserPos;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The statements that change a database besides CREATE and DROP TABLE: INSERT, UPDATE, DELETE, CREATE TABLE AS,
 * COPY (through {@link CopyFiles}), CREATE and DROP VIEW. Each holds the writer lock from reading to commit, so
 * what it read is what it changes; each writes a new generation of one table and commits it at once, or, failing
 * anywhere, commits nothing (the writer's files are removed and the table stays as it was). Readers of the
 * previous generation go on reading it. A data change returns one row, {@code count}: the rows it inserted,
 * changed or deleted; with RETURNING, its items over those rows ({@link ReturningRows}). The rows an INSERT or UPDATE
 * writes into a table with CHECK or FOREIGN KEY constraints pass them before anything is written ({@link CheckedRows});
 * a table's generated columns are computed for those rows first ({@link GeneratedRows}); the rows a DELETE or a key's
 * UPDATE removes from a table that FOREIGN KEYs reference are checked likewise ({@link ForeignKeyChecks}).
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
            TableSchema schema = db.table(table).schema();
            InsertClauses insert = (InsertClauses) SqlFrontEnd.parse(s.sql());
            insert.completeDefaultValues(schema);
            List<String> columns = insertColumns(insert, s.sql(), schema, parameters);
            if (insert.byName() || GeneratedColumns.any(schema)) {
                SqlNodeList names = new SqlNodeList(SqlParserPos.ZERO);
                columns.forEach(c -> names.add(new SqlIdentifier(c, SqlParserPos.ZERO)));
                insert.setOperand(3, names);
            }
            // Calcite's conversion of the INSERT gives the rows to append, cast to the table's column types
            QueryExecutor.Ran ran = engine.runLogical(plan(insert, parameters), cancel);
            if (schema.enforcedKeys().isEmpty()) {
                if (insert.conflict() != null || insert.or() != InsertClauses.Or.NONE) {
                    throw new SqlError((insert.conflict() != null ? "ON CONFLICT" : "INSERT OR "
                            + insert.or()) + ": table " + table + " has no PRIMARY KEY or UNIQUE constraint"
                            + InsertClauses.at(insert.conflict() != null ? insert.conflict().pos()
                            : insert.getParserPosition()));
                }
                try (TableWriter w = db.append(table)) {
                    if (insert.returning() != null || CheckedRows.constrained(schema) || GeneratedColumns.any(schema)) {
                        // the rows held: generated columns, RETURNING's items, CHECKs and FOREIGN KEYs computed over them
                        List<Object[]> rows = GeneratedRows.computed(engine, schema, ResultRows.of(ran), cancel);
                        CheckedRows.verify(engine, schema, rows, cancel);
                        long n = RowAppender.append(rows, w, cancel);
                        QueryResult returned = insert.returning() == null ? count(n)
                                : returning(schema, s.sql(), insert.returning(), rows, parameters, cancel);
                        if (n > 0) {
                            w.commit();
                        }
                        return returned;
                    }
                    long n = RowAppender.append(ran, w, cancel);
                    if (n > 0) {
                        w.commit();
                    }
                    return count(n);
                }
            }
            return keyedInsert(insert, s.sql(), schema, columns, GeneratedRows.computed(engine, schema,
                    ResultRows.of(ran), cancel), parameters, cancel);
        }
    }

    /**
     * The table's columns an INSERT's source gives, in its order: its column list's, BY NAME the source's columns'
     * names (each must name a column of the table), else all the table's.
     */
    private List<String> insertColumns(InsertClauses insert, String sql, TableSchema schema, Parameters parameters) {
        List<String> columns = new ArrayList<>();
        if (insert.byName()) {
            if (insert.getTargetColumnList() != null) {
                throw new SqlError("INSERT BY NAME cannot be combined with a column list"
                        + InsertClauses.at(insert.getTargetColumnList().getParserPosition()));
            }
            SqlNode source = ((InsertClauses) SqlFrontEnd.parse(sql)).getSource();
            for (String name : plan(source, parameters).fieldNames()) {
                int c = schema.indexOf(name);
                if (c < 0) {
                    throw new SqlError("INSERT INTO " + schema.name() + " BY NAME: table " + schema.name()
                            + " has no column " + name + io.tessera.sql.DidYouMean.hint(name,
                            schema.columns().stream().map(ColumnSchema::name).toList()));
                }
                if (schema.columns().get(c).isGenerated()) {
                    throw GeneratedColumns.inserted();
                }
                if (columns.contains(schema.columns().get(c).name())) {
                    throw new SqlError("INSERT INTO " + schema.name() + " BY NAME: the query has two columns named "
                            + name);
                }
                columns.add(schema.columns().get(c).name());
            }
        } else if (insert.getTargetColumnList() != null) {
            for (SqlNode c : insert.getTargetColumnList()) {
                int i = schema.indexOf(((SqlIdentifier) c).getSimple());
                if (i >= 0 && schema.columns().get(i).isGenerated()) {
                    throw GeneratedColumns.inserted();
                }
                columns.add(i < 0 ? ((SqlIdentifier) c).getSimple() : schema.columns().get(i).name());
            }
        } else {
            columns.addAll(GeneratedColumns.written(schema)); // a generated column takes no value
        }
        return columns;
    }

    /**
     * An INSERT into a table with keys ({@link KeyedInsert}): the stored rows' keys read (every column where stored
     * rows may change), the new rows appended, or, where stored rows change, the table rewritten.
     */
    private QueryResult keyedInsert(InsertClauses insert, String sql, TableSchema schema, List<String> columns,
            List<Object[]> rows, Parameters parameters, QueryCancel cancel) {
        InsertClauses.Conflict conflict = insert.conflict();
        KeyedInsert.Action action = conflict != null ? (conflict.doNothing() ? KeyedInsert.Action.SKIP
                : KeyedInsert.Action.UPDATE) : switch (insert.or()) {
                    case NONE -> KeyedInsert.Action.FAIL;
                    case IGNORE -> KeyedInsert.Action.SKIP;
                    case REPLACE -> KeyedInsert.Action.REPLACE;
                };
        int handled = conflictTarget(insert, schema, action);
        GeneratedColumns.checkConflictUpdate(insert.conflict(), schema);
        boolean changes = action == KeyedInsert.Action.REPLACE || action == KeyedInsert.Action.UPDATE;
        List<Object[]> stored = ResultRows.of(run(selectColumns(schema,
                changes ? null : KeyIndex.keyColumns(schema, schema.enforcedKeys())), parameters, cancel));
        KeyedInsert keyed = new KeyedInsert(schema, stored, rows, action, handled);
        List<Object[]> before = List.copyOf(keyed.stored());
        if (keyed.changesStored() && action == KeyedInsert.Action.UPDATE) {
            applyUpdates(keyed, sql, schema, columns, handled, parameters, cancel);
        } else if (keyed.changesStored()) {
            for (int i = 0; i < stored.size(); i++) {
                if (keyed.conflicting(i) != null) {
                    keyed.update(i, keyed.conflicting(i));
                }
            }
        }
        List<Object[]> checked = new ArrayList<>(keyed.inserted());
        checked.addAll(keyed.updatedRows());
        CheckedRows.verify(engine, schema, checked, cancel);
        if (keyed.updates() > 0 && ForeignKeyChecks.referenced(db, schema.name())) {
            List<Object[]> removed = ForeignKeyChecks.keyChanged(schema, before, keyed.stored());
            if (!removed.isEmpty()) {
                ForeignKeyChecks.verifyRemoved(engine, db, schema, ForeignKeyChecks.held(engine, schema, removed),
                        cancel);
            }
        }
        QueryResult returned = null;
        if (insert.returning() != null) { // the rows inserted and updated, computed before anything is committed
            List<Object[]> written = new ArrayList<>(keyed.inserted());
            written.addAll(keyed.updatedRows());
            returned = returning(schema, sql, insert.returning(), written, parameters, cancel);
        }
        long n;
        if (keyed.updates() == 0) {
            try (TableWriter w = db.append(schema.name())) {
                n = RowAppender.append(keyed.inserted(), w, cancel);
                if (n > 0) {
                    w.commit();
                }
            }
        } else {
            try (TableWriter w = db.replace(schema)) {
                RowAppender.append(keyed.stored(), w, cancel);
                n = RowAppender.append(keyed.inserted(), w, cancel) + keyed.updates();
                w.commit();
            }
        }
        return returned != null ? returned : count(n);
    }

    /** The stored rows of {@code schema}'s table, only the columns of {@code keys} read (the others NULL). */
    List<Object[]> storedKeys(TableSchema schema, List<TableKey> keys, QueryCancel cancel) {
        return ResultRows.of(run(selectColumns(schema, KeyIndex.keyColumns(schema, keys)), Parameters.NONE, cancel));
    }

    /**
     * Rows read from a file (COPY FROM) into a table with keys: checked against the stored keys and each other as an
     * INSERT's rows are ({@link KeyedInsert}, a duplicate fails the statement), and against the table's CHECKs; all
     * appended or none. The caller holds the write lock.
     */
    long appendKeyed(TableSchema schema, List<Object[]> rows, QueryCancel cancel) {
        List<Object[]> stored = storedKeys(schema, schema.enforcedKeys(), cancel);
        KeyedInsert keyed = new KeyedInsert(schema, stored, rows, KeyedInsert.Action.FAIL, -1);
        CheckedRows.verify(engine, schema, keyed.inserted(), cancel);
        try (TableWriter w = db.append(schema.name())) {
            long n = RowAppender.append(keyed.inserted(), w, cancel);
            if (n > 0) {
                w.commit();
            }
            return n;
        }
    }

    /** A data change's RETURNING items over the rows it wrote or removed ({@link ReturningRows}). */
    private QueryResult returning(TableSchema schema, String sql, SqlNodeList items, List<Object[]> rows,
            Parameters parameters, QueryCancel cancel) {
        return ReturningRows.of(engine, schema, DataChangeQueries.targetAlias(sql), items, rows, parameters, cancel);
    }

    /**
     * The key ON CONFLICT (columns) names (its position among the schema's keys), or -1 where the statement names
     * none and handles a conflict on any key; DO UPDATE on a table of several keys must name one.
     */
    private static int conflictTarget(InsertClauses insert, TableSchema schema, KeyedInsert.Action action) {
        InsertClauses.Conflict conflict = insert.conflict();
        if (conflict == null || conflict.target() == null) {
            if (action == KeyedInsert.Action.UPDATE && schema.enforcedKeys().size() > 1) {
                throw new SqlError("ON CONFLICT DO UPDATE on table " + schema.name() + ", which has several keys,"
                        + " needs the key's columns: ON CONFLICT (columns)" + InsertClauses.at(
                        conflict.pos()));
            }
            return action == KeyedInsert.Action.UPDATE ? 0 : -1;
        }
        Set<String> named = new HashSet<>();
        for (SqlNode c : conflict.target()) {
            named.add(((SqlIdentifier) c).getSimple().toLowerCase(Locale.ROOT));
        }
        List<TableKey> keys = schema.enforcedKeys();
        for (int k = 0; k < keys.size(); k++) {
            Set<String> key = new HashSet<>();
            keys.get(k).columns().forEach(c -> key.add(c.toLowerCase(Locale.ROOT)));
            if (key.equals(named)) {
                return k;
            }
        }
        throw new SqlError("ON CONFLICT (" + String.join(", ", conflict.target().stream()
                .map(c -> ((SqlIdentifier) c).getSimple()).toList()) + "): the columns are not a PRIMARY KEY or UNIQUE"
                + " constraint of table " + schema.name() + InsertClauses.at(conflict.pos()));
    }

    /**
     * DO UPDATE's new values of the stored rows with a conflicting new row, from {@link ConflictUpdates}' query
     * (one row per such stored row, found by its key's values); a row whose WHERE does not hold stays as it is.
     */
    private void applyUpdates(KeyedInsert keyed, String sql, TableSchema schema, List<String> columns, int key,
            Parameters parameters, QueryCancel cancel) {
        TableKey target = schema.enforcedKeys().get(key);
        ConflictUpdates.Update update = ConflictUpdates.query(sql, schema, columns, target);
        Map<List<Object>, Object[]> values = new HashMap<>();
        int width = target.columns().size();
        KeyIndex index = keyed.index();
        for (Object[] row : ResultRows.of(run(update.query(), parameters, cancel))) {
            Object[] keyed0 = new Object[schema.columns().size()];
            for (int i = 0; i < width; i++) {
                keyed0[schema.indexOf(target.columns().get(i))] = row[i];
            }
            values.put(index.values(key, keyed0), row);
        }
        List<Object[]> stored = keyed.stored();
        List<Integer> updated = new ArrayList<>();
        List<Object[]> changedRows = new ArrayList<>();
        for (int i = 0; i < stored.size(); i++) {
            if (keyed.conflicting(i) == null) {
                continue;
            }
            Object[] row = values.get(index.values(key, stored.get(i)));
            if (row == null || !Boolean.TRUE.equals(row[row.length - 1])) {
                continue;
            }
            Object[] changed = stored.get(i).clone();
            for (int j = 0; j < update.columns().length; j++) {
                changed[update.columns()[j]] = row[width + j];
            }
            updated.add(i);
            changedRows.add(changed);
        }
        changedRows = GeneratedRows.computed(engine, schema, changedRows, cancel);
        for (int i = 0; i < updated.size(); i++) {
            keyed.update(updated.get(i), changedRows.get(i));
        }
    }

    /** {@code SELECT columns FROM table} ({@code columns} null: all), built as a tree; unread columns NULL. */
    private static SqlNode selectColumns(TableSchema schema, int[] columns) {
        SqlParserPos pos = SqlParserPos.ZERO;
        SqlNodeList list = new SqlNodeList(pos);
        for (int c = 0; c < schema.columns().size(); c++) {
            final int col = c;
            boolean read = columns == null || java.util.Arrays.stream(columns).anyMatch(x -> x == col);
            list.add(read ? new SqlIdentifier(schema.columns().get(c).name(), pos) : SqlLiteral.createNull(pos));
        }
        return new SqlSelect(pos, null, list, new SqlIdentifier(schema.name(), pos), null, null, null, null, null,
                null, null, null, null);
    }

    QueryResult update(Statement.Update s, Parameters parameters, QueryCancel cancel) {
        try (Database.WriteLock lock = db.lockForWriting()) {
            Table table = db.table(existingTable(s.table(), "UPDATE"));
            DataChangeQueries.Update rows = DataChangeQueries.update(s.sql(), table.schema());
            SqlNodeList returning = ((UpdateClauses) SqlFrontEnd.parse(s.sql())).returning();
            boolean generated = GeneratedColumns.any(table.schema());
            if (generated) {
                GeneratedColumns.checkUpdate(SqlFrontEnd.parse(s.sql()), table.schema());
            }
            if (changesKey(s.sql(), table.schema()) || returning != null || CheckedRows.constrained(table.schema())
                    || generated) {
                return updateKeys(rows, table.schema(), s.sql(), returning, parameters, cancel);
            }
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

    /** Whether an UPDATE assigns a column of one of the table's keys. */
    private static boolean changesKey(String sql, TableSchema schema) {
        for (SqlNode c : ((org.apache.calcite.sql.SqlUpdate) SqlFrontEnd.parse(sql)).getTargetColumnList()) {
            String name = ((SqlIdentifier) c).names.getLast();
            if (schema.enforcedKeys().stream().anyMatch(k -> k.has(name))) {
                return true;
            }
        }
        return false;
    }

    /**
     * An UPDATE of key columns (or one with RETURNING, whose rows it gives, or of a table with CHECK constraints, which
     * its changed rows must pass): the rows kept and the rows changed read whole and their keys checked in a
     * {@link KeyIndex} before the table is rewritten; a key two rows would share fails the statement. RETURNING's
     * items over the changed rows are computed before the commit.
     */
    private QueryResult updateKeys(DataChangeQueries.Update rows, TableSchema schema, String sql,
            SqlNodeList returning, Parameters parameters, QueryCancel cancel) {
        List<Object[]> changed = GeneratedRows.computed(engine, schema, ResultRows.of(run(rows.changed(), parameters,
                cancel)), cancel);
        CheckedRows.verify(engine, schema, changed, cancel);
        if (!changed.isEmpty() && changesKey(sql, schema) && ForeignKeyChecks.referenced(db, schema.name())) {
            // a key changed is a row removed for the rows that reference it, as DuckDB sees it
            List<Object[]> old = ResultRows.of(run(DataChangeQueries.updated(sql), parameters, cancel));
            ForeignKeyChecks.verifyRemoved(engine, db, schema, ForeignKeyChecks.held(engine, schema, old), cancel);
        }
        QueryResult returned = returning == null ? count(changed.size())
                : returning(schema, sql, returning, changed, parameters, cancel);
        if (changed.isEmpty()) {
            return returned;
        }
        List<Object[]> kept = rows.kept() == null ? List.of() : ResultRows.of(run(rows.kept(), parameters, cancel));
        KeyIndex index = new KeyIndex(schema);
        for (int i = 0; i < kept.size(); i++) {
            index.add(kept.get(i), i);
        }
        for (int i = 0; i < changed.size(); i++) {
            KeyIndex.Hit hit = index.find(changed.get(i));
            if (hit != null) {
                throw index.duplicateOfStored(hit.key(), changed.get(i));
            }
            index.add(changed.get(i), kept.size() + i);
        }
        try (TableWriter w = db.replace(schema)) {
            RowAppender.append(changed, w, cancel);
            RowAppender.append(kept, w, cancel);
            w.commit();
            return returned;
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
            SqlNodeList returning = ((DeleteClauses) SqlFrontEnd.parse(s.sql())).returning();
            boolean referenced = ForeignKeyChecks.referenced(db, table.name());
            List<Object[]> deleted = returning == null && !referenced ? null
                    : ResultRows.of(run(DataChangeQueries.deleted(s.sql()), parameters, cancel));
            if (referenced && !deleted.isEmpty()) {
                ForeignKeyChecks.verifyRemoved(engine, db, table.schema(),
                        ForeignKeyChecks.held(engine, table.schema(), deleted), cancel);
            }
            try (TableWriter w = db.replace(table.schema())) {
                long keptRows = 0;
                if (kept != null) {
                    QueryExecutor.Ran ran = engine.runLogical(plan(kept, parameters), cancel);
                    keptRows = RowAppender.append(ran, w, cancel);
                }
                long removed = table.rowCount() - keptRows;
                QueryResult returned = returning == null ? count(removed)
                        : returning(table.schema(), s.sql(), returning, deleted, parameters, cancel);
                if (removed > 0) {
                    w.commit();
                }
                return returned;
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
            if (db.hasTable(name)) {
                ForeignKeyChecks.verifyDrop(db, name);
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

    /**
     * CREATE [OR REPLACE] TABLE [IF NOT EXISTS] name (columns), its CHECKs planned first ({@link CheckConstraints})
     * and its FOREIGN KEYs resolved against their parents ({@link ForeignKeys}).
     */
    QueryResult createTable(Statement.CreateTable c) {
        if (db.view(c.schema().name()) != null) {
            throw new SqlError("a view named " + c.schema().name() + " exists; a table needs a name of its own");
        }
        TableSchema schema = GeneratedColumns.resolve(engine.frontEnd(), c.schema(), io.tessera.plan.Types::of);
        if (!c.checks().isEmpty()) {
            CheckConstraints.validate(engine.frontEnd(), schema, c.checks());
        }
        if (!c.foreignKeys().isEmpty()) {
            schema = new TableSchema(schema.name(), schema.columns(), schema.keys(), schema.checks(),
                    ForeignKeys.resolve(schema, c.foreignKeys(), t -> db.hasTable(t) ? db.table(t).schema() : null));
        }
        if (c.replace()) {
            replaceEmpty(schema);
            return ResultRows.empty();
        }
        if (db.hasTable(schema.name())) {
            if (c.ifNotExists()) {
                return ResultRows.empty();
            }
            throw new SqlError("table " + schema.name() + " already exists");
        }
        db.createTable(schema);
        return ResultRows.empty();
    }

    /**
     * CREATE OR REPLACE TABLE without a query: the table, made or replaced by an empty one of {@code schema} in one
     * commit (a reader sees the old table or the new one, never none).
     */
    private void replaceEmpty(TableSchema schema) {
        try (Database.WriteLock lock = db.lockForWriting(); TableWriter w = db.replace(schema)) {
            if (db.hasTable(schema.name())) {
                ForeignKeyChecks.verifyDrop(db, schema.name());
            }
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

package io.tessera.exec;

import io.tessera.api.QueryCancel;
import io.tessera.api.QueryResult;
import io.tessera.api.ResultColumn;
import io.tessera.api.RowSink;
import io.tessera.plan.ColumnInfo;
import io.tessera.storage.DataType;

import java.time.ZoneId;
import io.tessera.storage.TableKey;

import java.util.ArrayList;
import java.util.List;

/**
 * How the engine's results become rows of Java values: a query's result read out of its relation in batches of
 * {@link QueryEngine#BATCH_ROWS} (all at once, or handed to a {@link RowSink}; {@code cancel} checked before each
 * batch), and the results the engine makes itself (EXPLAIN's lines, DESCRIBE's columns, a statement's empty one).
 */
final class ResultRows {

    private ResultRows() {
    }

    /** Every row of a result, a TIMESTAMP WITH TIME ZONE's in {@code zone}. */
    static List<Object[]> all(QueryExecutor.Ran ran, QueryCancel cancel, ZoneId zone) {
        int n = ran.rel().rowCount();
        List<Object[]> rows = new ArrayList<>(n);
        for (int from = 0; from < n; from += QueryEngine.BATCH_ROWS) {
            QueryCancel.check(cancel);
            rows.addAll(rows(ran, from, Math.min(n, from + QueryEngine.BATCH_ROWS), zone));
        }
        return rows;
    }

    /** Every row of a result as {@link RowAppender} reads a result's values, to be written to a table again. */
    static List<Object[]> of(QueryExecutor.Ran ran) {
        int n = ran.rel().rowCount();
        int width = ran.columns().size();
        List<Object[]> rows = new ArrayList<>(n);
        for (int r = 0; r < n; r++) {
            Object[] row = new Object[width];
            for (int c = 0; c < width; c++) {
                row[c] = ran.rel().value(c, r);
            }
            rows.add(row);
        }
        return rows;
    }

    /** Hands a result's columns, then its rows batch by batch, to {@code sink}. */
    static void drain(QueryExecutor.Ran ran, RowSink sink, QueryCancel cancel, ZoneId zone) {
        sink.start(ran.columns());
        int n = ran.rel().rowCount();
        for (int from = 0; from < n; from += QueryEngine.BATCH_ROWS) {
            QueryCancel.check(cancel);
            sink.rows(rows(ran, from, Math.min(n, from + QueryEngine.BATCH_ROWS), zone));
        }
    }

    /** Reads every row of a result and drops it (EXPLAIN ANALYZE times the read-out); returns the row count. */
    static int readOut(QueryExecutor.Ran ran, QueryCancel cancel, ZoneId zone) {
        int n = ran.rel().rowCount();
        for (int from = 0; from < n; from += QueryEngine.BATCH_ROWS) {
            QueryCancel.check(cancel);
            rows(ran, from, Math.min(n, from + QueryEngine.BATCH_ROWS), zone);
        }
        return n;
    }

    /** Rows {@code [from, to)} of a result as Java values, a TIMESTAMP WITH TIME ZONE's in {@code zone}. */
    private static List<Object[]> rows(QueryExecutor.Ran ran, int from, int to, ZoneId zone) {
        int width = ran.columns().size();
        List<Object[]> rows = new ArrayList<>(to - from);
        for (int r = from; r < to; r++) {
            Object[] row = new Object[width];
            for (int c = 0; c < width; c++) {
                row[c] = ran.rel().value(c, r, zone);
            }
            rows.add(row);
        }
        return rows;
    }

    /** The result of a statement that returns no rows. */
    static QueryResult empty() {
        return new QueryResult(List.of(), List.of(), 0, 0);
    }

    /** A text as one VARCHAR column {@code column}, a row per line (EXPLAIN). */
    static QueryResult lines(String column, String text, long compileNanos, long runNanos) {
        List<Object[]> rows = new ArrayList<>();
        for (String line : text.split("\n", -1)) {
            rows.add(new Object[] {line});
        }
        return new QueryResult(List.of(new ResultColumn(column, DataType.VARCHAR, false)), rows, compileNanos,
                runNanos);
    }

    /** A query's columns as DuckDB's DESCRIBE lists them: name, type, whether it may be null. */
    /**
     * The columns with DuckDB's nullability, where {@code notNull} says which are stored columns declared NOT NULL
     * (sql.StoredNotNullColumns), not what Calcite's types say (a constant's is NOT NULL there).
     */
    static List<ColumnInfo> nullableAsDuckDb(List<ColumnInfo> planned, boolean[] notNull) {
        List<ColumnInfo> columns = new ArrayList<>();
        for (int i = 0; i < planned.size(); i++) {
            ColumnInfo c = planned.get(i);
            columns.add(new ColumnInfo(c.name(), c.type(), i >= notNull.length || !notNull[i], c.dictionaryKey()));
        }
        return columns;
    }

    /** The stored table a DESCRIBE's query reads whole ({@code SELECT * FROM table}), whose keys it shows; or null. */
    static io.tessera.storage.TableSchema describedTable(io.tessera.storage.Database db, String query) {
        if (io.tessera.sql.SqlFrontEnd.parse(query) instanceof org.apache.calcite.sql.SqlSelect select
                && select.getSelectList().size() == 1
                && select.getSelectList().get(0) instanceof org.apache.calcite.sql.SqlIdentifier star && star.isStar()
                && select.getFrom() instanceof org.apache.calcite.sql.SqlIdentifier from && from.isSimple()
                && select.getWhere() == null && db != null && db.hasTable(from.getSimple())) {
            return db.table(from.getSimple()).schema();
        }
        return null;
    }

    /** DESCRIBE's rows; {@code keys}: the described table's, whose columns are PRI (primary key) or UNI (unique). */
    static QueryResult describe(List<ColumnInfo> resultColumns, List<TableKey> keys,
                                java.util.function.Function<String, String> defaults) {
        List<Object[]> rows = new ArrayList<>();
        for (ColumnInfo c : resultColumns) {
            String key = keys.stream().anyMatch(k -> k.primary() && k.has(c.name())) ? "PRI"
                    : keys.stream().anyMatch(k -> k.has(c.name())) ? "UNI" : null;
            rows.add(new Object[] {c.name(), c.type().toString(), c.nullable() ? "YES" : "NO", key,
                    defaults.apply(c.name()), null});
        }
        List<ResultColumn> columns = new ArrayList<>();
        for (String name : List.of("column_name", "column_type", "null", "key", "default", "extra")) {
            columns.add(new ResultColumn(name, DataType.VARCHAR, !name.startsWith("column")));
        }
        return new QueryResult(columns, rows, 0, 0);
    }

    /**
     * A table's columns as DuckDB's {@code PRAGMA table_info} lists them (SQLite's form): position from 0, name, type,
     * whether NOT NULL, its DEFAULT's text ({@code defaults} by column name, null where none) and whether part of the
     * primary key among {@code keys}.
     */
    static QueryResult tableInfo(List<ColumnInfo> resultColumns, List<TableKey> keys,
                                 java.util.function.Function<String, String> defaults) {
        List<Object[]> rows = new ArrayList<>();
        for (int i = 0; i < resultColumns.size(); i++) {
            ColumnInfo c = resultColumns.get(i);
            boolean pk = keys.stream().anyMatch(k -> k.primary() && k.has(c.name()));
            rows.add(new Object[] {i, c.name(), c.type().toString(), !c.nullable(), defaults.apply(c.name()), pk});
        }
        List<ResultColumn> columns = List.of(new ResultColumn("cid", DataType.INTEGER, false),
                new ResultColumn("name", DataType.VARCHAR, false), new ResultColumn("type", DataType.VARCHAR, false),
                new ResultColumn("notnull", DataType.BOOLEAN, false),
                new ResultColumn("dflt_value", DataType.VARCHAR, true), new ResultColumn("pk", DataType.BOOLEAN, false));
        return new QueryResult(columns, rows, 0, 0);
    }
}

package io.tessera.exec;

import io.tessera.api.QueryCancel;
import io.tessera.sql.SqlError;
import io.tessera.storage.ColumnBuilder;
import io.tessera.storage.ColumnSchema;
import io.tessera.storage.RowBatch;
import io.tessera.storage.TableSchema;
import io.tessera.storage.TableWriter;
import io.tessera.storage.Timestamps;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.LocalDate;

/**
 * Writes the rows of a query's result into a table writer: the result's columns are the table's, each
 * already of the column's type (the statement's query casts them, range-checked); each value is checked again as
 * it is stored (a SMALLINT's range, a DECIMAL's digits) and a NULL for a NOT NULL column fails the statement, naming
 * the column. Nothing is committed here: the caller commits, or closes the writer and the table stays as it was.
 */
final class RowAppender {

    /** Rows handed to the writer at a time. */
    private static final int BATCH = 1 << 16;

    private RowAppender() {
    }

    /** Appends every row of {@code ran}; returns how many. */
    static long append(QueryExecutor.Ran ran, TableWriter writer, QueryCancel cancel) {
        return append(ran.rel().rowCount(), (c, r) -> ran.rel().value(c, r), writer, cancel);
    }

    /** Appends {@code rows}, each a value per column as a query's result gives them; returns how many. */
    static long append(java.util.List<Object[]> rows, TableWriter writer, QueryCancel cancel) {
        return append(rows.size(), (c, r) -> rows.get(r)[c], writer, cancel);
    }

    /** The value of column {@code c} in row {@code r} of the rows being appended. */
    private interface Cells {
        Object value(int c, int r);
    }

    private static long append(int n, Cells cells, TableWriter writer, QueryCancel cancel) {
        TableSchema schema = writer.schema();
        int width = schema.columns().size();
        RowBatch batch = new RowBatch(schema, Math.max(1, Math.min(n, BATCH)));
        for (int from = 0; from < n; from += BATCH) {
            QueryCancel.check(cancel);
            int to = Math.min(n, from + BATCH);
            batch.clear();
            for (int r = from; r < to; r++) {
                for (int c = 0; c < width; c++) {
                    store(schema, c, batch.column(c), cells.value(c, r));
                }
            }
            writer.write(batch);
        }
        return n;
    }

    private static void store(TableSchema schema, int c, ColumnBuilder b, Object v) {
        ColumnSchema col = schema.columns().get(c);
        if (v == null) {
            if (!col.nullable()) {
                throw new SqlError("NOT NULL constraint failed: " + schema.name() + "." + col.name()
                        + " cannot hold NULL");
            }
            b.appendNull();
            return;
        }
        try {
            switch (col.type().kind()) {
                case INTEGER -> b.appendInt(Math.toIntExact(((Number) v).longValue()));
                case BIGINT -> b.appendLong(((Number) v).longValue());
                case DECIMAL -> b.appendLong(((BigDecimal) v).setScale(col.type().scale(), RoundingMode.UNNECESSARY)
                        .unscaledValue().longValueExact());
                case DOUBLE -> b.appendDouble(((Number) v).doubleValue());
                case DATE -> b.appendInt(Math.toIntExact(((LocalDate) v).toEpochDay()));
                case TIMESTAMP -> b.appendLong(Timestamps.micros((java.time.LocalDateTime) v));
                case TIMESTAMP_TZ -> b.appendLong(io.tessera.storage.ZonedTimestamps.micros(v));
                case TIME -> b.appendLong(io.tessera.storage.Values.timeMicros((java.time.LocalTime) v));
                case BOOLEAN -> b.appendBoolean((Boolean) v);
                // an INTERVAL arrives as DuckDB's text of it (the query's value) and is stored as its code
                case VARCHAR -> b.appendString(v instanceof io.tessera.storage.ListValue l
                        ? io.tessera.storage.ListCodec.encode(l) : v instanceof io.tessera.storage.StructValue st
                        ? io.tessera.storage.StructCodec.encode(st) : v instanceof io.tessera.storage.MapValue m
                        ? io.tessera.storage.MapEntries.encode(m) : col.type().isInterval()
                        ? io.tessera.storage.IntervalText.parse((String) v).encode()
                        : io.tessera.storage.Values.storedString(v));
            }
        } catch (IllegalArgumentException e) {
            throw new SqlError(e.getMessage() + " (column " + schema.name() + "." + col.name() + ")", e);
        } catch (ArithmeticException e) {
            throw new SqlError("value " + v + " is out of range for " + col.type() + " (column " + schema.name()
                    + "." + col.name() + ")", e);
        }
    }
}

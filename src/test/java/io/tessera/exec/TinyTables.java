package io.tessera.exec;

import io.tessera.api.QueryResult;
import io.tessera.storage.ColumnBuilder;
import io.tessera.storage.Database;
import io.tessera.storage.RowBatch;
import io.tessera.storage.TableSchema;
import io.tessera.storage.TableWriter;

import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** Writes small tables row by row for engine regression tests, and renders results for assertions. */
public final class TinyTables {
    private TinyTables() {
    }

    /** Creates (or replaces) table {@code name} with columns {@code columns} (DDL syntax) holding {@code rows}. */
    public static void write(Path dir, String name, String columns, Object[]... rows) {
        TableSchema schema = TableSchema.parse(name, columns);
        try (Database db = Database.openOrCreate(dir); TableWriter w = db.replace(schema)) {
            RowBatch batch = new RowBatch(schema, Math.max(1, rows.length));
            for (Object[] row : rows) {
                for (int c = 0; c < row.length; c++) {
                    append(batch.column(c), row[c]);
                }
            }
            w.write(batch);
            w.commit();
        }
    }

    private static void append(ColumnBuilder b, Object v) {
        if (v == null) {
            b.appendNull();
            return;
        }
        switch (b.type().kind()) {
            case INTEGER -> b.appendInt((Integer) v);
            case BIGINT -> b.appendLong(((Number) v).longValue());
            case DOUBLE -> b.appendDouble((Double) v);
            case DECIMAL -> b.appendLong(((BigDecimal) v).movePointRight(b.type().scale()).longValueExact());
            case DATE -> b.appendInt((int) ((LocalDate) v).toEpochDay());
            case TIMESTAMP -> b.appendLong(io.tessera.storage.Timestamps.micros((java.time.LocalDateTime) v));
            case TIMESTAMP_TZ -> b.appendLong(io.tessera.storage.ZonedTimestamps.micros(v));
            case TIME -> b.appendLong(io.tessera.storage.Values.timeMicros((java.time.LocalTime) v));
            case BOOLEAN -> b.appendBoolean((Boolean) v);
            case VARCHAR -> b.appendString((String) v);
        }
    }

    /** The rows of a result as lists, for assertEquals. */
    static List<List<Object>> rows(QueryResult r) {
        List<List<Object>> out = new ArrayList<>();
        for (Object[] row : r.rows()) {
            out.add(Arrays.asList(row));
        }
        return out;
    }
}

package io.tessera.exec;

import io.tessera.sql.Series;
import io.tessera.storage.ColumnSchema;
import io.tessera.storage.DataType;
import io.tessera.storage.Database;
import io.tessera.storage.RowBatch;
import io.tessera.storage.SeriesTable;
import io.tessera.storage.Table;
import io.tessera.storage.TableSchema;
import io.tessera.storage.TableWriter;
import io.tessera.storage.Timestamps;

import java.util.List;

/**
 * A series' values ({@code range(...)}, {@code generate_series(...)} in FROM), BIGINTs or TIMESTAMPs, as a table the
 * query plans with its statistics: BIGINTs up to {@link #IN_MEMORY_ROWS} and TIMESTAMPs up to
 * {@link #IN_MEMORY_TIMESTAMPS} as a {@link SeriesTable} (no files); longer ones written into a temporary table of
 * the statement, a batch of values at a time.
 */
final class SeriesTables {

    private static final int BATCH = 1 << 16;
    /** The most BIGINTs a series holds in memory (1 GB); a longer one is written to the statement's files. */
    static final long IN_MEMORY_ROWS = 1L << 27;
    /** The most TIMESTAMPs a series holds in memory (128 MB, made one after another when the statement is planned). */
    static final long IN_MEMORY_TIMESTAMPS = 1L << 24;

    private SeriesTables() {
    }

    /** Whether {@code series} becomes a table in memory ({@link SeriesTable}), without files. */
    static boolean inMemory(Series series) {
        return series.count() <= (series.timestamps() ? IN_MEMORY_TIMESTAMPS : IN_MEMORY_ROWS);
    }

    /** {@code series} as table {@code name} in memory; {@code schemaOnly}: none of its rows. */
    static Table inMemory(String name, Series series, boolean schemaOnly) {
        long count = schemaOnly ? 0 : series.count();
        if (series.timestamps()) {
            // the interval added to each value, as DuckDB steps a series of TIMESTAMPs
            return SeriesTable.ofTimestamps(name, series.function(), series.start(),
                    t -> Timestamps.micros(series.interval().after(Timestamps.toLocalDateTime(t))), count);
        }
        return SeriesTable.of(name, series.function(), series.start(), series.step(), count);
    }

    /** Writes {@code series} into a new table {@code name} of {@code db}; {@code schemaOnly}: none of its rows. */
    static Table write(Database db, String name, Series series, boolean schemaOnly) {
        DataType type = series.timestamps() ? DataType.TIMESTAMP : DataType.BIGINT;
        TableSchema schema = new TableSchema(name, List.of(new ColumnSchema(series.function(), type, true)));
        try (TableWriter w = db.replace(schema)) {
            long count = schemaOnly ? 0 : series.count();
            long[] values = new long[(int) Math.min(BATCH, Math.max(count, 1))];
            RowBatch batch = new RowBatch(schema, values.length);
            long next = series.start();
            java.time.LocalDateTime time = series.timestamps() ? Timestamps.toLocalDateTime(next) : null;
            for (long done = 0; done < count; ) {
                int n = (int) Math.min(values.length, count - done);
                for (int i = 0; i < n; i++) {
                    if (time != null) {
                        values[i] = Timestamps.micros(time); // TIMESTAMPs: the interval added to each value
                        time = series.interval().after(time);
                    } else {
                        values[i] = next;
                        next += series.step(); // wraps past the last value only, which is never written
                    }
                }
                batch.clear();
                batch.column(0).appendLongs(values, 0, n);
                w.write(batch);
                done += n;
            }
            return w.commit();
        }
    }
}

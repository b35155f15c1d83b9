package io.tessera.exec;

import io.tessera.sql.Series;
import io.tessera.storage.ColumnSchema;
import io.tessera.storage.DataType;
import io.tessera.storage.Database;
import io.tessera.storage.RowBatch;
import io.tessera.storage.Table;
import io.tessera.storage.TableSchema;
import io.tessera.storage.TableWriter;
import io.tessera.storage.Timestamps;

import java.util.List;

/**
 * A series' values ({@code range(...)}, {@code generate_series(...)} in FROM), BIGINTs or TIMESTAMPs, written into a temporary table of the
 * statement, a batch of values at a time, so that the query plans it as a table with its statistics.
 */
final class SeriesTables {

    private static final int BATCH = 1 << 16;

    private SeriesTables() {
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

package io.tessera.api;

import io.tessera.storage.Database;
import io.tessera.storage.RowBatch;
import io.tessera.storage.TableSchema;
import io.tessera.storage.TableWriter;

/**
 * A query that runs for minutes, for the tests that cancel it or let it time out: a table of 2,000,000 rows whose
 * 50 keys repeat 40,000 times each, joined with itself on the key, is 80 billion matches (800 million took 10 s
 * on the 2-core development machine at load 11). That outlasts any wait before a cancel by far, so a test that
 * sees the query fail with "query cancelled" knows it was stopped, not finished; the probe side runs in morsels
 * of 16,384 rows, and the engine checks for cancellation before each.
 */
public final class LongJoin {

    public static final int ROWS = 2_000_000;
    public static final int KEYS = 50;

    /** How long a test waits for a cancelled query to end before it fails instead of hanging: a guard, no limit. */
    public static final long GUARD_MINUTES = 5;

    private LongJoin() {
    }

    /** Writes table {@code name} (k INTEGER NOT NULL, v INTEGER NOT NULL): k = row mod {@link #KEYS}, v = row. */
    public static void write(Database d, String name) {
        TableSchema schema = TableSchema.parse(name, "k INTEGER NOT NULL, v INTEGER NOT NULL");
        RowBatch b = new RowBatch(schema, ROWS);
        for (int i = 0; i < ROWS; i++) {
            b.column(0).appendInt(i % KEYS);
            b.column(1).appendInt(i);
        }
        try (TableWriter w = d.replace(schema)) {
            w.write(b);
            w.commit();
        }
    }

    /** The join of table {@code name} with itself on k: a count and a sum over its 80 billion matches. */
    public static String sql(String name) {
        return "select count(*), sum(a.v + b.v) from " + name + " a join " + name + " b on a.k = b.k";
    }
}

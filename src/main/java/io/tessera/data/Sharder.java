package io.tessera.data;

import io.tessera.storage.Column;
import io.tessera.storage.ColumnBuilder;
import io.tessera.storage.Database;
import io.tessera.storage.RowBatch;
import io.tessera.storage.Table;
import io.tessera.storage.TableSchema;
import io.tessera.storage.TableWriter;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Splits every table of a database into shards, new databases {@code shard-0 .. shard-(N-1)} under one directory, so
 * that each row is in exactly one shard and the union of a table over the shards is the table: a cluster's machines
 * each open one shard (the Spark connector reads a list of them as one table). A table that has one of the key
 * columns is split by that column's value (rows with equal keys land in one shard, in every table keyed by an equal
 * value: lineorder by lo_custkey and customer by c_custkey put each customer's rows together); the others row by row
 * in turn (round robin). Views are not copied.
 */
public final class Sharder {

    private static final int BATCH = 1 << 16;

    private Sharder() {
    }

    /**
     * Writes the shards into {@code out} (which must not exist, or be empty) and returns, per table, the rows of each
     * shard. {@code keys}: column names, the first a table has is its key; empty: every table round robin.
     */
    public static Map<String, long[]> shard(Database source, Path out, int shards, List<String> keys) {
        if (shards < 1) {
            throw new IllegalArgumentException("the number of shards must be at least 1, got " + shards);
        }
        requireEmpty(out);
        Map<String, long[]> counts = new LinkedHashMap<>();
        List<Database> targets = new ArrayList<>();
        try {
            for (int s = 0; s < shards; s++) {
                targets.add(Database.openOrCreate(out.resolve("shard-" + s)));
            }
            for (Table t : source.tables()) {
                counts.put(t.name(), split(t, targets, keyColumn(t.schema(), keys)));
            }
        } finally {
            for (Database d : targets) {
                d.close();
            }
        }
        return counts;
    }

    private static void requireEmpty(Path out) {
        if (!Files.exists(out)) {
            return;
        }
        try (Stream<Path> entries = Files.list(out)) {
            if (entries.findAny().isPresent()) {
                throw new IllegalArgumentException("shard directory " + out + " is not empty; shards go into a new one");
            }
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read " + out + ": " + e.getMessage(), e);
        }
    }

    /** The index of the table's key column (the first of {@code keys} it has), or -1: round robin. */
    private static int keyColumn(TableSchema schema, List<String> keys) {
        for (String k : keys) {
            int i = schema.indexOf(k);
            if (i >= 0) {
                return i;
            }
        }
        return -1;
    }

    private static long[] split(Table t, List<Database> targets, int key) {
        int n = targets.size();
        TableSchema schema = t.schema();
        List<TableWriter> writers = new ArrayList<>(n);
        List<RowBatch> batches = new ArrayList<>(n);
        long[] rows = new long[n];
        try {
            for (Database d : targets) {
                writers.add(d.replace(schema));
                batches.add(new RowBatch(schema, BATCH));
            }
            int width = schema.columns().size();
            for (long r = 0; r < t.rowCount(); r++) {
                int s = key < 0 ? (int) (r % n) : shardOf(t.column(key), r, n);
                RowBatch b = batches.get(s);
                for (int c = 0; c < width; c++) {
                    copy(t.column(c), r, b.column(c));
                }
                rows[s]++;
                if (b.rowCount() == BATCH) {
                    writers.get(s).write(b);
                    b.clear();
                }
            }
            for (int s = 0; s < n; s++) {
                if (batches.get(s).rowCount() > 0) {
                    writers.get(s).write(batches.get(s));
                }
                writers.get(s).commit();
            }
        } finally {
            for (TableWriter w : writers) {
                w.close();
            }
        }
        return rows;
    }

    /** The shard of a row by its key: a mix of the key's value (NULL: shard 0), the same on every machine and run. */
    static int shardOf(Column key, long row, int shards) {
        if (key.isNull(row)) {
            return 0;
        }
        long v = switch (key.type().kind()) {
            case INTEGER, DATE -> key.getInt(row);
            case BIGINT, DECIMAL, TIMESTAMP, TIMESTAMP_TZ, TIME -> key.getLong(row);
            case DOUBLE -> {
                double d = key.getDouble(row);
                yield Double.doubleToLongBits(d == 0 ? 0.0 : d);
            }
            case BOOLEAN -> key.getBoolean(row) ? 1 : 0;
            case VARCHAR -> key.getString(row).hashCode();
        };
        long h = v * 0x9E3779B97F4A7C15L;
        h ^= h >>> 29;
        return (int) Math.floorMod(h, (long) shards);
    }

    private static void copy(Column from, long row, ColumnBuilder to) {
        if (from.isNull(row)) {
            to.appendNull();
            return;
        }
        switch (from.type().kind()) {
            case INTEGER, DATE -> to.appendInt(from.getInt(row));
            case BIGINT, DECIMAL, TIMESTAMP, TIMESTAMP_TZ, TIME -> to.appendLong(from.getLong(row));
            case DOUBLE -> to.appendDouble(from.getDouble(row));
            case BOOLEAN -> to.appendBoolean(from.getBoolean(row));
            case VARCHAR -> to.appendString(from.getString(row));
        }
    }
}

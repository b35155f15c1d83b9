package io.tessera.data.tpch;

import io.tessera.data.ChunkPipeline;
import io.tessera.data.Progress;
import io.tessera.storage.ColumnBuilder;
import io.tessera.storage.ColumnSchema;
import io.tessera.storage.DataType;
import io.tessera.storage.Database;
import io.tessera.storage.RowBatch;
import io.tessera.storage.TableSchema;
import io.trino.tpch.TpchColumn;
import io.trino.tpch.TpchEntity;
import io.trino.tpch.TpchTable;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Generates TPC-H's eight tables through io.trino.tpch, whose generators give the reference dbgen's rows. Money,
 * quantity, discount and tax become DECIMAL(15,2), dates DATE, order keys BIGINT, other keys and integers
 * INTEGER, text VARCHAR. A table is generated in parts (the library's own partitioning, which yields the same
 * rows for any part count), each part made, encoded and written on its own thread, on all cores
 * ({@link ChunkPipeline}); the tables follow each other without a pause, each committed while the next is made.
 */
public final class TpchGenerator {

    /** Rows per generated part, roughly. */
    static final long ROWS_PER_PART = 200_000;

    private final long rowsPerPart;

    public static final DataType MONEY = DataType.decimal(15, 2);

    private final double scaleFactor;

    public TpchGenerator(double scaleFactor) {
        this(scaleFactor, rowsPerPart(Runtime.getRuntime().maxMemory()));
    }

    /**
     * Rows a part: {@link #ROWS_PER_PART}, a quarter of that in a heap under 2 GB, where the parts in flight must leave
     * room for the library's text pool (300 MB). The library yields the same rows for any part count, so the data
     * does not depend on it.
     */
    static long rowsPerPart(long maxHeapBytes) {
        return maxHeapBytes < (2L << 30) ? ROWS_PER_PART / 4 : ROWS_PER_PART;
    }

    /** With parts of about {@code rowsPerPart} rows (tests use small parts to exercise the split). */
    TpchGenerator(double scaleFactor, long rowsPerPart) {
        if (rowsPerPart < 1) {
            throw new IllegalArgumentException("rows per part must be positive");
        }
        this.rowsPerPart = rowsPerPart;
        if (!(scaleFactor > 0) || Double.isInfinite(scaleFactor)) {
            throw new IllegalArgumentException("scale factor must be a positive number, got " + scaleFactor);
        }
        this.scaleFactor = scaleFactor;
    }

    /** Tessera's schema of a TPC-H table. */
    public static TableSchema schema(TpchTable<?> table) {
        List<ColumnSchema> cols = new ArrayList<>();
        for (TpchColumn<?> c : table.getColumns()) {
            cols.add(new ColumnSchema(c.getColumnName().toLowerCase(Locale.ROOT), typeOf(c), false));
        }
        return new TableSchema(table.getTableName().toLowerCase(Locale.ROOT), cols);
    }

    static DataType typeOf(TpchColumn<?> c) {
        return switch (c.getType().getBase()) {
            case IDENTIFIER -> c.getColumnName().equalsIgnoreCase("l_orderkey")
                    || c.getColumnName().equalsIgnoreCase("o_orderkey") ? DataType.BIGINT : DataType.INTEGER;
            case INTEGER -> DataType.INTEGER;
            case DATE -> DataType.DATE;
            case DOUBLE -> MONEY;
            case VARCHAR -> DataType.VARCHAR;
        };
    }

    /** Base row counts at SF 1, to size the parts. */
    private static long baseRows(TpchTable<?> t) {
        return switch (t.getTableName()) {
            case "lineitem" -> 6_000_000;
            case "orders" -> 1_500_000;
            case "partsupp" -> 800_000;
            case "part" -> 200_000;
            case "customer" -> 150_000;
            case "supplier" -> 10_000;
            default -> 25;
        };
    }

    int partCount(TpchTable<?> t) {
        if (t == TpchTable.NATION || t == TpchTable.REGION) {
            return 1;
        }
        double rows = baseRows(t) * scaleFactor;
        return (int) Math.max(1, Math.min(100_000, Math.ceil(rows / rowsPerPart)));
    }

    /** Generates all eight tables on one thread per core; returns each table's row count. */
    public Map<String, Long> generate(Database db, Progress progress) {
        return generate(db, progress, Runtime.getRuntime().availableProcessors());
    }

    public Map<String, Long> generate(Database db, Progress progress, int threads) {
        List<ChunkPipeline.TableJob> jobs = new ArrayList<>();
        for (TpchTable<?> t : TpchTable.getTables()) {
            jobs.add(job(t));
        }
        return ChunkPipeline.run(db, jobs, threads, window(threads, Runtime.getRuntime().maxMemory()), progress);
    }

    /**
     * Parts in flight (generated or being written): two a thread, but no more than the heap holds beside the
     * library's text pool (300 MB, shared): one part in flight for every 256 MB of heap, and at least two.
     */
    static int window(int threads, long maxHeapBytes) {
        long byHeap = maxHeapBytes / (256L << 20);
        return (int) Math.max(2, Math.min(2L * Math.max(1, threads), byHeap));
    }

    <E extends TpchEntity> ChunkPipeline.TableJob job(TpchTable<E> table) {
        TableSchema schema = schema(table);
        int parts = partCount(table);
        List<TpchColumn<E>> columns = table.getColumns();
        long expected = Math.round(baseRows(table) * scaleFactor);
        int capacity = (int) Math.min(1 << 20, expected / parts + expected / parts / 8 + 16);
        return new ChunkPipeline.TableJob(schema, parts, expected, part -> {
            RowBatch b = new RowBatch(schema, capacity);
            for (E e : table.createGenerator(scaleFactor, part + 1, parts)) {
                for (int i = 0; i < columns.size(); i++) {
                    append(b.column(i), columns.get(i), e);
                }
            }
            return b;
        });
    }

    private static <E extends TpchEntity> void append(ColumnBuilder b, TpchColumn<E> c, E e) {
        switch (b.type().kind()) {
            case BIGINT -> b.appendLong(c.getIdentifier(e));
            case INTEGER -> b.appendInt(c.getType().getBase() == io.trino.tpch.TpchColumnType.Base.IDENTIFIER
                    ? Math.toIntExact(c.getIdentifier(e)) : c.getInteger(e));
            case DATE -> b.appendInt(c.getDate(e));
            case DECIMAL -> b.appendLong(cents(c.getDouble(e)));
            case VARCHAR -> b.appendString(c.getString(e));
            default -> throw new IllegalStateException("unexpected type " + b.type() + " for " + c.getColumnName());
        }
    }

    /**
     * The exact cents of a value the library computed as {@code cents / 100.0}: the error of that division and
     * of the multiplication back is far below half a cent for any amount under 2^50 cents, so rounding gives the
     * original integer.
     */
    static long cents(double v) {
        return Math.round(v * 100.0);
    }
}

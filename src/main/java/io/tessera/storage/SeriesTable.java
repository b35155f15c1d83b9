package io.tessera.storage;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.stream.IntStream;

/**
 * A table of one column holding a series ({@code range(...)} and {@code generate_series(...)} in FROM): BIGINTs a
 * step apart, written into memory by all cores the first time a query reads them, their statistics from the series
 * itself (its bounds, every value distinct); or TIMESTAMPs an interval apart, made at once. No files: the planner
 * sees it as it sees a stored table. The memory is off the heap, counted by no limit, and given back once the collector finds the table
 * unreachable: {@code exec.SeriesTables} keeps series of more than 1 GB on disk.
 */
public final class SeriesTable {

    /** Values one task of the parallel fill writes. */
    private static final int CHUNK = 1 << 20;

    private SeriesTable() {
    }

    /**
     * Table {@code name} whose column {@code column} holds {@code count} values {@code start}, {@code start + step},
     * ...; the caller has checked that none of them overflows.
     */
    public static Table of(String name, String column, long start, long step, long count) {
        if (count < 0 || step == 0 && count > 1) {
            throw new IllegalArgumentException("a series of " + count + " values by " + step);
        }
        ColumnSchema schema = new ColumnSchema(column, DataType.BIGINT, true);
        long last = start + (count - 1) * step;
        ColumnStats stats = count == 0 ? new ColumnStats(0, 0, null, null, false)
                : new ColumnStats(0, count, Math.min(start, last), Math.max(start, last), true);
        return table(name, schema, count, stats, f -> fill(start, step, count));
    }

    /**
     * Table {@code name} whose TIMESTAMP column {@code column} holds {@code count} values made one after another:
     * {@code first}, then each {@code next} of the one before (an interval added, which with months does not make
     * equal steps); made now, the statistics' bounds read off them.
     */
    public static Table ofTimestamps(String name, String column, long first, java.util.function.LongUnaryOperator next,
                                     long count) {
        if (count < 0 || count > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("a series of " + count + " TIMESTAMPs in memory");
        }
        ColumnSchema schema = new ColumnSchema(column, DataType.TIMESTAMP, true);
        MemorySegment seg = Arena.ofAuto().allocate(Math.max(1, count) * Long.BYTES, Long.BYTES);
        long min = Long.MAX_VALUE;
        long max = Long.MIN_VALUE;
        long v = first;
        for (long i = 0; i < count; i++) {
            seg.setAtIndex(Column.LONG, i, v);
            min = Math.min(min, v);
            max = Math.max(max, v);
            if (i + 1 < count) {
                v = next.applyAsLong(v);
            }
        }
        // months and days of opposite signs may repeat a value: not claimed unique
        ColumnStats stats = count == 0 ? new ColumnStats(0, 0, null, null, false)
                : new ColumnStats(0, count, min, max, false);
        MemorySegment values = seg.asSlice(0, count * Long.BYTES);
        return table(name, schema, count, stats, f -> values);
    }

    /** Table {@code name} of one column of {@code count} 64-bit values, which {@code values} gives when first read. */
    private static Table table(String name, ColumnSchema schema, long count, ColumnStats stats,
                               Column.SegmentSource values) {
        FileEntry file = new FileEntry("(" + name + ": " + count + " values in memory)", count * Long.BYTES, 0);
        Column c = new Column(schema, count, stats, file, null, null, values);
        return new Table(new TableSchema(name, List.of(schema)), count, 0, List.of(c));
    }

    /** The series' values, little-endian, in a segment of their own. */
    private static MemorySegment fill(long start, long step, long count) {
        MemorySegment seg = Arena.ofAuto().allocate(Math.max(1, count) * Long.BYTES, Long.BYTES);
        int chunks = (int) ((count + CHUNK - 1) / CHUNK);
        IntStream.range(0, chunks).parallel().forEach(k -> {
            long from = (long) k * CHUNK;
            long to = Math.min(count, from + CHUNK);
            long v = start + from * step;
            for (long i = from; i < to; i++, v += step) {
                seg.setAtIndex(Column.LONG, i, v);
            }
        });
        return seg.asSlice(0, count * Long.BYTES);
    }
}

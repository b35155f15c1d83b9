package io.tessera.backend.cuda.exec;

import io.tessera.backend.cuda.driver.DeviceBuffer;
import io.tessera.backend.cuda.ops.LargeSort;
import io.tessera.backend.cuda.ops.SmallSort;
import io.tessera.backend.cuda.gen.CType;
import io.tessera.plan.Sink;
import io.tessera.plan.SortKey;
import io.tessera.variant.Genome;

import java.util.ArrayList;
import java.util.List;

/**
 * ORDER BY and LIMIT over the rows a SORT kernel wrote ({@link DeviceRows}), on the GPU where they lie: each sort key
 * read from its output column (a NULL flag word first where the column has NULL flags, then its value: a 32-bit
 * integer or dictionary code, a 64-bit integer, a double, a boolean), the row numbers sorted by {@link SmallSort} or
 * {@link LargeSort} (the bitonic top-k for a small LIMIT, as {@link DeviceSort} chooses), and every column and its
 * NULL flags gathered in that order from the OFFSET to the LIMIT into arrays of their own. Only those rows go to the
 * host, one copy per column, when it reads the relation. Dictionary codes sort as their strings do: a dictionary's
 * codes are in its strings' order, and a column's codes are of one dictionary.
 */
final class DeviceRowsSort {

    private DeviceRowsSort() {
    }

    /** Whether rows sorted by {@code s} can be sorted here: it has a key, and the sort takes their number. */
    static boolean sorts(Sink.Sort s, DeviceRows rows) {
        return sorts(s.keys(), rows);
    }

    /** Whether rows can be sorted here by {@code keys}: there is one, and the sort takes their number. */
    static boolean sorts(List<SortKey> keys, DeviceRows rows) {
        return !keys.isEmpty() && LargeSort.fits(rows.count(), keyWords(keys, rows));
    }

    /** The rows of {@code rows} in the order of {@code s}, cut to its OFFSET and LIMIT, on the device. */
    static DeviceRows sorted(CudaQueryRun run, DeviceRows rows, Sink.Sort s, Genome genome) {
        return sorted(run, rows, s.keys(), s.offset(), s.fetch(), genome);
    }

    /**
     * The rows of {@code rows} in the order of {@code sortKeys} (equal rows in the order they were in), from
     * {@code offset} on, at most {@code fetch} of them (-1: all), on the device.
     */
    static DeviceRows sorted(CudaQueryRun run, DeviceRows rows, List<SortKey> sortKeys, long offset, long fetch,
                             Genome genome) {
        run.makeCurrent();
        long n = rows.count();
        long keep = fetch < 0 ? n : Math.min(n, Math.max(0, offset) + fetch);
        long from = Math.min(keep, Math.max(0, offset));
        int m = (int) (keep - from);
        DeviceBuffer order = run.take(Math.max(1, keep) * 8);
        if (keep > 0) {
            List<SmallSort.Key> keys = keys(sortKeys, rows);
            if (SmallSort.fits(n, keys.size())) {
                run.runtime().sortSmall(keys, n, keep, order);
            } else {
                run.runtime().sortLarge(keys, n, keep, DeviceSort.preference(genome), order);
            }
        }
        int width = rows.columns().length;
        DeviceBuffer[] columns = new DeviceBuffer[width];
        DeviceBuffer[] nulls = new DeviceBuffer[width];
        long index = order.address() + from * 8;
        for (int c = 0; c < width; c++) {
            int bytes = bytes(rows.types().get(c));
            columns[c] = run.take((long) Math.max(1, m) * bytes);
            run.runtime().gatherRows(rows.columns()[c].address(), bytes, index, m, columns[c].address());
            if (rows.nulls()[c] != null) {
                nulls[c] = run.take(Math.max(1, m));
                run.runtime().gatherRows(rows.nulls()[c].address(), 1, index, m, nulls[c].address());
            }
        }
        return new DeviceRows(run, rows.types(), rows.kinds(), rows.dictionaries(), columns, nulls, m);
    }

    /** The sort's key words over the rows' columns, most significant first. */
    static List<SmallSort.Key> keys(Sink.Sort s, DeviceRows rows) {
        return keys(s.keys(), rows);
    }

    private static List<SmallSort.Key> keys(List<SortKey> sortKeys, DeviceRows rows) {
        List<SmallSort.Key> keys = new ArrayList<>();
        for (SortKey k : sortKeys) {
            int c = k.column();
            if (rows.nulls()[c] != null) {
                // a NULL's value is the type's zero: its flag orders it first or last, ties among NULLs stay in order
                keys.add(SmallSort.Key.of(rows.nulls()[c], 0, 1, 0, SmallSort.Kind.BYTE, k.nullsFirst()));
            }
            SmallSort.Kind kind = switch (rows.types().get(c)) {
                case INT -> SmallSort.Kind.INT32;
                case LONG -> SmallSort.Kind.SIGNED;
                case DOUBLE -> SmallSort.Kind.DOUBLE;
                case BOOL -> SmallSort.Kind.BYTE;
            };
            keys.add(SmallSort.Key.of(rows.columns()[c], 0, 1, 0, kind, k.descending()));
        }
        return keys;
    }

    private static int keyWords(List<SortKey> sortKeys, DeviceRows rows) {
        int words = 0;
        for (SortKey k : sortKeys) {
            words += rows.nulls()[k.column()] != null ? 2 : 1;
        }
        return words;
    }

    /** The bytes of one element of a column of type {@code t} on the device. */
    static int bytes(CType t) {
        return t == CType.BOOL ? 1 : t.bytes;
    }
}

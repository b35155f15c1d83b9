package io.tessera.backend.jvm.join;

import io.tessera.backend.ValueKind;
import io.tessera.backend.jvm.lib.Hashing;
import io.tessera.backend.host.ArrayAllocations;
import io.tessera.backend.host.RowBuffer;
import io.tessera.backend.host.RowCopies;
import io.tessera.backend.host.WorkerTasks;

import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The partitioned build ({@code build=partitioned}). Each worker's rows are given a partition by bits of their key:
 * <ul>
 * <li>perfect: the high bits of the key's offset in its range, so partition p owns a range of {@code first};</li>
 * <li>linear: the high bits of the key's home slot, so partition p owns a range of slots;</li>
 * <li>cuckoo: the low bits of a spreading hash (a key's candidate slots are anywhere in the table).</li>
 * </ul>
 * The rows are scattered into one buffer in partition order (each worker its own buffer's rows), and then the
 * workers take partitions in turn. A perfect or linear partition is indexed by one worker in its own range, with no
 * atomics; a linear key whose probe sequence would leave the range is put aside and inserted once every partition is
 * done, probing on into the next range as any insert does. A cuckoo partition chains its equal keys first, so that
 * every key enters the table once, then places them with the other partitions at once ({@link CuckooPlacement}).
 *
 * <p>A linear table of one key whose keys span less than 2^32 values is made ranged ({@link JoinTable#ranged}): its
 * home slots, and so its partitions, follow the keys' order over their span. Where the keys bunch up in part of
 * their span, a partition's inserts probe far (or its rows outnumber its slots): once a partition's inserts take
 * more than {@link #RANGED_STEPS_PER_ROW} steps a row, the table is made again with hashed slots.
 */
final class PartitionedJoinBuild {

    /** The most partitions: more would scatter each column into too many streams at once. */
    private static final int MAX_PARTITION_BITS = 10;
    /**
     * The most probe steps a row that a ranged table's partition may take on average (a row put aside counting as
     * {@link #SPILL_STEPS}) before the table is made with hashed slots instead: evenly spread keys at the table's
     * load of at most a half take about one.
     */
    static final int RANGED_STEPS_PER_ROW = 4;
    private static final int SPILL_STEPS = 64;

    private PartitionedJoinBuild() {
    }

    /**
     * How rows fall into partitions: by their key's offset range (perfect), the range of the table's home slot for
     * it ({@link JoinTable#home}, linear: hashed or ranged), or a spreading hash (cuckoo).
     */
    private record Partitioning(JoinTable table, int bits, int partitionBits, long min) {

        int partitions() {
            return 1 << partitionBits;
        }

        int of(long[][] keys, int r) {
            return switch (table.layout) {
                case PERFECT -> {
                    long k = keys[0][r];
                    yield (int) ((k - min) >>> (bits - partitionBits));
                }
                case LINEAR -> table.home(JoinTable.hashKey(keys, r)) >>> (bits - partitionBits);
                default -> Hashing.spread(JoinTable.hashKey(keys, r), partitionBits);
            };
        }
    }

    static JoinTable build(ValueKind[] kinds, List<RowBuffer> buffers, int payloadColumns, int keyCount,
                           JoinTable.Layout layout, long min, long max, boolean murmur, boolean unique,
                           ExecutorService pool, int workers, int maxBits) {
        KeySpan span = layout == JoinTable.Layout.LINEAR && keyCount == 1
                ? KeySpan.of(buffers, payloadColumns, pool, workers) : null;
        JoinTable t = build(kinds, buffers, payloadColumns, keyCount, layout, min, max, murmur, unique, pool, workers,
                maxBits, span);
        // keys bunched in part of their span: hashed slots instead
        return t != null ? t : build(kinds, buffers, payloadColumns, keyCount, layout, min, max, murmur, unique, pool,
                workers, maxBits, null);
    }

    /** As above, a linear table ranged over {@code span} where one is given; null where its keys proved bunched. */
    private static JoinTable build(ValueKind[] kinds, List<RowBuffer> buffers, int payloadColumns, int keyCount,
                                   JoinTable.Layout layout, long min, long max, boolean murmur, boolean unique,
                                   ExecutorService pool, int workers, int maxBits, KeySpan span) {
        int n = rows(buffers);
        int bits = switch (layout) {
            case PERFECT -> 64 - Long.numberOfLeadingZeros(Math.max(1, max - min)); // covers every offset
            case LINEAR -> Hashing.bitsFor(n);
            default -> 0;
        };
        // enough partitions for every worker to take several, each a slot range of at least 2^8 (2^16 fits a core's cache)
        int wanted = Math.max(32 - Integer.numberOfLeadingZeros(Math.max(1, workers) * 8 - 1), bits - 16);
        int limit = layout.ways > 0 ? MAX_PARTITION_BITS : Math.max(0, bits - 8);
        // the scattered rows' columns and the table's arrays, allocated (and zeroed) by the workers together
        ArrayAllocations arrays = new ArrayAllocations();
        RowBuffer all = RowCopies.unfilled(kinds, buffers, n, arrays);
        JoinTable t = new JoinTable(layout, murmur, unique, all, n);
        if (!unique) {
            arrays.add(4L * n, () -> t.next = new int[Math.max(1, n)]);
        }
        switch (layout) {
            case PERFECT -> {
                t.min = min;
                t.max = max;
                int range = (int) Math.max(1, max - min + 1);
                arrays.add(4L * range, () -> t.first = new int[range]);
            }
            case LINEAR -> {
                // the home slots, which the partitions follow
                t.bits = bits;
                t.mask = (1 << bits) - 1;
                if (span != null) {
                    t.ranged = true;
                    t.rangeLo = span.lo();
                    t.rangeSpan = span.span();
                    t.rangeScale = Hashing.rangeScale(span.span(), bits);
                }
                arrays.add(4L << bits, () -> t.slotRows = new int[1 << bits]);
                if (keyCount == 1) {
                    arrays.add(8L << bits, () -> t.slotKeys = new long[1 << bits]);
                }
            }
            default -> { }
        }
        Partitioning parts = new Partitioning(t, bits, Math.min(MAX_PARTITION_BITS, Math.min(limit, wanted)), min);
        int[] starts = new int[parts.partitions() + 1];
        int[][] positions = positions(buffers, payloadColumns, keyCount, parts, starts, max, pool, workers);
        arrays.run(pool, workers);
        RowCopies.scatter(buffers, positions, all, pool, workers);
        long[][] keys = new long[keyCount][];
        for (int k = 0; k < keyCount; k++) {
            keys[k] = all.longs[payloadColumns + k];
        }
        t.keyCols = keys;
        switch (layout) {
            case PERFECT -> WorkerTasks.run(pool, workers, parts.partitions(), p -> perfectPartition(t, parts, p, starts));
            case LINEAR -> {
                int[][] spilled = new int[parts.partitions()][];
                AtomicBoolean bunched = new AtomicBoolean();
                WorkerTasks.run(pool, workers, parts.partitions(),
                        p -> spilled[p] = bunched.get() ? null : linearPartition(t, parts, p, starts, bunched));
                if (bunched.get()) {
                    return null;
                }
                for (int[] rows : spilled) {
                    for (int i = 1; i <= rows[0]; i++) {
                        insertLinear(t, rows[i]);
                    }
                }
            }
            default -> CuckooPlacement.place(t, starts, pool, workers, maxBits);
        }
        return t;
    }

    /** The buffers' rows in all. */
    private static int rows(List<RowBuffer> buffers) {
        int n = 0;
        for (RowBuffer b : buffers) {
            n = Math.addExact(n, b.size);
        }
        return n;
    }

    /**
     * Where each buffer's rows go in one buffer that holds them partition after partition ({@code positions[i][r]}
     * for row r of buffer i); {@code starts[p]} is set to partition p's first row. Each worker counts its buffer's
     * rows per partition, then (after the offsets are summed) turns its rows' partitions into their positions.
     */
    private static int[][] positions(List<RowBuffer> buffers, int payloadColumns, int keyCount, Partitioning parts,
                                     int[] starts, long max, ExecutorService pool, int workers) {
        int b = buffers.size();
        int np = parts.partitions();
        int[][] positions = new int[b][];
        int[][] counts = new int[b][np];
        WorkerTasks.run(pool, workers, b, i -> {
            RowBuffer buf = buffers.get(i);
            long[][] keys = new long[keyCount][];
            for (int k = 0; k < keyCount; k++) {
                keys[k] = buf.longs[payloadColumns + k];
            }
            int[] pos = positions[i] = new int[buf.size];
            for (int r = 0; r < buf.size; r++) {
                if (parts.table().layout == JoinTable.Layout.PERFECT) {
                    long k = keys[0][r];
                    if (k < parts.min() || k > max) {
                        throw new IllegalStateException("build key " + k + " outside its planned range ["
                                + parts.min() + ", " + max + "]");
                    }
                }
                int p = parts.of(keys, r);
                pos[r] = p;
                counts[i][p]++;
            }
        });
        // partition p's rows: buffer 0's, then buffer 1's, ...
        int[][] cursor = new int[b][np];
        int at = 0;
        for (int p = 0; p < np; p++) {
            starts[p] = at;
            for (int i = 0; i < b; i++) {
                cursor[i][p] = at;
                at += counts[i][p];
            }
        }
        starts[np] = at;
        WorkerTasks.run(pool, workers, b, i -> {
            int[] pos = positions[i];
            int[] next = cursor[i];
            for (int r = 0; r < pos.length; r++) {
                pos[r] = next[pos[r]]++;
            }
        });
        return positions;
    }

    /** Partition p of a perfect table: its offsets' range of {@code first} (allocated zeroed), filled by this worker alone. */
    private static void perfectPartition(JoinTable t, Partitioning parts, int p, int[] starts) {
        int shift = parts.bits() - parts.partitionBits();
        long[] k0 = t.keyCols[0];
        for (int r = starts[p + 1] - 1; r >= starts[p]; r--) {
            if (t.next != null) {
                t.next[r] = -1;
            }
            int s = (int) (k0[r] - t.min);
            int at = t.first[s] - 1;
            if (at >= 0) {
                t.chain(r, at);
            }
            t.first[s] = r + 1; // the row plus one (JoinTable)
        }
    }

    /**
     * Partition p of a linear table: its rows inserted into its range of slots, probing no further than the range's
     * end; returns the rows that reached it (count first), to be inserted after every partition is done. A ranged
     * table's partition whose inserts take too many steps sets {@code bunched} and stops (null).
     */
    private static int[] linearPartition(JoinTable t, Partitioning parts, int p, int[] starts, AtomicBoolean bunched) {
        int shift = t.bits - parts.partitionBits();
        int lo = p << shift;
        int hi = lo + (1 << shift);
        Arrays.fill(t.slotRows, lo, hi, -1);
        int[] spilled = new int[8];
        long stepsLeft = t.ranged ? (long) RANGED_STEPS_PER_ROW * (starts[p + 1] - starts[p]) + SPILL_STEPS : Long.MAX_VALUE;
        for (int r = starts[p + 1] - 1; r >= starts[p]; r--) {
            if (t.next != null) {
                t.next[r] = -1;
            }
            int s = t.home(t.hashKey(r));
            while (true) {
                if (--stepsLeft < 0) {
                    bunched.set(true);
                    return null;
                }
                int at = t.slotRows[s];
                if (at < 0) {
                    put(t, s, r);
                    break;
                }
                if (t.sameKey(at, r)) {
                    t.chain(r, at);
                    t.slotRows[s] = r;
                    break;
                }
                if (++s == hi) {
                    stepsLeft -= SPILL_STEPS;
                    if (++spilled[0] == spilled.length) {
                        spilled = Arrays.copyOf(spilled, spilled.length * 2);
                    }
                    spilled[spilled[0]] = r;
                    break;
                }
            }
        }
        return spilled;
    }

    /** A row inserted as the serial build inserts it: from its home slot on, around the end of the table. */
    private static void insertLinear(JoinTable t, int r) {
        int s = t.home(t.hashKey(r));
        while (true) {
            int at = t.slotRows[s];
            if (at < 0) {
                put(t, s, r);
                return;
            }
            if (t.sameKey(at, r)) {
                t.chain(r, at);
                t.slotRows[s] = r;
                return;
            }
            s = (s + 1) & t.mask;
        }
    }

    private static void put(JoinTable t, int s, int r) {
        t.slotRows[s] = r;
        if (t.slotKeys != null) {
            t.slotKeys[s] = t.keyCols[0][r];
        }
    }

    /** The smallest key of a build's one key column and the span above it (below 2^32), read by the workers. */
    record KeySpan(long lo, long span) {

        /** The keys' span, or null where there are none or they span 2^32 values or more. */
        static KeySpan of(List<RowBuffer> buffers, int keyColumn, ExecutorService pool, int workers) {
            long[] lows = new long[buffers.size()];
            long[] highs = new long[buffers.size()];
            WorkerTasks.run(pool, workers, buffers.size(), i -> {
                RowBuffer b = buffers.get(i);
                long[] keys = b.longs[keyColumn];
                long lo = Long.MAX_VALUE;
                long hi = Long.MIN_VALUE;
                for (int r = 0; r < b.size; r++) {
                    lo = Math.min(lo, keys[r]);
                    hi = Math.max(hi, keys[r]);
                }
                lows[i] = lo;
                highs[i] = hi;
            });
            long lo = Long.MAX_VALUE;
            long hi = Long.MIN_VALUE;
            for (int i = 0; i < lows.length; i++) {
                lo = Math.min(lo, lows[i]);
                hi = Math.max(hi, highs[i]);
            }
            // hi - lo as an unsigned number: the span of any two longs
            return lo > hi || Long.compareUnsigned(hi - lo, 1L << 32) >= 0 ? null : new KeySpan(lo, hi - lo);
        }
    }
}

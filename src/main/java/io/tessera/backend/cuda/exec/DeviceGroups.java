package io.tessera.backend.cuda.exec;

import io.tessera.backend.host.RelationPart;
import io.tessera.backend.Intermediate;
import io.tessera.backend.cuda.driver.DeviceBuffer;
import io.tessera.backend.cuda.gen.SinkLayout;
import io.tessera.backend.cuda.ops.SlotCompaction;
import io.tessera.backend.cuda.ops.SmallSort;
import io.tessera.backend.cuda.runtime.GpuRuntime;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;

/**
 * An aggregation's groups on the device, until the host reads them as rows. A table of more than
 * {@link CudaQueryRun#COMPACT_ABOVE} slots is compacted on the device when its kernel ends: the indices of the
 * slots with rows (and state 2 for agg=shared), then every array gathered at them into one pooled buffer (row
 * counts, each aggregate's value and own count, agg=shared's keys), so that two copies of a few thousand entries
 * replace the copies of whole arrays, and no host work or memory grows with the table's slots. A smaller table is
 * read whole, which costs less than the compaction's launches and copies. The compaction's kernels are not added
 * to the run's kernel time, which times the pipeline kernels that the bandwidth model is compared with: like the
 * read-back they shorten, they count in the query's end-to-end time.
 */
final class DeviceGroups {

    /**
     * The most groups whose gather, sort and read-back are queued behind their compaction before the host knows how
     * many it found ({@link #ahead}): one block's sort.
     */
    static final int AHEAD_ROOM = SmallSort.MAX_ROWS;
    /**
     * System property: a room for every sorted group table (at most {@link #AHEAD_ROOM}), whatever the estimate: a
     * small one (2) sends most queries' groups down the path where they outnumber it, to check that path.
     */
    static final String AHEAD_ROOM_PROPERTY = "tessera.gpu.aheadRoom";
    private static final int FORCED_ROOM = Math.min(AHEAD_ROOM, Integer.getInteger(AHEAD_ROOM_PROPERTY, 0));

    private DeviceGroups() {
    }

    /**
     * The groups a kernel left in {@code l}; {@code compact}: compacted on the device whatever the table's size
     * (a sort on the device reads them); {@code expectedGroups}: the planner's estimate of them.
     */
    static Intermediate.OnDevice of(CudaQueryRun run, SinkLayout.Aggregate a, CudaQueryRun.Launch l,
                                    GpuGroups.RowLayout layout, boolean compact, double expectedGroups) {
        long slots = l.groupSlots;
        if (slots > Integer.MAX_VALUE / Math.max(1, a.keyWidth())) {
            throw new GpuFallbacks.Fallback("a group table of " + slots + " slots");
        }
        boolean shared = a.mode().equals("shared");
        if ((compact || slots > CudaQueryRun.COMPACT_ABOVE) && !a.mode().equals("single")) {
            // a table of at most AHEAD_ROOM slots always fits the room; a larger one where a quarter of it holds the
            // estimate (more groups than the room: gathered and sorted again from their count, one wait more)
            if (compact && (FORCED_ROOM > 0 || slots <= AHEAD_ROOM || 4 * expectedGroups <= AHEAD_ROOM)) {
                return ahead(run, a, l, layout, shared);
            }
            return compacted(run, a, l, layout, shared);
        }
        return () -> {
            run.makeCurrent();
            run.checkDeferredErrors();
            return GpuGroups.rows(layout, a, whole(a, l, shared));
        };
    }

    /** The groups of a small table: its whole arrays read back, the non-empty slots picked on the host. */
    private static GpuGroups.Slots whole(SinkLayout.Aggregate a, CudaQueryRun.Launch l, boolean shared) {
        long slots = l.groupSlots;
        long[] rows = longs(l.rows, slots);
        long[][] vals = new long[a.aggs().size()][];
        long[][] cnts = new long[a.aggs().size()][];
        for (int i = 0; i < vals.length; i++) {
            vals[i] = l.values.containsKey(i) ? longs(l.values.get(i), slots) : null;
            cnts[i] = l.counts.containsKey(i) ? longs(l.counts.get(i), slots) : null;
        }
        if (a.mode().equals("single")) {
            // the one group, present even over no rows
            return new GpuGroups.Slots(1, new long[1], rows, vals, cnts, null);
        }
        long[] keys = shared ? longs(l.groupKeys, slots * a.keyWidth()) : null;
        int[] state = null;
        if (shared) {
            try (Arena arena = Arena.ofConfined()) {
                MemorySegment host = arena.allocate(slots * 4, 4);
                l.groupState.copyToHost(host, 0);
                state = host.toArray(ValueLayout.JAVA_INT);
            }
        }
        return GpuGroups.compact(rows, state, vals, cnts, keys, a.keyWidth());
    }

    /** The groups of a large table compacted on the device now, read back when the host asks. */
    private static Intermediate.OnDevice compacted(CudaQueryRun run, SinkLayout.Aggregate a, CudaQueryRun.Launch l,
                                                   GpuGroups.RowLayout layout, boolean shared) {
        return counted(run, a, l, layout, shared, Queued.of(run, l, shared));
    }

    /**
     * A compaction of the table's slots queued behind the kernels before their errors are read, so that one wait
     * serves both (it reads only the table's row counts and states, whatever an error left there; an error then ends
     * the run): the non-empty slots' indices go to {@code index}, their count to {@code scratch} at {@link #countAt}.
     */
    private record Queued(DeviceBuffer index, DeviceBuffer scratch, long slots) {

        static Queued of(CudaQueryRun run, CudaQueryRun.Launch l, boolean shared) {
            long slots = l.groupSlots;
            DeviceBuffer index = run.take(slots * 8);
            DeviceBuffer scratch = run.take(SlotCompaction.scratchBytes(slots));
            run.runtime().queueCompactSlots(l.rows, shared ? l.groupState : null, slots, index, scratch);
            return new Queued(index, scratch, slots);
        }

        /** The device address of the count, for the launches queued before the host reads it. */
        long countAt() {
            return scratch.address() + SlotCompaction.totalOffset(slots);
        }
    }

    /** The groups a queued compaction found, gathered once its count is read back (a wait for the device). */
    private static Compacted counted(CudaQueryRun run, SinkLayout.Aggregate a, CudaQueryRun.Launch l,
                                     GpuGroups.RowLayout layout, boolean shared, Queued q) {
        long slots = q.slots();
        DeviceBuffer index = q.index();
        run.checkDeferredErrors();
        long found = run.runtime().compactedSlots(slots, q.scratch());
        if (found < 0 || found > slots) {
            throw new IllegalStateException("compacting " + slots + " group slots found " + found);
        }
        int n = (int) found;
        GpuGroups.Packing p = packing(a, l, n, shared);
        if (n == 0) {
            return new Compacted(run, a, layout, 0, index, null, p, null);
        }
        DeviceBuffer packed = run.take(p.words() * 8);
        run.runtime().gather64(gathers(a, l, p, shared), index, n, packed);
        return new Compacted(run, a, layout, n, index, packed, p, null);
    }

    /**
     * The groups compacted, gathered into room for {@link #AHEAD_ROOM} (or the table's slots, if fewer), all queued
     * behind the kernels with no wait: the launches that use the count read it on the device, and a sort on the
     * device then queues its own behind them, so that the query waits once, for its read-back. Where the groups
     * outnumber the room, the read-back sees so and gathers them again from their count ({@link Ahead#counted}).
     */
    private static Compacted ahead(CudaQueryRun run, SinkLayout.Aggregate a, CudaQueryRun.Launch l,
                                   GpuGroups.RowLayout layout, boolean shared) {
        long slots = l.groupSlots;
        int room = (int) Math.min(slots, FORCED_ROOM > 0 ? FORCED_ROOM : AHEAD_ROOM);
        Queued q = Queued.of(run, l, shared);
        GpuGroups.Packing p = packing(a, l, room, shared);
        DeviceBuffer packed = run.take(p.words() * 8);
        run.runtime().gather64(gathers(a, l, p, shared), q.index(), room, q.countAt(), packed, 0);
        Ahead pending = new Ahead(q.countAt(), () -> counted(run, a, l, layout, shared, q));
        return new Compacted(run, a, layout, -1, q.index(), packed, p, pending);
    }

    /** Where a gather of {@code n} entries of the table's arrays puts them in one buffer. */
    private static GpuGroups.Packing packing(SinkLayout.Aggregate a, CudaQueryRun.Launch l, int n, boolean shared) {
        int na = a.aggs().size();
        boolean[] hasValue = new boolean[na];
        boolean[] hasCount = new boolean[na];
        for (int i = 0; i < na; i++) {
            hasValue[i] = l.values.containsKey(i);
            hasCount[i] = l.counts.containsKey(i);
        }
        GpuGroups.Packing p = GpuGroups.Packing.of(n, hasValue, hasCount, shared ? a.keyWidth() : 0);
        if (p.words() > Integer.MAX_VALUE - 8) {
            throw new GpuFallbacks.Fallback(n + " groups of " + p.words() / Math.max(1, n) + " words each");
        }
        return p;
    }

    /** The table's arrays (row counts, each aggregate's values and counts, agg=shared's keys) as {@code p} packs them. */
    private static List<SlotCompaction.Gather> gathers(SinkLayout.Aggregate a, CudaQueryRun.Launch l,
                                                       GpuGroups.Packing p, boolean shared) {
        List<SlotCompaction.Gather> arrays = new ArrayList<>();
        arrays.add(new SlotCompaction.Gather(l.rows.address(), 1, 0));
        for (int i = 0; i < a.aggs().size(); i++) {
            if (p.valueAt()[i] >= 0) {
                arrays.add(new SlotCompaction.Gather(l.values.get(i).address(), 1, p.valueAt()[i]));
            }
            if (p.countAt()[i] >= 0) {
                arrays.add(new SlotCompaction.Gather(l.counts.get(i).address(), 1, p.countAt()[i]));
            }
        }
        if (shared) {
            arrays.add(new SlotCompaction.Gather(l.groupKeys.address(), a.keyWidth(), p.keysAt()));
        }
        return arrays;
    }

    /**
     * Groups gathered before their count was known: the count at device address {@code countAt}, and the same
     * groups gathered once the count is read back, made on first use (more groups than the room, or a reader that
     * needs the count on the host).
     */
    static final class Ahead {
        private final long countAt;
        private final java.util.function.Supplier<Compacted> counting;
        private Compacted counted;

        Ahead(long countAt, java.util.function.Supplier<Compacted> counting) {
            this.countAt = countAt;
            this.counting = counting;
        }

        long countAt() {
            return countAt;
        }

        Compacted counted() {
            if (counted == null) {
                counted = counting.get();
            }
            return counted;
        }
    }

    /**
     * Groups compacted on the device: {@code count} entries, the slot numbers in {@code slots}, every array
     * gathered into {@code packed} as {@code packing} lays it out (null when there are no groups). Gathered ahead
     * of their count ({@code ahead} not null), {@code count} is -1 and {@code packing} lays out the room.
     */
    record Compacted(CudaQueryRun run, SinkLayout.Aggregate aggregate, GpuGroups.RowLayout rowLayout, int count,
                     DeviceBuffer slots, DeviceBuffer packed, GpuGroups.Packing packing, Ahead ahead)
            implements Intermediate.OnDevice {

        /** These groups with their count known: themselves, or those gathered again once it was read back. */
        Compacted counted() {
            return ahead == null ? this : ahead.counted();
        }

        /** The groups as rows, in the order of their slots. */
        @Override
        public RelationPart toHost() {
            if (ahead != null) {
                return counted().toHost();
            }
            return GpuGroups.rows(rowLayout, aggregate, read());
        }

        /**
         * Groups gathered ahead of their count and sorted on the device the same way ({@code order}: the entry
         * numbers of the first {@code keepRoom} of at most the room, from {@link io.tessera.backend.cuda.ops.SmallSort}
         * with the count read there), as rows from entry {@code offset} on: one gather and one copy back, the
         * query's one wait. Null where the groups outnumber the room (to be sorted again from their count).
         */
        RelationPart rowsInOrderAhead(DeviceBuffer order, long offset, int keepRoom) {
            GpuRuntime rt = run.runtime();
            GpuGroups.Packing kept = packing.resized(keepRoom);
            // the kept entries, their slot numbers, then the count
            long words = kept.words() + keepRoom + 1;
            DeviceBuffer out = run.take(words * 8);
            List<SlotCompaction.Gather> arrays = keptGathers(kept);
            rt.gather64(arrays, order, keepRoom, ahead.countAt(), out, out.address() + (words - 1) * 8);
            run.makeCurrent();
            run.checkDeferredErrors();
            long[] all = longs(out, words); // a synchronous copy, after the gathers
            long found = all[(int) words - 1];
            if (found < 0 || found > packing.n()) {
                return null;
            }
            int keep = (int) Math.min(found, keepRoom);
            GpuGroups.Slots inOrder = kept.unpack(java.util.Arrays.copyOfRange(all, (int) kept.words(),
                    (int) kept.words() + keep), all, keep);
            int from = (int) Math.min(keep, Math.max(0, offset));
            return GpuGroups.rows(rowLayout, aggregate, inOrder.pick(identity(keep), from, keep - from));
        }

        /** The gathers of the entries {@code kept} lays out from the packed arrays, with their slot numbers last. */
        private List<SlotCompaction.Gather> keptGathers(GpuGroups.Packing kept) {
            long at = packed.address();
            List<SlotCompaction.Gather> arrays = new ArrayList<>();
            arrays.add(new SlotCompaction.Gather(at, 1, 0));
            for (int a = 0; a < packing.valueAt().length; a++) {
                if (packing.valueAt()[a] >= 0) {
                    arrays.add(new SlotCompaction.Gather(at + packing.valueAt()[a] * 8, 1, kept.valueAt()[a]));
                }
                if (packing.countAt()[a] >= 0) {
                    arrays.add(new SlotCompaction.Gather(at + packing.countAt()[a] * 8, 1, kept.countAt()[a]));
                }
            }
            if (packing.keyWidth() > 0) {
                arrays.add(new SlotCompaction.Gather(at + packing.keysAt() * 8, packing.keyWidth(), kept.keysAt()));
            }
            arrays.add(new SlotCompaction.Gather(slots.address(), 1, kept.words()));
            return arrays;
        }

        /**
         * Entries {@code [from, to)} of the groups in the order {@code order} holds (entry numbers on the device,
         * at least {@code to} of them, from {@link io.tessera.backend.cuda.ops.SmallSort}), as rows.
         */
        RelationPart rowsInOrder(DeviceBuffer order, long from, long to) {
            int keep = (int) to;
            if (keep == 0) {
                return GpuGroups.rows(rowLayout, aggregate, read().pick(new long[0], 0, 0));
            }
            // the first entries in their order gathered on the device, with their slot numbers last: one copy back
            GpuRuntime rt = run.runtime();
            GpuGroups.Packing kept = packing.resized(keep);
            DeviceBuffer out = run.take((kept.words() + keep) * 8);
            rt.gather64(keptGathers(kept), order, keep, out);
            run.makeCurrent();
            long[] all = longs(out, kept.words() + keep); // a synchronous copy, after the gathers
            GpuGroups.Slots inOrder = kept.unpack(java.util.Arrays.copyOfRange(all, (int) kept.words(), all.length), all);
            return GpuGroups.rows(rowLayout, aggregate, inOrder.pick(identity(keep), (int) from, keep - (int) from));
        }

        private GpuGroups.Slots read() {
            if (count == 0) {
                return packing.unpack(new long[0], new long[0]);
            }
            run.makeCurrent();
            // synchronous copies, after the gathers
            return packing.unpack(longs(slots, count), longs(packed, packing.words()));
        }
    }

    /** 0, 1, ..., n - 1. */
    private static long[] identity(int n) {
        long[] at = new long[n];
        for (int i = 0; i < n; i++) {
            at[i] = i;
        }
        return at;
    }

    private static long[] longs(DeviceBuffer b, long n) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment host = arena.allocate(n * 8, 8);
            b.copyToHost(host, 0);
            return host.toArray(ValueLayout.JAVA_LONG);
        }
    }
}

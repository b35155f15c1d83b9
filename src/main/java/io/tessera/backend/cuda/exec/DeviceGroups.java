package io.tessera.backend.cuda.exec;

import io.tessera.backend.host.RelationPart;
import io.tessera.backend.Intermediate;
import io.tessera.backend.cuda.driver.DeviceBuffer;
import io.tessera.backend.cuda.gen.SinkLayout;
import io.tessera.backend.cuda.ops.SlotCompaction;
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

    private DeviceGroups() {
    }

    /**
     * The groups a kernel left in {@code l}; {@code compact}: compacted on the device whatever the table's size
     * (a sort on the device reads them).
     */
    static Intermediate.OnDevice of(CudaQueryRun run, SinkLayout.Aggregate a, CudaQueryRun.Launch l,
                                    GpuGroups.RowLayout layout, boolean compact) {
        long slots = l.groupSlots;
        if (slots > Integer.MAX_VALUE / Math.max(1, a.keyWidth())) {
            throw new GpuFallbacks.Fallback("a group table of " + slots + " slots");
        }
        boolean shared = a.mode().equals("shared");
        if ((compact || slots > CudaQueryRun.COMPACT_ABOVE) && !a.mode().equals("single")) {
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
        GpuRuntime rt = run.runtime();
        long slots = l.groupSlots;
        int na = a.aggs().size();
        int width = a.keyWidth();
        DeviceBuffer index = run.take(slots * 8);
        // queued behind the kernels before their errors are read, so that one wait serves both (the compaction reads
        // only the table's row counts and states, whatever an error left there; an error then ends the run)
        DeviceBuffer scratch = run.take(SlotCompaction.scratchBytes(slots));
        rt.queueCompactSlots(l.rows, shared ? l.groupState : null, slots, index, scratch);
        run.checkDeferredErrors();
        long found = rt.compactedSlots(slots, scratch);
        if (found < 0 || found > slots) {
            throw new IllegalStateException("compacting " + slots + " group slots found " + found);
        }
        int n = (int) found;
        boolean[] hasValue = new boolean[na];
        boolean[] hasCount = new boolean[na];
        for (int i = 0; i < na; i++) {
            hasValue[i] = l.values.containsKey(i);
            hasCount[i] = l.counts.containsKey(i);
        }
        GpuGroups.Packing p = GpuGroups.Packing.of(n, hasValue, hasCount, shared ? width : 0);
        if (n == 0) {
            return new Compacted(run, a, layout, 0, index, null, p);
        }
        if (p.words() > Integer.MAX_VALUE - 8) {
            throw new GpuFallbacks.Fallback(n + " groups of " + p.words() / n + " words each");
        }
        DeviceBuffer packed = run.take(p.words() * 8);
        List<SlotCompaction.Gather> arrays = new ArrayList<>();
        arrays.add(new SlotCompaction.Gather(l.rows.address(), 1, 0));
        for (int i = 0; i < na; i++) {
            if (hasValue[i]) {
                arrays.add(new SlotCompaction.Gather(l.values.get(i).address(), 1, p.valueAt()[i]));
            }
            if (hasCount[i]) {
                arrays.add(new SlotCompaction.Gather(l.counts.get(i).address(), 1, p.countAt()[i]));
            }
        }
        if (shared) {
            arrays.add(new SlotCompaction.Gather(l.groupKeys.address(), width, p.keysAt()));
        }
        rt.gather64(arrays, index, n, packed);
        return new Compacted(run, a, layout, n, index, packed, p);
    }

    /**
     * Groups compacted on the device: {@code count} entries, the slot numbers in {@code slots}, every array
     * gathered into {@code packed} as {@code packing} lays it out (null when there are no groups).
     */
    record Compacted(CudaQueryRun run, SinkLayout.Aggregate aggregate, GpuGroups.RowLayout rowLayout, int count,
                     DeviceBuffer slots, DeviceBuffer packed, GpuGroups.Packing packing) implements Intermediate.OnDevice {

        /** The groups as rows, in the order of their slots. */
        @Override
        public RelationPart toHost() {
            return GpuGroups.rows(rowLayout, aggregate, read());
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
            rt.gather64(arrays, order, keep, out);
            run.makeCurrent();
            long[] all = longs(out, kept.words() + keep); // a synchronous copy, after the gathers
            GpuGroups.Slots inOrder = kept.unpack(java.util.Arrays.copyOfRange(all, (int) kept.words(), all.length), all);
            long[] rest = new long[keep];
            for (int i = 0; i < keep; i++) {
                rest[i] = i;
            }
            return GpuGroups.rows(rowLayout, aggregate, inOrder.pick(rest, (int) from, keep - (int) from));
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

    private static long[] longs(DeviceBuffer b, long n) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment host = arena.allocate(n * 8, 8);
            b.copyToHost(host, 0);
            return host.toArray(ValueLayout.JAVA_LONG);
        }
    }
}

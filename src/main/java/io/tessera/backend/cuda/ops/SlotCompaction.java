package io.tessera.backend.cuda.ops;

import io.tessera.backend.cuda.compile.CudaSources;
import io.tessera.backend.cuda.driver.CudaKernel;
import io.tessera.backend.cuda.driver.DeviceBuffer;
import io.tessera.backend.cuda.driver.KernelArgs;

import java.util.function.Function;

/**
 * Launches the compaction kernels of tessera_query.cuh on the default stream: the indices of a group table's
 * non-empty slots ({@code tessera_count_slots}, then {@code tessera_compact_slots} with the same grid), in
 * ascending order, and the gather of one array at those indices ({@code tessera_gather64}), so that the host reads
 * back a few thousand groups rather than arrays of millions of mostly empty slots (up to four arrays a launch,
 * {@code tessera_gather64_many}); and the gather of a kernel's rows in a sort's order ({@code tessera_gather_rows}).
 */
public final class SlotCompaction {
    /** Threads per block of every launch (a multiple of 32, as the kernels' warp scans want). */
    public static final int THREADS = 256;
    /** At most this many blocks count and compact: each block's offset sums the counts of the blocks before it. */
    public static final int MAX_BLOCKS = 1024;
    private static final long SLOTS_PER_BLOCK = THREADS * 8L;
    private static final int MAX_GATHER_BLOCKS = 4096;
    /** The arrays one launch of {@code tessera_gather64_many} gathers. */
    public static final int ARRAYS_PER_GATHER = 4;

    /**
     * One array of a gather of several at the same slots: the array at device address {@code src}, {@code width}
     * 64-bit words per slot, into the destination from word {@code dstWord} on.
     */
    public record Gather(long src, int width, long dstWord) {
    }

    private final CudaKernel count;
    private final CudaKernel compact;
    private final CudaKernel gather;
    private final CudaKernel gatherMany;
    private final CudaKernel gatherRows;

    /** {@code kernels}: a kernel of the module compiled from {@link CudaSources#utilitySource()}, by name. */
    public SlotCompaction(Function<String, CudaKernel> kernels) {
        this.count = kernels.apply("tessera_count_slots");
        this.compact = kernels.apply("tessera_compact_slots");
        this.gather = kernels.apply("tessera_gather64");
        this.gatherMany = kernels.apply("tessera_gather64_many");
        this.gatherRows = kernels.apply("tessera_gather_rows");
    }

    /** Blocks of the count and compact launches over {@code slots}: a chunk of at least 2,048 slots each. */
    public static int blocks(long slots) {
        return (int) Math.max(1, Math.min(MAX_BLOCKS, (slots + SLOTS_PER_BLOCK - 1) / SLOTS_PER_BLOCK));
    }

    /** Bytes of scratch that {@link #compact} needs for a table of {@code slots}: a count per block and the total. */
    public static long scratchBytes(long slots) {
        return (blocks(slots) + 1L) * 8;
    }

    /**
     * Writes the indices of the non-empty slots among the first {@code slots} into {@code index} (64-bit, ascending)
     * and returns how many there are, after the kernels finished. A slot is non-empty when its 64-bit row count in
     * {@code rows} is not 0 and, when {@code state} (32-bit, agg=shared's group states) is not null, its state is 2.
     * {@code index} needs room for {@code slots} entries, {@code scratch} {@link #scratchBytes} bytes.
     */
    public long compact(DeviceBuffer rows, DeviceBuffer state, long slots, DeviceBuffer index, DeviceBuffer scratch) {
        queueCompact(rows, state, slots, index, scratch);
        return total(slots, scratch); // a synchronous copy: waits for both kernels
    }

    /**
     * Queues {@link #compact}'s kernels without waiting for them: {@link #total} reads how many slots they found,
     * once the caller has waited for the device its own way (polling, so that a cancel ends the wait).
     */
    public void queueCompact(DeviceBuffer rows, DeviceBuffer state, long slots, DeviceBuffer index, DeviceBuffer scratch) {
        if (slots < 0 || rows.size() < slots * 8 || (state != null && state.size() < slots * 4)
                || index.size() < slots * 8 || scratch.size() < scratchBytes(slots)) {
            throw new IllegalArgumentException("compacting " + slots + " slots with buffers of " + rows.size() + ", "
                    + (state == null ? "no state" : state.size() + "") + ", " + index.size() + " and " + scratch.size()
                    + " bytes");
        }
        int blocks = blocks(slots);
        long stateAddress = state == null ? 0 : state.address();
        count.launch(blocks, THREADS, KernelArgs.of().ptr(rows).ptr(stateAddress).i64(slots).ptr(scratch));
        compact.launch(blocks, THREADS, KernelArgs.of().ptr(rows).ptr(stateAddress).i64(slots).ptr(scratch).ptr(index)
                .ptr(scratch.address() + blocks * 8L));
    }

    /** Where in its scratch a compaction over {@code slots} slots leaves the count of non-empty ones (bytes). */
    public static long totalOffset(long slots) {
        return blocks(slots) * 8L;
    }

    /** The non-empty slots the compaction queued with {@code scratch} found (a synchronous copy). */
    public long total(long slots, DeviceBuffer scratch) {
        return scratch.readLong(totalOffset(slots));
    }

    /**
     * Gathers {@code count} entries of {@code width} 64-bit words from {@code src} at the slots in {@code index}
     * (entry i is {@code src}'s words {@code index[i] * width ...}) into {@code dst} from word {@code dstWord} on.
     * Asynchronous: a later copy to the host waits for it.
     */
    public void gather(DeviceBuffer src, int width, DeviceBuffer index, long count, DeviceBuffer dst, long dstWord) {
        gather(src.address(), width, index, count, dst, dstWord);
    }

    /**
     * Gathers {@code count} entries of each of {@code arrays} at the slots in {@code index} into {@code dst}, as
     * {@link #gather(long, int, DeviceBuffer, long, DeviceBuffer, long)} does one by one, with one launch for every
     * {@link #ARRAYS_PER_GATHER}: a group table's read-back gathers its row counts, aggregates and keys at once.
     * Asynchronous: a later copy to the host waits for it.
     */
    public void gather(java.util.List<Gather> arrays, DeviceBuffer index, long count, DeviceBuffer dst) {
        gather(arrays, index, count, 0, dst, 0);
    }

    /**
     * As {@link #gather(java.util.List, DeviceBuffer, long, DeviceBuffer)} for as many entries as the count at device
     * address {@code countAt} says (a compaction's total), at most {@code room}: queued before the host knows the
     * count. The count itself, whole, goes to device address {@code countOut}, for the host to read back with the
     * entries (and see whether they were cut to the room). {@code countAt} 0: {@code room} entries, none written.
     */
    public void gather(java.util.List<Gather> arrays, DeviceBuffer index, long room, long countAt, DeviceBuffer dst,
                       long countOut) {
        if (room <= 0 || arrays.isEmpty()) {
            if (countOut != 0) {
                throw new IllegalArgumentException("a count to write back with no entries to gather");
            }
            return;
        }
        for (Gather g : arrays) {
            checkGather(g.width(), index, room, dst, g.dstWord());
        }
        int blocks = (int) Math.min(MAX_GATHER_BLOCKS, (room + THREADS - 1) / THREADS);
        for (int from = 0; from < arrays.size(); from += ARRAYS_PER_GATHER) {
            // the count goes back once, with the first launch
            KernelArgs args = KernelArgs.of().ptr(index).i64(room).ptr(countAt).ptr(from == 0 ? countOut : 0);
            for (int a = from; a < from + ARRAYS_PER_GATHER; a++) {
                if (a < arrays.size()) {
                    Gather g = arrays.get(a);
                    args.ptr(g.src()).i32(g.width()).ptr(dst.address() + g.dstWord() * 8);
                } else {
                    args.ptr(0).i32(0).ptr(0); // no array
                }
            }
            gatherMany.launch(blocks, THREADS, args);
        }
    }

    /**
     * Gathers {@code count} elements of {@code bytes} bytes (8, 4 or 1) from the array at {@code src} at the row
     * numbers (64-bit) of the array at {@code index} into the array at {@code dst}: element i is {@code src}'s element
     * {@code index[i]}. Asynchronous: a later copy to the host waits for it.
     */
    public void gatherRows(long src, int bytes, long index, long count, long dst) {
        if (count <= 0) {
            return;
        }
        if (bytes != 8 && bytes != 4 && bytes != 1) {
            throw new IllegalArgumentException("gathering elements of " + bytes + " bytes");
        }
        int blocks = (int) Math.min(MAX_GATHER_BLOCKS, (count + THREADS - 1) / THREADS);
        gatherRows.launch(blocks, THREADS, KernelArgs.of().ptr(src).ptr(index).i64(count).i32(bytes).ptr(dst));
    }

    /** As {@link #gather(DeviceBuffer, int, DeviceBuffer, long, DeviceBuffer, long)}, from the array at {@code src}. */
    public void gather(long src, int width, DeviceBuffer index, long count, DeviceBuffer dst, long dstWord) {
        if (count <= 0) {
            return;
        }
        long words = checkGather(width, index, count, dst, dstWord);
        int blocks = (int) Math.min(MAX_GATHER_BLOCKS, (words + THREADS - 1) / THREADS);
        gather.launch(blocks, THREADS, KernelArgs.of().ptr(src).ptr(index).i64(count).i32(width)
                .ptr(dst.address() + dstWord * 8));
    }

    /** The words a gather of {@code count} entries of {@code width} words writes, once its buffers are known to hold them. */
    private static long checkGather(int width, DeviceBuffer index, long count, DeviceBuffer dst, long dstWord) {
        long words = Math.multiplyExact(count, (long) width);
        if (width < 1 || dstWord < 0 || index.size() < count * 8 || dst.size() < (dstWord + words) * 8) {
            throw new IllegalArgumentException("gathering " + count + " entries of " + width + " words into word "
                    + dstWord + " of " + dst.size() + " bytes, with an index of " + index.size() + " bytes");
        }
        return words;
    }
}

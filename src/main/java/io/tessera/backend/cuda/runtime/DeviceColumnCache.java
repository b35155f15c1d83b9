package io.tessera.backend.cuda.runtime;

import io.tessera.backend.cuda.driver.CudaContext;
import io.tessera.backend.cuda.driver.DeviceBuffer;
import io.tessera.backend.cuda.driver.PinnedBuffer;
import io.tessera.storage.Column;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * Stored columns in device memory: uploaded on first use through a pinned staging buffer and kept under the
 * device's column budget ({@link DeviceBudget}, one per GPU for the whole process, shared with the caches of other
 * databases open on it), least recently used out first. Columns a running query holds ({@link #hold}) are not
 * evicted until every query that holds them has {@link #release released} them. VARCHAR columns travel as their 32-bit dictionary codes, as they are stored.
 * A column that holds NULLs has its NULL flags cached beside its values as an entry of their own ({@link
 * Entry#nulls}): one byte a row, 1 for NULL, unpacked from the stored validity bitmap, the form a kernel reads
 * an intermediate relation's NULLs in as well. The masks and maps of a dictionary's codes that kernels read are kept
 * the same way ({@link Entry#words}), so that a query run again does not copy them again.
 */
public final class DeviceColumnCache implements AutoCloseable {

    private final CudaContext ctx;
    private final PinnedBuffer staging;
    private final LongSupplier trim;
    private final Share share = new Share();
    // access order: the eldest entry is the least recently used
    private final LinkedHashMap<Entry, DeviceBuffer> columns = new LinkedHashMap<>(16, 0.75f, true);
    /** How many running queries hold each entry: queries of one database may run at once (JDBC statements). */
    private final Map<Entry, Integer> held = new HashMap<>();
    /** The device's budget, whose monitor guards every field below and the two collections above. */
    private final DeviceBudget budget;
    private long bytes;
    private long uploads;
    private long uploadedBytes;
    private long uploadNanos;
    private boolean closed;

    /**
     * A cache on {@code ctx}'s device, joined to that device's budget; {@code budgetBytes} sizes the budget where
     * this is the first cache on the device; {@code trim} frees the runtime's other memory kept for reuse (its
     * pool's free lists) when the device runs out of memory; returns bytes.
     */
    public DeviceColumnCache(CudaContext ctx, PinnedBuffer staging, LongSupplier budgetBytes, LongSupplier trim) {
        this.ctx = ctx;
        this.staging = staging;
        this.trim = trim;
        this.budget = DeviceBudget.join(ctx.ordinal(), budgetBytes, share);
    }

    /**
     * What the cache keeps: a stored column's values or its NULL flags (equal for the same column object: a snapshot's
     * column stands for its files, compared by identity), or an array of 32-bit words derived from a column's
     * dictionary (a mask or a map of its codes, {@code CodeMasks} and {@code MappedCodes}: made once per dictionary and
     * expression and never changed after), compared by identity.
     */
    public sealed interface Entry {

        /** A column's values. */
        static Entry values(Column c) {
            return new Values(c);
        }

        /** A column's NULL flags: one byte a row, 1 for NULL. */
        static Entry nulls(Column c) {
            return new NullFlags(c);
        }

        /** The words of a mask or map of a dictionary's codes, which a kernel reads as its parameter. */
        static Entry words(int[] words) {
            return new Words(words);
        }

        /** Bytes of the entry's device copy. */
        long bytes();
    }

    private record Values(Column column) implements Entry {
        @Override
        public long bytes() {
            return column.data().byteSize();
        }
    }

    private record NullFlags(Column column) implements Entry {
        @Override
        public long bytes() {
            return column.rowCount();
        }
    }

    /** Equal for the same array only (a record compares an array component by identity). */
    private record Words(int[] words) implements Entry {
        @Override
        public long bytes() {
            return words.length * 4L;
        }
    }

    /**
     * The device copy of a column's values, uploaded now if it is not cached; held (not evicted) until the query
     * {@link #release releases} it, once for each hold.
     */
    public DeviceBuffer hold(Column c) {
        return hold(Entry.values(c));
    }

    /**
     * The device copy of an entry (a column's values, or its NULL flags), uploaded now if it is not cached; held
     * (not evicted) until the query {@link #release releases} it, once for each hold.
     */
    public DeviceBuffer hold(Entry e) {
        synchronized (budget) {
            DeviceBuffer b = columns.get(e);
            if (b == null) {
                if (closed) {
                    throw new IllegalStateException("the device column cache is closed");
                }
                long size = Math.max(16, e.bytes());
                budget.reserve(share, size);
                long t0 = System.nanoTime();
                try {
                    b = upload(e);
                } catch (RuntimeException ex) {
                    budget.release(size);
                    throw ex;
                }
                uploadNanos += System.nanoTime() - t0;
                uploads++;
                uploadedBytes += e.bytes();
                columns.put(e, b);
                bytes += size;
            }
            held.merge(e, 1, Integer::sum);
            return b;
        }
    }

    /** An entry's device copy ({@code max(16, bytes)} bytes); on running out of memory, once more after reclaiming. */
    private DeviceBuffer upload(Entry e) {
        try {
            return uploadOnce(e);
        } catch (io.tessera.backend.cuda.CudaException ex) {
            if (!"CUDA_ERROR_OUT_OF_MEMORY".equals(ex.errorName())) {
                throw ex;
            }
            budget.reclaim();
            return uploadOnce(e);
        }
    }

    private DeviceBuffer uploadOnce(Entry e) {
        if (e.bytes() == 0) {
            return ctx.allocate(16);
        }
        return switch (e) {
            case Values v -> ctx.upload(v.column().data(), staging);
            case Words w -> ctx.upload(MemorySegment.ofArray(w.words()), staging);
            case NullFlags f -> {
                try (Arena arena = Arena.ofConfined()) {
                    yield ctx.upload(nullFlags(f.column(), arena), staging);
                }
            }
        };
    }

    /** A column's NULL flags unpacked from its validity bitmap (bit set = valid): one byte a row, 1 for NULL. */
    static MemorySegment nullFlags(Column c, Arena arena) {
        long rows = c.rowCount();
        MemorySegment flags = arena.allocate(rows); // zeroed: not NULL
        MemorySegment validity = c.validity();
        if (validity == null) {
            return flags;
        }
        for (long w = 0; w << 6 < rows; w++) {
            long word = validity.get(ValueLayout.JAVA_LONG_UNALIGNED, w << 3);
            long invalid = ~word;
            if (invalid == 0) {
                continue;
            }
            long base = w << 6;
            while (invalid != 0) {
                long row = base + Long.numberOfTrailingZeros(invalid);
                if (row >= rows) {
                    break; // the bits past the last row
                }
                flags.set(ValueLayout.JAVA_BYTE, row, (byte) 1);
                invalid &= invalid - 1;
            }
        }
        return flags;
    }

    /** Frees this cache's unheld columns, least recently used first, until {@code wanted} bytes are freed. */
    private void evictUnheld(long wanted) {
        long freed = 0;
        for (Iterator<Map.Entry<Entry, DeviceBuffer>> it = columns.entrySet().iterator(); it.hasNext()
                && freed < wanted; ) {
            Map.Entry<Entry, DeviceBuffer> e = it.next();
            if (!held.containsKey(e.getKey())) {
                it.remove();
                freed += free(e.getValue());
            }
        }
    }

    /** Frees a column's device copy; returns its bytes, given back to the budget. */
    private long free(DeviceBuffer b) {
        long size = Math.max(16, b.size());
        bytes -= size;
        budget.release(size);
        b.close();
        return size;
    }

    /** What the device's budget may ask of this cache. */
    private final class Share implements DeviceBudget.Member {
        @Override
        public void evictUnheld(long wanted) {
            DeviceColumnCache.this.evictUnheld(wanted);
        }

        @Override
        public void trim() {
            trim.getAsLong();
        }
    }

    /**
     * Gives back the holds of a query that ended ({@code entries}: each once for each {@link #hold}); an entry no
     * other running query holds may be evicted again.
     */
    public void release(Collection<Entry> entries) {
        synchronized (budget) {
            for (Entry c : entries) {
                held.computeIfPresent(c, (k, n) -> n > 1 ? n - 1 : null);
            }
        }
    }

    /** Bytes of this cache's columns on the device. */
    public long bytes() {
        synchronized (budget) {
            return bytes;
        }
    }

    /** The device's column budget, shared by every cache on that device. */
    public long budget() {
        return budget.total();
    }

    public int size() {
        synchronized (budget) {
            return columns.size();
        }
    }

    public long uploads() {
        synchronized (budget) {
            return uploads;
        }
    }

    public long uploadedBytes() {
        synchronized (budget) {
            return uploadedBytes;
        }
    }

    public long uploadNanos() {
        synchronized (budget) {
            return uploadNanos;
        }
    }

    /** Frees every column and leaves the device's budget: the other caches on the device keep theirs. */
    @Override
    public void close() {
        try {
            synchronized (budget) {
                if (closed) {
                    return;
                }
                closed = true;
                held.clear();
                try {
                    for (DeviceBuffer b : new ArrayList<>(columns.values())) {
                        free(b);
                    }
                } finally {
                    columns.clear();
                }
            }
        } finally {
            // also when freeing failed: a closed cache left in the budget would be asked to evict by every later
            // reservation on the device. Outside the budget's monitor: leaving takes the registry's first
            DeviceBudget.leave(budget, share);
        }
    }
}

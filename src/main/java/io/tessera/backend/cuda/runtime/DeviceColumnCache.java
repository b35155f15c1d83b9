package io.tessera.backend.cuda.runtime;

import io.tessera.backend.cuda.driver.CudaContext;
import io.tessera.backend.cuda.driver.DeviceBuffer;
import io.tessera.backend.cuda.driver.PinnedBuffer;
import io.tessera.storage.Column;

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
 */
public final class DeviceColumnCache implements AutoCloseable {

    private final CudaContext ctx;
    private final PinnedBuffer staging;
    private final LongSupplier trim;
    private final Share share = new Share();
    // access order: the eldest entry is the least recently used
    private final LinkedHashMap<Column, DeviceBuffer> columns = new LinkedHashMap<>(16, 0.75f, true);
    /** How many running queries hold each column: queries of one database may run at once (JDBC statements). */
    private final Map<Column, Integer> held = new HashMap<>();
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
     * The device copy of a column, uploaded now if it is not cached; held (not evicted) until the query
     * {@link #release releases} it, once for each hold.
     */
    public DeviceBuffer hold(Column c) {
        synchronized (budget) {
            DeviceBuffer b = columns.get(c);
            if (b == null) {
                if (closed) {
                    throw new IllegalStateException("the device column cache is closed");
                }
                long size = Math.max(16, c.data().byteSize());
                budget.reserve(share, size);
                long t0 = System.nanoTime();
                try {
                    b = upload(c);
                } catch (RuntimeException e) {
                    budget.release(size);
                    throw e;
                }
                uploadNanos += System.nanoTime() - t0;
                uploads++;
                uploadedBytes += c.data().byteSize();
                columns.put(c, b);
                bytes += size;
            }
            held.merge(c, 1, Integer::sum);
            return b;
        }
    }

    /** A column's device copy ({@code max(16, bytes)} bytes); on running out of memory, once more after reclaiming. */
    private DeviceBuffer upload(Column c) {
        try {
            return c.data().byteSize() == 0 ? ctx.allocate(16) : ctx.upload(c.data(), staging);
        } catch (io.tessera.backend.cuda.CudaException e) {
            if (!"CUDA_ERROR_OUT_OF_MEMORY".equals(e.errorName())) {
                throw e;
            }
            budget.reclaim();
            return c.data().byteSize() == 0 ? ctx.allocate(16) : ctx.upload(c.data(), staging);
        }
    }

    /** Frees this cache's unheld columns, least recently used first, until {@code wanted} bytes are freed. */
    private void evictUnheld(long wanted) {
        long freed = 0;
        for (Iterator<Map.Entry<Column, DeviceBuffer>> it = columns.entrySet().iterator(); it.hasNext()
                && freed < wanted; ) {
            Map.Entry<Column, DeviceBuffer> e = it.next();
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
     * Gives back the holds of a query that ended ({@code columns}: each column once for each {@link #hold}); a column
     * no other running query holds may be evicted again.
     */
    public void release(Collection<Column> columns) {
        synchronized (budget) {
            for (Column c : columns) {
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

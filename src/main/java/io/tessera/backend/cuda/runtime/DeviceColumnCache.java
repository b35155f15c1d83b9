package io.tessera.backend.cuda.runtime;

import io.tessera.backend.cuda.driver.CudaContext;
import io.tessera.backend.cuda.driver.DeviceBuffer;
import io.tessera.backend.cuda.driver.PinnedBuffer;
import io.tessera.storage.Column;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.LongSupplier;

/**
 * Stored columns in device memory: uploaded on first use through a pinned staging buffer and kept under a memory
 * budget, least recently used out first. Columns a running query holds ({@link #hold}) are not evicted until
 * {@link #releaseHeld()}. VARCHAR columns travel as their 32-bit dictionary codes, as they are stored.
 */
public final class DeviceColumnCache implements AutoCloseable {

    private final CudaContext ctx;
    private final PinnedBuffer staging;
    private final long budget;
    private final LongSupplier reclaim;
    // access order: the eldest entry is the least recently used
    private final LinkedHashMap<Column, DeviceBuffer> columns = new LinkedHashMap<>(16, 0.75f, true);
    private final Set<Column> held = new HashSet<>();
    private long bytes;
    private long uploads;
    private long uploadedBytes;
    private long uploadNanos;

    /** {@code reclaim}: frees other device memory (the pool's free lists) when an upload does not fit; returns bytes. */
    public DeviceColumnCache(CudaContext ctx, PinnedBuffer staging, long budget, LongSupplier reclaim) {
        this.ctx = ctx;
        this.staging = staging;
        this.budget = budget;
        this.reclaim = reclaim;
    }

    /** The device copy of a column, uploaded now if it is not cached; held until {@link #releaseHeld()}. */
    public synchronized DeviceBuffer hold(Column c) {
        DeviceBuffer b = columns.get(c);
        if (b == null) {
            long size = Math.max(16, c.data().byteSize());
            evictFor(size);
            long t0 = System.nanoTime();
            try {
                b = c.data().byteSize() == 0 ? ctx.allocate(16) : ctx.upload(c.data(), staging);
            } catch (io.tessera.backend.cuda.CudaException e) {
                if (!"CUDA_ERROR_OUT_OF_MEMORY".equals(e.errorName())) {
                    throw e;
                }
                reclaim.getAsLong();
                evictAllButHeld();
                b = ctx.upload(c.data(), staging);
            }
            uploadNanos += System.nanoTime() - t0;
            uploads++;
            uploadedBytes += c.data().byteSize();
            columns.put(c, b);
            bytes += b.size();
        }
        held.add(c);
        return b;
    }

    private void evictFor(long size) {
        if (bytes + size <= budget) {
            return;
        }
        List<Column> victims = new ArrayList<>();
        long after = bytes;
        for (Map.Entry<Column, DeviceBuffer> e : columns.entrySet()) {
            if (after + size <= budget) {
                break;
            }
            if (!held.contains(e.getKey())) {
                victims.add(e.getKey());
                after -= e.getValue().size();
            }
        }
        for (Column v : victims) {
            evict(v);
        }
        if (bytes + size > budget) {
            throw new DeviceMemoryException("the columns of this query need more than the device column budget of "
                    + (budget >> 20) + " MiB");
        }
    }

    private void evictAllButHeld() {
        for (Column c : new ArrayList<>(columns.keySet())) {
            if (!held.contains(c)) {
                evict(c);
            }
        }
    }

    private void evict(Column c) {
        DeviceBuffer b = columns.remove(c);
        if (b != null) {
            bytes -= b.size();
            b.close();
        }
    }

    /** Lets the columns held by the query that just ended be evicted again. */
    public synchronized void releaseHeld() {
        held.clear();
    }

    public synchronized long bytes() {
        return bytes;
    }

    public long budget() {
        return budget;
    }

    public synchronized int size() {
        return columns.size();
    }

    public synchronized long uploads() {
        return uploads;
    }

    public synchronized long uploadedBytes() {
        return uploadedBytes;
    }

    public synchronized long uploadNanos() {
        return uploadNanos;
    }

    @Override
    public synchronized void close() {
        held.clear();
        evictAllButHeld();
    }
}

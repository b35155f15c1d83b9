package io.tessera.backend.cuda.runtime;

import io.tessera.backend.cuda.driver.CudaContext;
import io.tessera.backend.cuda.driver.DeviceBuffer;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Device memory for hash tables and intermediates, reused across queries: buffers come in power-of-two size
 * classes, go back to a free list when a query is done with them, and are freed for real by {@link #trim()}
 * (when the column cache needs room) or {@link #close()}.
 */
public final class DevicePool implements AutoCloseable {

    private static final long MIN_CLASS = 256;

    private final CudaContext ctx;
    private final TreeMap<Long, ArrayDeque<DeviceBuffer>> free = new TreeMap<>();
    private long freeBytes;
    private long allocations;

    public DevicePool(CudaContext ctx) {
        this.ctx = ctx;
    }

    /** A buffer of at least {@code bytes} (contents undefined). */
    public synchronized DeviceBuffer take(long bytes) {
        long size = sizeClass(bytes);
        ArrayDeque<DeviceBuffer> q = free.get(size);
        if (q != null && !q.isEmpty()) {
            DeviceBuffer b = q.pop();
            freeBytes -= b.size();
            return b;
        }
        allocations++;
        return ctx.allocate(size);
    }

    /** Returns a buffer taken from this pool. */
    public synchronized void give(DeviceBuffer b) {
        free.computeIfAbsent(b.size(), k -> new ArrayDeque<>()).push(b);
        freeBytes += b.size();
    }

    public synchronized void giveAll(List<DeviceBuffer> buffers) {
        for (DeviceBuffer b : buffers) {
            give(b);
        }
    }

    /** Frees every buffer on the free lists; returns the bytes freed. */
    public synchronized long trim() {
        long n = freeBytes;
        List<DeviceBuffer> all = new ArrayList<>();
        for (Map.Entry<Long, ArrayDeque<DeviceBuffer>> e : free.entrySet()) {
            all.addAll(e.getValue());
        }
        free.clear();
        freeBytes = 0;
        for (DeviceBuffer b : all) {
            b.close();
        }
        return n;
    }

    /** Buffers on the free lists. */
    public synchronized int freeBuffers() {
        int n = 0;
        for (ArrayDeque<DeviceBuffer> q : free.values()) {
            n += q.size();
        }
        return n;
    }

    public synchronized long freeBytes() {
        return freeBytes;
    }

    /** Buffers allocated from the device so far (a reused buffer is not counted again). */
    public synchronized long allocations() {
        return allocations;
    }

    static long sizeClass(long bytes) {
        long s = MIN_CLASS;
        while (s < bytes) {
            s <<= 1;
        }
        return s;
    }

    @Override
    public void close() {
        trim();
    }
}

package io.tessera.backend.cuda.driver;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

import static java.lang.foreign.ValueLayout.JAVA_DOUBLE;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/** Device memory (cuMemAlloc_v2), freed by {@link #close()} or by its context's close. */
public final class DeviceBuffer extends CudaResource {
    private final long address;
    private final long size;

    DeviceBuffer(CudaContext context, long address, long size) {
        super(context);
        this.address = address;
        this.size = size;
        CudaMemoryStats.deviceAllocated(size);
    }

    /** The device address (CUdeviceptr), for kernel arguments. */
    public long address() {
        ensureOpen();
        return address;
    }

    /** Size in bytes. */
    public long size() {
        return size;
    }

    private void checkRange(long offset, long bytes) {
        if (offset < 0 || bytes < 0 || offset + bytes > size) {
            throw new IndexOutOfBoundsException("bytes " + offset + ".." + (offset + bytes) + " of a device buffer of "
                    + size);
        }
    }

    /** Synchronous copy of all of {@code src} to this buffer at {@code offset} (src should be native, ideally pinned). */
    public void copyFromHost(MemorySegment src, long offset) {
        ensureOpen();
        checkRange(offset, src.byteSize());
        context.makeCurrent();
        if (src.isNative()) {
            context.driver().memcpyHtoD(address + offset, src, src.byteSize());
        } else {
            try (Arena a = Arena.ofConfined()) {
                MemorySegment tmp = a.allocate(src.byteSize(), 16);
                tmp.copyFrom(src);
                context.driver().memcpyHtoD(address + offset, tmp, src.byteSize());
            }
        }
        CudaMemoryStats.copiedToDevice(src.byteSize());
    }

    /** Copies all of {@code src} to this buffer at {@code offset} through a pinned staging buffer (double-buffered). */
    public void copyFromHost(MemorySegment src, long offset, PinnedBuffer staging) {
        ensureOpen();
        checkRange(offset, src.byteSize());
        context.makeCurrent();
        CudaDriver d = context.driver();
        long half = Math.max(16, (staging.size() / 2) & ~15L);
        if (staging.size() < 32) {
            throw new IllegalArgumentException("staging buffer too small: " + staging.size() + " bytes");
        }
        MemorySegment[] halves = {staging.segment().asSlice(0, half), staging.segment().asSlice(half, half)};
        CudaEvent[] done = {context.createEvent(), context.createEvent()};
        boolean[] inFlight = {false, false};
        try {
            long total = src.byteSize();
            int k = 0;
            for (long pos = 0; pos < total; pos += half, k ^= 1) {
                long n = Math.min(half, total - pos);
                if (inFlight[k]) {
                    done[k].synchronize();
                }
                MemorySegment.copy(src, pos, halves[k], 0, n);
                d.memcpyHtoDAsync(address + offset + pos, halves[k], n, MemorySegment.NULL);
                done[k].record();
                inFlight[k] = true;
            }
            for (int i = 0; i < 2; i++) {
                if (inFlight[i]) {
                    done[i].synchronize();
                }
            }
            CudaMemoryStats.copiedToDevice(total);
        } finally {
            done[0].close();
            done[1].close();
        }
    }

    /** Synchronous copy of {@code dst.byteSize()} bytes from this buffer at {@code offset} into dst. */
    public void copyToHost(MemorySegment dst, long offset) {
        ensureOpen();
        checkRange(offset, dst.byteSize());
        context.makeCurrent();
        if (dst.isNative()) {
            context.driver().memcpyDtoH(dst, address + offset, dst.byteSize());
        } else {
            try (Arena a = Arena.ofConfined()) {
                MemorySegment tmp = a.allocate(dst.byteSize(), 16);
                context.driver().memcpyDtoH(tmp, address + offset, dst.byteSize());
                dst.copyFrom(tmp);
            }
        }
        CudaMemoryStats.copiedToHost(dst.byteSize());
    }

    /** Reads one 64-bit integer (for example a kernel's sum) at {@code offset}; waits for prior work. */
    public long readLong(long offset) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment v = a.allocate(JAVA_LONG);
            copyToHost(v, offset);
            return v.get(JAVA_LONG, 0);
        }
    }

    /** Reads one double at {@code offset}; waits for prior work. */
    public double readDouble(long offset) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment v = a.allocate(JAVA_DOUBLE);
            copyToHost(v, offset);
            return v.get(JAVA_DOUBLE, 0);
        }
    }

    /** Sets every byte to zero. */
    public void zero() {
        ensureOpen();
        context.makeCurrent();
        context.driver().memsetD8(address, (byte) 0, size);
    }

    /** Sets the first {@code words} 32-bit words to {@code value} (cuMemsetD32_v2). */
    public void fill32(int value, long words) {
        ensureOpen();
        checkRange(0, words * 4);
        context.makeCurrent();
        context.driver().memsetD32(address, value, words);
    }

    /** Sets the first {@code words} 32-bit words to {@code value}, queued on {@code stream} (cuMemsetD32Async). */
    public void fill32(int value, long words, CudaStream stream) {
        ensureOpen();
        checkRange(0, words * 4);
        context.makeCurrent();
        context.driver().graphs().memsetD32Async(address, value, words, CudaStream.handleOf(stream));
    }

    @Override
    void release() {
        try {
            context.driver().memFree(address);
        } finally {
            CudaMemoryStats.deviceFreed(size);
        }
    }
}

package io.tessera.backend.cuda.driver;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Process-wide counters of live CUDA allocations and handles and of bytes moved, for tests, leak
 * checks and benchmarks (which must tell transfer time from kernel time). Every allocation adds to
 * them and every free subtracts.
 */
public final class CudaMemoryStats {
    private static final AtomicLong DEVICE_BUFFERS = new AtomicLong();
    private static final AtomicLong DEVICE_BYTES = new AtomicLong();
    private static final AtomicLong PINNED_BUFFERS = new AtomicLong();
    private static final AtomicLong PINNED_BYTES = new AtomicLong();
    private static final AtomicLong HANDLES = new AtomicLong();
    private static final AtomicLong TO_DEVICE = new AtomicLong();
    private static final AtomicLong TO_HOST = new AtomicLong();
    private static final AtomicLong LAUNCHES = new AtomicLong();

    private CudaMemoryStats() {
    }

    /** The counters at one moment. */
    public record Snapshot(long deviceBuffers, long deviceBytes, long pinnedBuffers, long pinnedBytes,
                           long liveHandles, long bytesToDevice, long bytesToHost, long kernelLaunches) {
        /** True when no device buffer, pinned buffer, module, stream or event is alive. */
        public boolean nothingLive() {
            return deviceBuffers == 0 && deviceBytes == 0 && pinnedBuffers == 0 && pinnedBytes == 0 && liveHandles == 0;
        }

        @Override
        public String toString() {
            return "device buffers " + deviceBuffers + " (" + deviceBytes + " bytes), pinned buffers " + pinnedBuffers
                    + " (" + pinnedBytes + " bytes), modules/streams/events " + liveHandles + ", copied to device "
                    + bytesToDevice + " bytes, to host " + bytesToHost + " bytes, launches " + kernelLaunches;
        }
    }

    public static Snapshot snapshot() {
        return new Snapshot(DEVICE_BUFFERS.get(), DEVICE_BYTES.get(), PINNED_BUFFERS.get(), PINNED_BYTES.get(),
                HANDLES.get(), TO_DEVICE.get(), TO_HOST.get(), LAUNCHES.get());
    }

    public static long liveDeviceBuffers() {
        return DEVICE_BUFFERS.get();
    }

    public static long liveDeviceBytes() {
        return DEVICE_BYTES.get();
    }

    public static long livePinnedBuffers() {
        return PINNED_BUFFERS.get();
    }

    public static long livePinnedBytes() {
        return PINNED_BYTES.get();
    }

    public static long liveHandles() {
        return HANDLES.get();
    }

    public static long bytesToDevice() {
        return TO_DEVICE.get();
    }

    public static long bytesToHost() {
        return TO_HOST.get();
    }

    static void deviceAllocated(long bytes) {
        DEVICE_BUFFERS.incrementAndGet();
        DEVICE_BYTES.addAndGet(bytes);
    }

    static void deviceFreed(long bytes) {
        DEVICE_BUFFERS.decrementAndGet();
        DEVICE_BYTES.addAndGet(-bytes);
    }

    static void pinnedAllocated(long bytes) {
        PINNED_BUFFERS.incrementAndGet();
        PINNED_BYTES.addAndGet(bytes);
    }

    static void pinnedFreed(long bytes) {
        PINNED_BUFFERS.decrementAndGet();
        PINNED_BYTES.addAndGet(-bytes);
    }

    static void handleCreated() {
        HANDLES.incrementAndGet();
    }

    static void handleDestroyed() {
        HANDLES.decrementAndGet();
    }

    static void copiedToDevice(long bytes) {
        TO_DEVICE.addAndGet(bytes);
    }

    static void copiedToHost(long bytes) {
        TO_HOST.addAndGet(bytes);
    }

    static void launched() {
        LAUNCHES.incrementAndGet();
    }
}

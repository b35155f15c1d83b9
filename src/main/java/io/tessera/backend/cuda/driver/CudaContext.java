package io.tessera.backend.cuda.driver;

import io.tessera.backend.cuda.CudaException;
import io.tessera.profile.DeviceInfo;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * A GPU's primary context, made current on every thread that uses it through this object. Owns
 * what is allocated through it: {@link #close()} frees every buffer, module, stream and event still
 * open, then releases the primary context.
 */
public final class CudaContext implements AutoCloseable {
    private static final ThreadLocal<MemorySegment> CURRENT = new ThreadLocal<>();

    private final CudaDriver driver;
    private final int ordinal;
    private final int device;
    private final MemorySegment context;
    private final Set<CudaResource> open = new LinkedHashSet<>();
    private DeviceInfo info;
    private boolean closed;

    private CudaContext(CudaDriver driver, int ordinal) {
        this.driver = driver;
        this.ordinal = ordinal;
        int count = driver.deviceCount();
        if (ordinal < 0 || ordinal >= count) {
            throw new CudaUnavailableException("no CUDA device " + ordinal + " (" + count + " device"
                    + (count == 1 ? "" : "s") + ")");
        }
        this.device = driver.device(ordinal);
        this.context = driver.primaryContextRetain(device);
        makeCurrent();
    }

    /** The primary context of device 0. */
    public static CudaContext open() {
        return open(0);
    }

    /** The primary context of the device with this ordinal. */
    public static CudaContext open(int ordinal) {
        return new CudaContext(CudaDriver.get(), ordinal);
    }

    public CudaDriver driver() {
        return driver;
    }

    public int ordinal() {
        return ordinal;
    }

    /** The CUdevice handle. */
    public int device() {
        return device;
    }

    /** Name, SMs, memory, compute capability and so on (queried once). */
    public synchronized DeviceInfo info() {
        if (info == null) {
            info = CudaDevices.gpu(driver, ordinal);
        }
        return info;
    }

    /** The CUcontext handle. */
    public MemorySegment handle() {
        return context;
    }

    /** Binds this context to the calling thread (cheap when it already is). */
    public void makeCurrent() {
        MemorySegment cur = CURRENT.get();
        if (cur == null || !cur.equals(context)) {
            driver.contextSetCurrent(context);
            CURRENT.set(context);
        }
    }

    /** Waits for all work on the device; errors of earlier asynchronous work surface here. */
    public void synchronize() {
        makeCurrent();
        driver.contextSynchronize();
    }

    /** Free device memory in bytes (cuMemGetInfo). */
    public long freeMemory() {
        makeCurrent();
        return driver.memoryInfo()[0];
    }

    /** Total device memory in bytes. */
    public long totalMemory() {
        makeCurrent();
        return driver.memoryInfo()[1];
    }

    /** Allocates device memory (cuMemAlloc_v2, 256-byte aligned, not cleared). */
    public DeviceBuffer allocate(long bytes) {
        checkOpen();
        makeCurrent();
        return register(new DeviceBuffer(this, driver.memAlloc(Math.max(1, bytes)), bytes));
    }

    /** Allocates page-locked host memory for fast transfers (cuMemAllocHost_v2). */
    public PinnedBuffer allocatePinned(long bytes) {
        checkOpen();
        makeCurrent();
        return register(new PinnedBuffer(this, driver.memAllocHost(Math.max(1, bytes)), bytes));
    }

    /**
     * Copies host memory of any kind (heap-backed segments too) to a new device buffer, through the
     * pinned staging buffer, whose two halves alternate so that filling one overlaps the copy of
     * the other.
     */
    public DeviceBuffer upload(MemorySegment host, PinnedBuffer staging) {
        DeviceBuffer out = allocate(host.byteSize());
        try {
            out.copyFromHost(host, 0, staging);
            return out;
        } catch (RuntimeException e) {
            out.close();
            throw e;
        }
    }

    /** Loads a module from a CUBIN image (or NUL-terminated PTX). */
    public CudaModule loadModule(byte[] image) {
        checkOpen();
        makeCurrent();
        return register(CudaModule.load(this, image));
    }

    public CudaStream createStream() {
        checkOpen();
        makeCurrent();
        return register(new CudaStream(this, driver.streamCreate(CudaStream.NON_BLOCKING)));
    }

    /**
     * The work {@code work} queues on the stream it is given (kernel launches, asynchronous memsets), captured into a
     * graph instead of run: on a stream of its own, in thread-local capture mode, so that other threads' work goes on
     * meanwhile. Throws a CudaException when the driver has no graphs or the capture or instantiation fails; the
     * work then has not run.
     */
    public CudaGraph captureGraph(java.util.function.Consumer<CudaStream> work) {
        checkOpen();
        makeCurrent();
        GraphCalls calls = driver.graphs();
        String missing = calls.missingGraphCalls();
        if (missing != null) {
            throw new CudaException("no CUDA graphs: the driver has no " + missing, null);
        }
        try (CudaStream stream = createStream()) {
            calls.streamBeginCapture(stream.handle(), GraphCalls.CAPTURE_MODE_THREAD_LOCAL);
            try {
                work.accept(stream);
            } catch (RuntimeException e) {
                try {
                    MemorySegment partial = calls.streamEndCapture(stream.handle());
                    if (!partial.equals(MemorySegment.NULL)) {
                        calls.graphDestroy(partial);
                    }
                } catch (RuntimeException ended) {
                    e.addSuppressed(ended);
                }
                throw e;
            }
            MemorySegment graph = calls.streamEndCapture(stream.handle());
            try {
                return register(new CudaGraph(this, calls.graphInstantiate(graph)));
            } finally {
                calls.graphDestroy(graph);
            }
        }
    }

    public CudaEvent createEvent() {
        checkOpen();
        makeCurrent();
        return register(new CudaEvent(this, driver.eventCreate(0)));
    }

    /** How many buffers, modules, streams and events of this context are still open. */
    public synchronized int openResources() {
        return open.size();
    }

    private synchronized <R extends CudaResource> R register(R r) {
        open.add(r);
        return r;
    }

    synchronized void forget(CudaResource r) {
        open.remove(r);
    }

    private synchronized void checkOpen() {
        if (closed) {
            throw new IllegalStateException("CUDA context is closed");
        }
    }

    /** Frees everything still open (newest first), then releases the primary context. */
    @Override
    public void close() {
        List<CudaResource> left;
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            left = new ArrayList<>(open);
        }
        RuntimeException first = null;
        for (int i = left.size() - 1; i >= 0; i--) {
            try {
                left.get(i).close();
            } catch (RuntimeException e) {
                if (first == null) {
                    first = e;
                }
            }
        }
        try {
            makeCurrent();
            driver.contextSynchronize();
        } catch (RuntimeException e) {
            if (first == null) {
                first = e;
            }
        } finally {
            CURRENT.remove();
            driver.primaryContextRelease(device);
        }
        if (first != null) {
            throw first;
        }
    }
}

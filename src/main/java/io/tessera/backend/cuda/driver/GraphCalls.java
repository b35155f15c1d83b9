package io.tessera.backend.cuda.driver;

import io.tessera.backend.cuda.CudaException;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.util.ArrayList;
import java.util.List;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * The driver's CUDA graph calls (stream capture, instantiation, launch) and the asynchronous memsets a capture
 * records, each bound where the driver has it: a driver without them still runs every query, with graphs unused
 * ({@link #missingGraphCalls}). Errors as {@link CudaDriver}'s: a CUresult other than CUDA_SUCCESS throws.
 */
public final class GraphCalls {
    /** CUstreamCaptureMode CU_STREAM_CAPTURE_MODE_THREAD_LOCAL: only this thread's unsafe calls break a capture. */
    public static final int CAPTURE_MODE_THREAD_LOCAL = 1;

    private final CudaDriver driver;
    private final MethodHandle cuMemsetD8Async;
    private final MethodHandle cuMemsetD32Async;
    private final MethodHandle cuStreamBeginCapture;
    private final MethodHandle cuStreamEndCapture;
    private final MethodHandle cuGraphInstantiateWithFlags;
    private final MethodHandle cuGraphLaunch;
    private final MethodHandle cuGraphExecDestroy;
    private final MethodHandle cuGraphDestroy;

    GraphCalls(CudaDriver.Binder b, CudaDriver driver) {
        this.driver = driver;
        // the names cuda.h of CUDA 13 maps these calls to without per-thread default streams (no _ptsz/_ptds)
        cuMemsetD8Async = b.bindOptional("cuMemsetD8Async",
                FunctionDescriptor.of(JAVA_INT, JAVA_LONG, JAVA_BYTE, JAVA_LONG, ADDRESS));
        cuMemsetD32Async = b.bindOptional("cuMemsetD32Async",
                FunctionDescriptor.of(JAVA_INT, JAVA_LONG, JAVA_INT, JAVA_LONG, ADDRESS));
        // CUresult cuStreamBeginCapture_v2(CUstream, CUstreamCaptureMode); cuStreamEndCapture(CUstream, CUgraph*)
        cuStreamBeginCapture = b.bindOptional("cuStreamBeginCapture_v2", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT));
        cuStreamEndCapture = b.bindOptional("cuStreamEndCapture", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS));
        // cuGraphInstantiateWithFlags(CUgraphExec*, CUgraph, unsigned long long flags)
        cuGraphInstantiateWithFlags = b.bindOptional("cuGraphInstantiateWithFlags",
                FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, JAVA_LONG));
        cuGraphLaunch = b.bindOptional("cuGraphLaunch", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS));
        cuGraphExecDestroy = b.bindOptional("cuGraphExecDestroy", FunctionDescriptor.of(JAVA_INT, ADDRESS));
        cuGraphDestroy = b.bindOptional("cuGraphDestroy", FunctionDescriptor.of(JAVA_INT, ADDRESS));
    }

    /** The graph calls this driver lacks, or null when it has them all. */
    public String missingGraphCalls() {
        List<String> missing = new ArrayList<>();
        if (cuMemsetD8Async == null) {
            missing.add("cuMemsetD8Async");
        }
        if (cuMemsetD32Async == null) {
            missing.add("cuMemsetD32Async");
        }
        if (cuStreamBeginCapture == null) {
            missing.add("cuStreamBeginCapture_v2");
        }
        if (cuStreamEndCapture == null) {
            missing.add("cuStreamEndCapture");
        }
        if (cuGraphInstantiateWithFlags == null) {
            missing.add("cuGraphInstantiateWithFlags");
        }
        if (cuGraphLaunch == null) {
            missing.add("cuGraphLaunch");
        }
        if (cuGraphExecDestroy == null) {
            missing.add("cuGraphExecDestroy");
        }
        if (cuGraphDestroy == null) {
            missing.add("cuGraphDestroy");
        }
        return missing.isEmpty() ? null : String.join(", ", missing);
    }

    private static MethodHandle present(MethodHandle h, String name) {
        if (h == null) {
            throw new CudaException("this CUDA driver has no " + name, null);
        }
        return h;
    }

    /** cuMemsetD8Async: sets {@code count} bytes, queued on a stream. */
    public void memsetD8Async(long dst, byte value, long count, MemorySegment stream) {
        try {
            driver.check("cuMemsetD8Async", (int) present(cuMemsetD8Async, "cuMemsetD8Async").invokeExact(dst, value, count,
                    stream));
        } catch (Throwable t) {
            throw rethrow("cuMemsetD8Async", t);
        }
    }

    /** cuMemsetD32Async: sets {@code count} 32-bit words, queued on a stream. */
    public void memsetD32Async(long dst, int value, long count, MemorySegment stream) {
        try {
            driver.check("cuMemsetD32Async", (int) present(cuMemsetD32Async, "cuMemsetD32Async").invokeExact(dst, value, count,
                    stream));
        } catch (Throwable t) {
            throw rethrow("cuMemsetD32Async", t);
        }
    }

    /** cuStreamBeginCapture_v2: the stream's work from now on is recorded into a graph, not run. */
    public void streamBeginCapture(MemorySegment stream, int mode) {
        try {
            driver.check("cuStreamBeginCapture_v2", (int) present(cuStreamBeginCapture, "cuStreamBeginCapture_v2")
                    .invokeExact(stream, mode));
        } catch (Throwable t) {
            throw rethrow("cuStreamBeginCapture_v2", t);
        }
    }

    /** cuStreamEndCapture: the graph recorded since the capture began (destroy it with {@link #graphDestroy}). */
    public MemorySegment streamEndCapture(MemorySegment stream) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment v = a.allocate(ADDRESS);
            driver.check("cuStreamEndCapture", (int) present(cuStreamEndCapture, "cuStreamEndCapture").invokeExact(stream, v));
            return v.get(ADDRESS, 0);
        } catch (Throwable t) {
            throw rethrow("cuStreamEndCapture", t);
        }
    }

    /** cuGraphInstantiateWithFlags (flags 0): a graph's executable form. */
    public MemorySegment graphInstantiate(MemorySegment graph) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment v = a.allocate(ADDRESS);
            driver.check("cuGraphInstantiateWithFlags", (int) present(cuGraphInstantiateWithFlags,
                    "cuGraphInstantiateWithFlags").invokeExact(v, graph, 0L));
            return v.get(ADDRESS, 0);
        } catch (Throwable t) {
            throw rethrow("cuGraphInstantiateWithFlags", t);
        }
    }

    /** cuGraphLaunch: queues an executable graph on a stream (NULL: the default stream). */
    public void graphLaunch(MemorySegment exec, MemorySegment stream) {
        try {
            driver.check("cuGraphLaunch", (int) present(cuGraphLaunch, "cuGraphLaunch").invokeExact(exec, stream));
        } catch (Throwable t) {
            throw rethrow("cuGraphLaunch", t);
        }
    }

    /** cuGraphExecDestroy. */
    public void graphExecDestroy(MemorySegment exec) {
        try {
            driver.check("cuGraphExecDestroy", (int) present(cuGraphExecDestroy, "cuGraphExecDestroy").invokeExact(exec));
        } catch (Throwable t) {
            throw rethrow("cuGraphExecDestroy", t);
        }
    }

    /** cuGraphDestroy. */
    public void graphDestroy(MemorySegment graph) {
        try {
            driver.check("cuGraphDestroy", (int) present(cuGraphDestroy, "cuGraphDestroy").invokeExact(graph));
        } catch (Throwable t) {
            throw rethrow("cuGraphDestroy", t);
        }
    }

    private static RuntimeException rethrow(String call, Throwable t) {
        if (t instanceof RuntimeException r) {
            return r;
        }
        if (t instanceof Error e) {
            throw e;
        }
        return new CudaException(call + " could not be called: " + t, t);
    }
}

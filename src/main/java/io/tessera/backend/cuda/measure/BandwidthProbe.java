package io.tessera.backend.cuda.measure;

import io.tessera.backend.cuda.compile.CudaSources;
import io.tessera.backend.cuda.compile.KernelCompiler;
import io.tessera.backend.cuda.driver.CudaContext;
import io.tessera.backend.cuda.driver.CudaEvent;
import io.tessera.backend.cuda.driver.CudaKernel;
import io.tessera.backend.cuda.driver.CudaModule;
import io.tessera.backend.cuda.driver.DeviceBuffer;
import io.tessera.backend.cuda.driver.KernelArgs;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * Measures how fast a processor reads memory, the number behind the bandwidth model of every
 * benchmark (Crystal chapter 3). GPU: a vectorized read-and-sum kernel over 1 to 8 GiB of device
 * memory, timed with events, best of several runs. CPU: every core summing its part of a large
 * off-heap array, best of several runs.
 */
public final class BandwidthProbe {
    /** One measurement: GB/s (10^9 bytes per second) over {@code bytes} read in {@code millis}. */
    public record Result(double gbPerSecond, long bytes, double millis, String method) {
    }

    private static final long MIB = 1L << 20;
    private static final long GIB = 1L << 30;

    private BandwidthProbe() {
    }

    /** The GPU buffer size: half the free memory, between 1 and 4 GiB (less on a GPU with less free), in 16 MiB steps. */
    public static long defaultGpuBytes(long freeBytes) {
        long b = Math.min(4 * GIB, freeBytes / 2);
        if (b < GIB) {
            b = Math.min(GIB, freeBytes / 2);
        }
        return Math.max(16 * MIB, b / (16 * MIB) * (16 * MIB));
    }

    /** Measures a GPU with the default size. */
    public static Result measureGpu(CudaContext ctx, KernelCompiler compiler) {
        return measureGpu(ctx, compiler, defaultGpuBytes(ctx.freeMemory()), 5);
    }

    /**
     * Reads {@code bytes} (a multiple of 16) of device memory {@code runs} times with
     * tessera_read_bandwidth and checks every run's sum (the buffer holds ones, so the sum is the
     * number of 32-bit words).
     */
    public static Result measureGpu(CudaContext ctx, KernelCompiler compiler, long bytes, int runs) {
        if (bytes % 16 != 0 || bytes <= 0) {
            throw new IllegalArgumentException("bytes must be a positive multiple of 16: " + bytes);
        }
        KernelCompiler.Compiled cubin = compiler.compile(CudaSources.samples(), CudaSources.SAMPLES,
                CudaSources.headers(), ctx);
        try (CudaModule module = ctx.loadModule(cubin.cubin());
             DeviceBuffer data = ctx.allocate(bytes);
             DeviceBuffer sink = ctx.allocate(8);
             CudaEvent start = ctx.createEvent();
             CudaEvent end = ctx.createEvent()) {
            CudaKernel k = module.kernel("tessera_read_bandwidth");
            int threads = 256;
            int perSm = Math.max(1, k.maxActiveBlocksPerSM(threads, 0));
            int grid = ctx.info().cores() * perSm;
            long vectors = bytes / 16;
            data.fill32(1, bytes / 4);
            double best = Double.MAX_VALUE;
            for (int run = 0; run <= runs; run++) {  // run 0 warms up
                sink.zero();
                start.record();
                k.launch(grid, threads, KernelArgs.of().ptr(data).i64(vectors).ptr(sink));
                end.record();
                float ms = end.elapsedMillisSince(start);
                long sum = sink.readLong(0);
                if (sum != bytes / 4) {
                    throw new IllegalStateException("bandwidth kernel summed " + sum + ", expected " + bytes / 4);
                }
                if (run > 0) {
                    best = Math.min(best, ms);
                }
            }
            return new Result(bytes / (best * 1e6), bytes, best,
                    "read-sum kernel, " + (bytes / MIB) + " MiB, grid " + grid + "x" + threads + ", best of " + runs);
        }
    }

    /** Measures the CPU with 1 GiB (less if the JVM may not have that much off-heap) and every core. */
    public static Result measureCpu() {
        return measureCpu(GIB, Runtime.getRuntime().availableProcessors(), 5);
    }

    /** Sums {@code bytes} of off-heap longs with {@code threads} threads, {@code runs} times; the best run counts. */
    public static Result measureCpu(long bytes, int threads, int runs) {
        long words = bytes / 8;
        bytes = words * 8;
        try (Arena arena = Arena.ofShared()) {
            MemorySegment data = arena.allocate(bytes, 64);
            parallel(threads, words, (from, to) -> {
                for (long i = from; i < to; i++) {
                    data.setAtIndex(JAVA_LONG, i, i);
                }
                return 0;
            });
            long expected = words * (words - 1) / 2;  // wraps the same way as the sums
            double best = Double.MAX_VALUE;
            for (int run = 0; run <= runs; run++) {
                long t0 = System.nanoTime();
                long sum = parallel(threads, words, (from, to) -> {
                    long s0 = 0, s1 = 0, s2 = 0, s3 = 0;
                    long i = from;
                    for (; i + 3 < to; i += 4) {
                        s0 += data.getAtIndex(JAVA_LONG, i);
                        s1 += data.getAtIndex(JAVA_LONG, i + 1);
                        s2 += data.getAtIndex(JAVA_LONG, i + 2);
                        s3 += data.getAtIndex(JAVA_LONG, i + 3);
                    }
                    for (; i < to; i++) {
                        s0 += data.getAtIndex(JAVA_LONG, i);
                    }
                    return s0 + s1 + s2 + s3;
                });
                double ms = (System.nanoTime() - t0) / 1e6;
                if (sum != expected) {
                    throw new IllegalStateException("CPU bandwidth sum " + sum + ", expected " + expected);
                }
                if (run > 0 || runs == 0) {
                    best = Math.min(best, ms);
                }
            }
            return new Result(bytes / (best * 1e6), bytes, best,
                    "sum of longs, " + (bytes / MIB) + " MiB, " + threads + " threads, best of " + runs);
        }
    }

    private interface Range {
        long run(long from, long to);
    }

    /** Splits [0, n) into one contiguous part per thread and adds up what the parts return. */
    private static long parallel(int threads, long n, Range body) {
        AtomicLong total = new AtomicLong();
        List<Thread> ts = new ArrayList<>();
        long per = (n + threads - 1) / threads;
        for (int t = 0; t < threads; t++) {
            long from = Math.min(n, t * per);
            long to = Math.min(n, from + per);
            ts.add(Thread.ofPlatform().start(() -> total.addAndGet(body.run(from, to))));
        }
        for (Thread t : ts) {
            try {
                t.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted", e);
            }
        }
        return total.get();
    }
}

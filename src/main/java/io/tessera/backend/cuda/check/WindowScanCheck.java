package io.tessera.backend.cuda.check;

import io.tessera.backend.cuda.driver.CudaContext;
import io.tessera.backend.cuda.driver.CudaModule;
import io.tessera.backend.cuda.driver.DeviceBuffer;
import io.tessera.backend.cuda.ops.WindowScan;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiConsumer;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * The window functions' scans ({@link WindowScan}) against the same scans on the JVM: segmented sums, maxima and
 * minima over one, a few and many tiles (three levels of tile totals past a million words), with segments that start
 * on every word, now and then, or never; each word's segment start by a max-scan of the start positions and each
 * segment's end; and a sum that leaves the 64-bit range noted in the overflow word.
 */
final class WindowScanCheck {

    private WindowScanCheck() {
    }

    /** Runs every case; {@code check} receives whether it matched and what it was. */
    static void run(CudaContext ctx, CudaModule module, BiConsumer<Boolean, String> check) {
        WindowScan ws = new WindowScan(module::kernel);
        int[] sizes = {1, 5, 1023, 1024, 1025, 70_000, 1_100_007};
        int[] every = {1, 3, 1000, 0};
        for (int n : sizes) {
            for (int e : every) {
                for (WindowScan.Op op : WindowScan.Op.values()) {
                    check.accept(scanMatches(ctx, ws, n, e, op), "window " + op + " scan of " + n + " words on the GPU, "
                            + (e == 0 ? "one segment" : "a segment start every " + e + " words or so")
                            + ", against the JVM's");
                }
                check.accept(runsMatch(ctx, ws, n, e), "window partition starts and ends of " + n + " rows on the GPU"
                        + (e == 0 ? ", one partition" : ", a partition every " + e + " rows or so") + ", against the JVM's");
            }
        }
        check.accept(overflowNoted(ctx, ws), "a window sum past the 64-bit range noted on the GPU");
    }

    private static byte[] starts(int n, int every) {
        byte[] f = new byte[n];
        for (int i = 0; i < n; i++) {
            long h = GpuSmokeCheck.mix(i * 7919L + n) & Long.MAX_VALUE;
            f[i] = (byte) (i == 0 || every > 0 && h % every == 0 ? 1 : 0);
        }
        return f;
    }

    private static boolean scanMatches(CudaContext ctx, WindowScan ws, int n, int every, WindowScan.Op op) {
        byte[] f = starts(n, every);
        long[] v = new long[n];
        for (int i = 0; i < n; i++) {
            v[i] = (GpuSmokeCheck.mix(i * 104729L + n) % 2_000_001) - 1_000_000;
        }
        long[] expect = new long[n];
        long acc = op.identity;
        for (int i = 0; i < n; i++) {
            acc = f[i] != 0 ? v[i] : switch (op) {
                case SUM -> acc + v[i];
                case MAX -> Math.max(acc, v[i]);
                case MIN -> Math.min(acc, v[i]);
            };
            expect[i] = acc;
        }
        List<DeviceBuffer> scratch = new ArrayList<>();
        try (Arena arena = Arena.ofConfined();
             DeviceBuffer values = ctx.allocate(n * 8L);
             DeviceBuffer flags = ctx.allocate(Math.max(8, n));
             DeviceBuffer overflow = ctx.allocate(8)) {
            values.copyFromHost(arena.allocateFrom(JAVA_LONG, v), 0);
            flags.copyFromHost(arena.allocateFrom(JAVA_BYTE, f), 0);
            overflow.copyFromHost(arena.allocateFrom(JAVA_LONG, 0L), 0);
            ws.scan(values.address(), every == 0 ? 0 : flags.address(), n, op, overflow.address(), bytes -> {
                DeviceBuffer b = ctx.allocate(Math.max(8, bytes));
                scratch.add(b);
                return b;
            });
            long[] got = read(arena, values, n);
            MemorySegment o = arena.allocate(8, 8);
            overflow.copyToHost(o, 0);
            return o.get(JAVA_INT, 0) == 0 && java.util.Arrays.equals(expect, got);
        } finally {
            scratch.forEach(DeviceBuffer::close);
        }
    }

    private static boolean runsMatch(CudaContext ctx, WindowScan ws, int n, int every) {
        byte[] f = starts(n, every);
        long[] start = new long[n];
        long[] end = new long[n];
        for (int i = 0, s = 0; i < n; i++) {
            if (f[i] != 0) {
                s = i;
            }
            start[i] = s;
        }
        for (int i = n - 1, e = n; i >= 0; i--) {
            end[i] = e;
            if (f[i] != 0) {
                e = i;
            }
        }
        List<DeviceBuffer> scratch = new ArrayList<>();
        try (Arena arena = Arena.ofConfined();
             DeviceBuffer flags = ctx.allocate(Math.max(8, n));
             DeviceBuffer starts = ctx.allocate(n * 8L);
             DeviceBuffer ends = ctx.allocate(n * 8L);
             DeviceBuffer overflow = ctx.allocate(8)) {
            flags.copyFromHost(arena.allocateFrom(JAVA_BYTE, f), 0);
            overflow.copyFromHost(arena.allocateFrom(JAVA_LONG, 0L), 0);
            ws.positions(flags.address(), n, starts.address());
            ws.scan(starts.address(), 0, n, WindowScan.Op.MAX, overflow.address(), bytes -> {
                DeviceBuffer b = ctx.allocate(Math.max(8, bytes));
                scratch.add(b);
                return b;
            });
            ws.ends(starts.address(), n, ends.address());
            long[] gotStarts = read(arena, starts, n);
            long[] gotEnds = read(arena, ends, n);
            for (int i = 0; i < n; i++) {
                if (gotStarts[i] != start[i] || gotEnds[(int) gotStarts[i]] != end[i]) {
                    return false;
                }
            }
            return true;
        } finally {
            scratch.forEach(DeviceBuffer::close);
        }
    }

    private static boolean overflowNoted(CudaContext ctx, WindowScan ws) {
        int n = 3000;
        long[] v = new long[n];
        java.util.Arrays.fill(v, Long.MAX_VALUE / 1000);
        List<DeviceBuffer> scratch = new ArrayList<>();
        try (Arena arena = Arena.ofConfined();
             DeviceBuffer values = ctx.allocate(n * 8L);
             DeviceBuffer overflow = ctx.allocate(8)) {
            values.copyFromHost(arena.allocateFrom(JAVA_LONG, v), 0);
            overflow.copyFromHost(arena.allocateFrom(JAVA_LONG, 0L), 0);
            ws.scan(values.address(), 0, n, WindowScan.Op.SUM, overflow.address(), bytes -> {
                DeviceBuffer b = ctx.allocate(Math.max(8, bytes));
                scratch.add(b);
                return b;
            });
            MemorySegment o = arena.allocate(8, 8);
            overflow.copyToHost(o, 0);
            return o.get(JAVA_INT, 0) != 0;
        } finally {
            scratch.forEach(DeviceBuffer::close);
        }
    }

    private static long[] read(Arena arena, DeviceBuffer b, int n) {
        MemorySegment host = arena.allocate(n * 8L, 8);
        b.copyToHost(host, 0);
        return host.toArray(JAVA_LONG);
    }
}

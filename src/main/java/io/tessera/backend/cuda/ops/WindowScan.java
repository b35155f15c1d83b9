package io.tessera.backend.cuda.ops;

import io.tessera.backend.cuda.driver.CudaKernel;
import io.tessera.backend.cuda.driver.DeviceBuffer;
import io.tessera.backend.cuda.driver.KernelArgs;

import java.util.function.Function;
import java.util.function.LongFunction;

/**
 * Launches the window kernels of tessera_window.cuh on the default stream, over rows sorted by their PARTITION BY
 * then ORDER BY keys: the flags where a run of equal keys starts ({@link #differs}), each row's run's first position
 * (a max-scan of {@link #positions}) and each run's end ({@link #ends}), segmented inclusive scans ({@link #scan}),
 * and a function's value per row ({@link #result}). Every launch is asynchronous, ordered before later copies;
 * addresses are device addresses, 0 for none.
 */
public final class WindowScan {
    private static final int THREADS = 256;
    /** The positions one block of a scan takes (tessera_window.cuh's TESSERA_WINDOW_TILE). */
    static final int TILE = 1024;
    private static final int MAX_BLOCKS = 4096;

    /** A scan's operation: a sum (whose leaving the 64-bit range sets the overflow word), a maximum, a minimum. */
    public enum Op {
        SUM(0, 0), MAX(1, Long.MIN_VALUE), MIN(2, Long.MAX_VALUE);

        final int code;
        /** The value that changes nothing: a NULL argument's. */
        public final long identity;

        Op(int code, long identity) {
            this.code = code;
            this.identity = identity;
        }
    }

    /** What {@link #load} writes per row: the value (a fill for NULL), 1 where it is not NULL, 1 where a flag is set. */
    public enum Load {
        VALUE, PRESENT, FLAG
    }

    /** The value {@link #result} writes, in tessera_window.cuh's order. */
    public enum Result {
        ROW_NUMBER, RANK, SCANNED, COUNT_STAR, COUNT, SUM_OR_NULL, SUM_OR_ZERO, AVG, EXTREME
    }

    /** Where a frame ends: its partition's last row, its peer group's last row, the row itself. */
    public enum Frame {
        PARTITION, PEERS, ROW
    }

    private final CudaKernel differs;
    private final CudaKernel load;
    private final CudaKernel positions;
    private final CudaKernel ends;
    private final CudaKernel scanTile;
    private final CudaKernel scanCarry;
    private final CudaKernel result;

    /** {@code kernels}: a kernel of the module compiled from the window source, by name. */
    public WindowScan(Function<String, CudaKernel> kernels) {
        differs = kernels.apply("tessera_window_differs");
        load = kernels.apply("tessera_window_load");
        positions = kernels.apply("tessera_window_positions");
        ends = kernels.apply("tessera_window_ends");
        scanTile = kernels.apply("tessera_window_scan_tile");
        scanCarry = kernels.apply("tessera_window_scan_carry");
        result = kernels.apply("tessera_window_result");
    }

    private static int grid(long n) {
        return (int) Math.max(1, Math.min(MAX_BLOCKS, (n + THREADS - 1) / THREADS));
    }

    /**
     * Sets {@code flags[i]} (bytes) where row i's value of the column ({@code bytes} wide, a double's bits where
     * {@code dbl}; NULL flags at {@code nulls}) differs from row i - 1's, and {@code flags[0]}; {@code bytes} 0: only
     * the first.
     */
    public void differs(long col, int bytes, boolean dbl, long nulls, long n, long flags) {
        if (n > 0) {
            differs.launch(grid(n), THREADS, KernelArgs.of().ptr(col).i32(bytes).i32(dbl ? 1 : 0).ptr(nulls).i64(n)
                    .ptr(flags));
        }
    }

    /** Writes one 64-bit word per row into {@code out}, as {@code mode} says ({@code fill}: a NULL value's). */
    public void load(long col, int bytes, long nulls, long n, Load mode, long fill, long out) {
        if (n > 0) {
            load.launch(grid(n), THREADS, KernelArgs.of().ptr(col).i32(bytes).ptr(nulls).i64(n).i32(mode.ordinal())
                    .i64(fill).ptr(out));
        }
    }

    /** {@code out[i]} = i where the byte {@code flags[i]} is set, else 0. */
    public void positions(long flags, long n, long out) {
        if (n > 0) {
            positions.launch(grid(n), THREADS, KernelArgs.of().ptr(flags).i64(n).ptr(out));
        }
    }

    /** {@code ends[s]} = the position after the last row whose run starts at s ({@code starts}: each row's). */
    public void ends(long starts, long n, long ends) {
        if (n > 0) {
            this.ends.launch(grid(n), THREADS, KernelArgs.of().ptr(starts).i64(n).ptr(ends));
        }
    }

    /**
     * Scans the {@code n} 64-bit words at {@code values} in place, inclusive, in segments that start where the byte
     * at {@code starts} is set (0: one segment); a sum leaving the 64-bit range sets the int at {@code overflow}. The
     * tiles' totals are scanned the same way, in scratch buffers {@code take} hands out.
     */
    public void scan(long values, long starts, long n, Op op, long overflow, LongFunction<DeviceBuffer> take) {
        if (n <= 0) {
            return;
        }
        long tiles = (n + TILE - 1) / TILE;
        if (tiles > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("scanning " + n + " words");
        }
        DeviceBuffer tileValues = take.apply(tiles * 8);
        DeviceBuffer tileStarts = take.apply(tiles);
        scanTile.launch((int) tiles, THREADS, KernelArgs.of().ptr(values).ptr(starts).i64(n).i32(op.code)
                .ptr(tileValues).ptr(tileStarts).ptr(overflow));
        if (tiles > 1) {
            scan(tileValues.address(), starts == 0 ? 0 : tileStarts.address(), tiles, op, overflow, take);
            scanCarry.launch((int) tiles - 1, THREADS, KernelArgs.of().ptr(values).ptr(starts).i64(n).i32(op.code)
                    .ptr(tileValues).ptr(overflow));
        }
    }

    /**
     * Writes one function's value per row into {@code out} ({@code bytes} 8 or 4 per row) and, where
     * {@code outNulls} is not 0, its NULL flags: from each row's partition start and the partition ends by start
     * ({@code partStart}, {@code partEnd}), its peer group's likewise, the scans of the argument ({@code scanned})
     * and of its non-NULL flags ({@code present}). A SUM of magnitude {@code limit} or more (-1: none) sets the int
     * at {@code error}; AVG divides the mean by {@code scale}.
     */
    public void result(Result fn, Frame frame, long n, long partStart, long partEnd, long peerStart, long peerEnd,
                       long scanned, long present, long limit, double scale, long out, int bytes, long outNulls,
                       long error) {
        if (n > 0) {
            result.launch(grid(n), THREADS, KernelArgs.of().i32(fn.ordinal()).i32(frame.ordinal()).i64(n)
                    .ptr(partStart).ptr(partEnd).ptr(peerStart).ptr(peerEnd).ptr(scanned).ptr(present).i64(limit)
                    .f64(scale).ptr(out).i32(bytes).ptr(outNulls).ptr(error));
        }
    }
}

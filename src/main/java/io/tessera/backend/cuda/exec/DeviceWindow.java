package io.tessera.backend.cuda.exec;

import io.tessera.backend.ValueKind;
import io.tessera.backend.cuda.driver.DeviceBuffer;
import io.tessera.backend.cuda.gen.CType;
import io.tessera.backend.cuda.gen.GpuWindow;
import io.tessera.backend.cuda.ops.WindowScan;
import io.tessera.plan.Sink;
import io.tessera.plan.SortKey;
import io.tessera.variant.Genome;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A WINDOW over the rows its kernel wrote ({@link DeviceRows}), on the GPU where they lie: the rows sorted by the
 * PARTITION BY columns then the ORDER BY keys ({@link DeviceRowsSort}), where each partition and each peer group
 * starts (flags, then a max-scan of their positions), and each function's values from segmented scans of its
 * argument ({@link WindowScan}, as {@link GpuWindow} plans them), written as new columns after the rows'. The rows
 * stay in the window's order, which SQL leaves open as the JVM's order of collection. A sum that leaves the 64-bit
 * range, or a DECIMAL sum its precision, is noted: the query then runs on the JVM, which raises its error.
 */
final class DeviceWindow {

    private DeviceWindow() {
    }

    /** Whether the rows can be windowed here: without keys, or as many as the sort takes. */
    static boolean windows(Sink.Window w, DeviceRows rows) {
        List<SortKey> keys = GpuWindow.of(w).sortKeys();
        return keys.isEmpty() || DeviceRowsSort.sorts(keys, rows);
    }

    /**
     * The rows sorted, the functions' columns after theirs; null where a sum left its range.
     */
    static DeviceRows evaluate(CudaQueryRun run, DeviceRows rows, Sink.Window w, Genome genome) {
        run.makeCurrent();
        GpuWindow plan = GpuWindow.of(w);
        List<SortKey> keys = plan.sortKeys();
        DeviceRows sorted = keys.isEmpty() ? rows : DeviceRowsSort.sorted(run, rows, keys, 0, -1, genome);
        int n = sorted.count();
        long cells = Math.max(1, n);
        WindowScan ws = run.runtime().windowScan();
        DeviceBuffer error = run.take(8);
        run.runtime().fill64(error, 0, 1);
        // where each partition starts, and where each peer group (the partition's rows equal in every ORDER BY key)
        DeviceBuffer partFlags = zeroed(run, cells);
        DeviceBuffer peerFlags = zeroed(run, cells);
        ws.differs(0, 0, false, 0, n, partFlags.address());
        ws.differs(0, 0, false, 0, n, peerFlags.address());
        for (int i = 0; i < keys.size(); i++) {
            int c = keys.get(i).column();
            long nulls = sorted.nulls()[c] == null ? 0 : sorted.nulls()[c].address();
            CType t = sorted.types().get(c);
            int bytes = DeviceRowsSort.bytes(t);
            if (i < plan.partition().size()) {
                ws.differs(sorted.columns()[c].address(), bytes, t == CType.DOUBLE, nulls, n, partFlags.address());
            }
            ws.differs(sorted.columns()[c].address(), bytes, t == CType.DOUBLE, nulls, n, peerFlags.address());
        }
        Runs parts = runs(run, ws, partFlags, n, error);
        Runs peers = runs(run, ws, peerFlags, n, error);
        int width = sorted.columns().length;
        int fns = plan.steps().size();
        List<CType> types = new ArrayList<>(sorted.types());
        ValueKind[] kinds = Arrays.copyOf(sorted.kinds(), width + fns);
        String[] dicts = Arrays.copyOf(sorted.dictionaries(), width + fns);
        DeviceBuffer[] columns = Arrays.copyOf(sorted.columns(), width + fns);
        DeviceBuffer[] nulls = Arrays.copyOf(sorted.nulls(), width + fns);
        for (int f = 0; f < fns; f++) {
            GpuWindow.Step s = plan.steps().get(f);
            CType t = switch (s.kind()) {
                case INT -> CType.INT;
                case LONG -> CType.LONG;
                case DOUBLE -> CType.DOUBLE;
                default -> throw new IllegalStateException("a window result held as " + s.kind());
            };
            types.add(t);
            kinds[width + f] = s.kind();
            columns[width + f] = run.take(cells * t.bytes);
            boolean nullable = s.result() == WindowScan.Result.SUM_OR_NULL || s.result() == WindowScan.Result.AVG
                    || s.result() == WindowScan.Result.EXTREME;
            nulls[width + f] = nullable ? run.take(cells) : null;
            Runs own = s.peers() ? peers : parts;
            long scanned = 0;
            long present = 0;
            if (s.result() == WindowScan.Result.SCANNED) {
                // DENSE_RANK: the peer groups started so far in the partition
                DeviceBuffer dense = run.take(cells * 8);
                ws.load(own.flags.address(), 1, 0, n, WindowScan.Load.FLAG, 0, dense.address());
                ws.scan(dense.address(), partFlags.address(), n, WindowScan.Op.SUM, error.address(), run::take);
                scanned = dense.address();
            } else if (s.arg() >= 0) {
                int a = s.arg();
                long argNulls = sorted.nulls()[a] == null ? 0 : sorted.nulls()[a].address();
                DeviceBuffer counts = run.take(cells * 8);
                ws.load(0, 0, argNulls, n, WindowScan.Load.PRESENT, 0, counts.address());
                ws.scan(counts.address(), partFlags.address(), n, WindowScan.Op.SUM, error.address(), run::take);
                present = counts.address();
                if (s.op() != null) {
                    DeviceBuffer values = run.take(cells * 8);
                    ws.load(sorted.columns()[a].address(), DeviceRowsSort.bytes(sorted.types().get(a)), argNulls, n,
                            WindowScan.Load.VALUE, s.op().identity, values.address());
                    ws.scan(values.address(), partFlags.address(), n, s.op(), error.address(), run::take);
                    scanned = values.address();
                }
            }
            ws.result(s.result(), s.frame(), n, parts.starts.address(), parts.ends.address(), own.starts.address(),
                    own.ends.address(), scanned, present, s.limit(), s.scale(), columns[width + f].address(), t.bytes,
                    nulls[width + f] == null ? 0 : nulls[width + f].address(), error.address());
        }
        run.awaitDevice();
        if (error.readLong(0) != 0) {
            return null;
        }
        return new DeviceRows(run, List.copyOf(types), kinds, dicts, columns, nulls, n);
    }

    /** Runs of rows (partitions or peer groups): where each starts, each row's run's start, each run's end by start. */
    private record Runs(DeviceBuffer flags, DeviceBuffer starts, DeviceBuffer ends) {
    }

    private static Runs runs(CudaQueryRun run, WindowScan ws, DeviceBuffer flags, int n, DeviceBuffer error) {
        long cells = Math.max(1, n);
        DeviceBuffer starts = run.take(cells * 8);
        ws.positions(flags.address(), n, starts.address());
        ws.scan(starts.address(), 0, n, WindowScan.Op.MAX, error.address(), run::take);
        DeviceBuffer ends = run.take(cells * 8);
        ws.ends(starts.address(), n, ends.address());
        return new Runs(flags, starts, ends);
    }

    /** A buffer of {@code bytes} bytes, all 0. */
    private static DeviceBuffer zeroed(CudaQueryRun run, long bytes) {
        long words = (bytes + 7) / 8;
        DeviceBuffer b = run.take(words * 8);
        run.runtime().fill64(b, 0, words);
        return b;
    }
}

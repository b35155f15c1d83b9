package io.tessera.backend;

import io.tessera.plan.Pipeline;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * What a run measured of each pipeline, beside what the optimizer estimated: the rows its source yielded, the rows
 * after each of its operations and the rows its sink made (the slots of {@link Pipeline#estimatedRows()}, in that
 * order), and the time it took on its device. A slot no backend counted stays {@link #UNKNOWN}: a GPU kernel's
 * operations are not counted, only what its sink received or made where that costs nothing more.
 */
public final class PipelineActuals {

    /** A count nobody made. */
    public static final long UNKNOWN = -1;

    private final Map<Integer, long[]> rows = new HashMap<>();
    private final Map<Integer, Long> nanos = new HashMap<>();
    private final Map<Integer, String> devices = new HashMap<>();

    /** Notes the rows of slot {@code slot} of pipeline {@code p} (0: its source, i + 1: after operation i, last: its sink's). */
    public synchronized void rows(Pipeline p, int slot, long count) {
        rows.computeIfAbsent(p.id(), id -> unknown(p))[slot] = count;
    }

    /**
     * Adds the rows after operations {@code counted} of pipeline {@code p} that workers counted: {@code
     * perWorker[t][op]} is worker t's count of operation {@code op} (a pipeline run in several ranges adds up).
     */
    public synchronized void addRowsAfterOperations(Pipeline p, int[] counted, long[][] perWorker) {
        long[] slots = rows.computeIfAbsent(p.id(), id -> unknown(p));
        for (int op : counted) {
            long sum = slots[op + 1] == UNKNOWN ? 0 : slots[op + 1];
            for (long[] worker : perWorker) {
                sum += worker[op];
            }
            slots[op + 1] = sum;
        }
    }

    /** Notes the time pipeline {@code id} took and the device it ran on. */
    public synchronized void time(int id, String device, long pipelineNanos) {
        nanos.put(id, pipelineNanos);
        devices.put(id, device);
    }

    /** The counted rows of pipeline {@code p}'s slots, {@link #UNKNOWN} where none was counted. */
    public synchronized long[] rows(Pipeline p) {
        long[] r = rows.get(p.id());
        return r == null ? unknown(p) : r.clone();
    }

    /** The nanoseconds pipeline {@code id} took, or -1 when it did not run. */
    public synchronized long nanos(int id) {
        return nanos.getOrDefault(id, -1L);
    }

    /** The device pipeline {@code id} ran on, or null when it did not run. */
    public synchronized String device(int id) {
        return devices.get(id);
    }

    private static long[] unknown(Pipeline p) {
        long[] r = new long[p.operations().size() + 2];
        Arrays.fill(r, UNKNOWN);
        return r;
    }
}

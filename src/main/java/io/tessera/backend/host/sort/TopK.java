package io.tessera.backend.host.sort;

import io.tessera.backend.host.HostWorkers;
import io.tessera.backend.host.RowBuffer;
import io.tessera.backend.host.RowGather;
import io.tessera.plan.SortKey;

import java.util.ArrayList;
import java.util.List;

/**
 * The first k rows of a buffer in the order of sort keys, rows equal in every key in buffer order (so that a LIMIT
 * cuts ties as the full stable sort would): a bounded max-heap of row numbers, the worst kept row on top, then the
 * kept rows sorted. {@link #perWorker} cuts each worker's rows to their top k on that worker first, so the final
 * heap sees at most k rows of each.
 */
public final class TopK {

    private TopK() {
    }

    /** The first {@code k} rows of {@code b} in order (all rows, sorted, where there are at most k). */
    public static int[] order(RowBuffer b, SortKey[] keys, int k) {
        int n = b.size;
        int size = Math.min(k, n);
        if (size <= 0) {
            return new int[0];
        }
        int[] heap = new int[size];
        int filled = 0;
        for (int r = 0; r < n; r++) {
            if (filled < size) {
                heap[filled] = r;
                siftUp(b, keys, heap, filled++);
            } else if (before(b, keys, r, heap[0])) {
                heap[0] = r;
                siftDown(b, keys, heap, size);
            }
        }
        // pop the worst row to the end until the heap is empty: the array ends in ascending order
        for (int end = size - 1; end > 0; end--) {
            int top = heap[0];
            heap[0] = heap[end];
            heap[end] = top;
            siftDown(b, keys, heap, end);
        }
        return heap;
    }

    /**
     * Each buffer cut to its first {@code k} rows (a worker's buffer per task; one where k is a quarter of its rows
     * or more is kept whole), the buffers in the order of the list: concatenated, they hold the first k rows of the
     * concatenation of the inputs, rows equal in every key still in input order.
     */
    public static List<RowBuffer> perWorker(List<RowBuffer> buffers, SortKey[] keys, int k, HostWorkers w) {
        RowBuffer[] out = new RowBuffer[buffers.size()];
        List<Runnable> tasks = new ArrayList<>();
        for (int i = 0; i < out.length; i++) {
            int at = i;
            tasks.add(() -> {
                RowBuffer b = buffers.get(at);
                if (k >= b.size / 4) {
                    // the heap pays where it keeps few of the rows (as in Sorter.order); else all of them go on
                    out[at] = b;
                    return;
                }
                int[] top = order(b, keys, k);
                // the kept rows in buffer order: ties between them stay in the order they came
                java.util.Arrays.sort(top);
                out[at] = RowGather.gather(b, top, 0, top.length, HostWorkers.ONE);
            });
        }
        w.run(tasks);
        return List.of(out);
    }

    /** Whether row x comes before row y: by the keys, then by row number. */
    private static boolean before(RowBuffer b, SortKey[] keys, int x, int y) {
        int c = Sorter.compare(b, keys, x, y);
        return c < 0 || c == 0 && x < y;
    }

    private static void siftUp(RowBuffer b, SortKey[] keys, int[] heap, int i) {
        int r = heap[i];
        while (i > 0) {
            int parent = (i - 1) >>> 1;
            if (!before(b, keys, heap[parent], r)) {
                break;
            }
            heap[i] = heap[parent];
            i = parent;
        }
        heap[i] = r;
    }

    /** Restores the heap (the latest row on top) over {@code heap[0 .. size)} after its top changed. */
    private static void siftDown(RowBuffer b, SortKey[] keys, int[] heap, int size) {
        int r = heap[0];
        int i = 0;
        while (true) {
            int c = 2 * i + 1;
            if (c >= size) {
                break;
            }
            if (c + 1 < size && before(b, keys, heap[c], heap[c + 1])) {
                c++;
            }
            if (!before(b, keys, r, heap[c])) {
                break;
            }
            heap[i] = heap[c];
            i = c;
        }
        heap[i] = r;
    }
}

package io.tessera.backend.cuda.exec;

import io.tessera.backend.cuda.driver.DeviceBuffer;
import io.tessera.backend.cuda.ops.LargeSort;
import io.tessera.backend.cuda.ops.SearchIndex;
import io.tessera.backend.cuda.gen.JoinLayout;
import io.tessera.backend.cuda.runtime.GpuRuntime;

import java.util.function.LongFunction;

/**
 * The end of a sorted join table's BUILD (ht=sorted-binary, ht=sorted-pary; backend.cuda.gen.SortedJoinTable): the
 * build wrote each row's key word and payload at a place the counter handed out; here the words are sorted on the
 * device by the radix sort of ORDER BY, which gives each sorted word's place, the words are gathered into their
 * order, and under sorted-pary the index of cache lines is laid over them. The payload stays at the places, where
 * a probe reads it through the order.
 */
final class SortedJoinKeys {

    /**
     * What the probes of a sorted table read besides its sorted words: each word's place in the build's output
     * ({@code order}), and under sorted-pary the index of lines over the words and its levels (else a placeholder
     * buffer and 0).
     */
    record Search(DeviceBuffer order, DeviceBuffer index, int levels) {
    }

    private SortedJoinKeys() {
    }

    /**
     * The table {@code built} with its {@code count} rows' keys sorted: its keys the sorted words, its slots and
     * rows the count, its search structures from {@code take} (buffers held until the query ends).
     */
    static CudaQueryRun.DeviceTable sort(GpuRuntime rt, CudaQueryRun.DeviceTable built, long count,
                                         LongFunction<DeviceBuffer> take) {
        JoinLayout layout = built.layout();
        if (!LargeSort.fits(count, 1)) {
            throw new GpuFallbacks.Fallback("join j" + layout.joinId() + ": " + count
                    + " rows, more than the device sort takes");
        }
        DeviceBuffer order = take.apply(Math.max(1, count) * 8);
        DeviceBuffer sorted = take.apply(Math.max(1, count) * 8);
        DeviceBuffer index;
        int levels = 0;
        if (count > 0) {
            rt.sortWords(built.keys().address(), count, order);
            rt.gather64(built.keys(), 1, order, count, sorted, 0);
        }
        if (layout.kind() == JoinLayout.Kind.SORTED_PARY && count > 0) {
            index = take.apply(SearchIndex.size(count) * 8);
            rt.searchIndex(sorted.address(), count, index);
            levels = SearchIndex.levels(count);
        } else {
            index = take.apply(8); // not read: a probe of no keys finds nothing before it looks
        }
        return new CudaQueryRun.DeviceTable(layout, sorted, built.payload(), count, 0, null, null, count,
                new Search(order, index, levels));
    }
}

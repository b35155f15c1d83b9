package io.tessera.backend.jvm.window;

import io.tessera.backend.jvm.relation.RowBuffer;
import io.tessera.plan.SortKey;

import java.util.List;

/**
 * The rows of a window sink in the order of one OVER clause: sorted by the partition columns, then the ORDER BY
 * keys, so that each partition is a run of positions; per position, where its partition and its peer group (the
 * rows equal to it in every ORDER BY key) start and end. Sorting ({@link WindowSort}) keeps equal rows in the order
 * they were collected.
 */
final class WindowOrder {

    /** The row at each position. */
    final int[] rows;
    final int[] partStart;
    final int[] partEnd;
    final int[] peerStart;
    final int[] peerEnd;

    WindowOrder(RowBuffer b, List<Integer> partition, List<SortKey> order) {
        int np = partition.size();
        SortKey[] all = new SortKey[np + order.size()];
        for (int i = 0; i < np; i++) {
            all[i] = new SortKey(partition.get(i), false, true);
        }
        for (int i = 0; i < order.size(); i++) {
            all[np + i] = order.get(i);
        }
        WindowSort sort = new WindowSort(b, all);
        int n = b.size;
        rows = sort.order();
        partStart = new int[n];
        partEnd = new int[n];
        peerStart = new int[n];
        peerEnd = new int[n];
        int ps = 0;
        int qs = 0;
        for (int i = 1; i <= n; i++) {
            boolean newPart = i == n || sort.compare(rows[i - 1], rows[i], 0, np) != 0;
            boolean newPeer = newPart || sort.compare(rows[i - 1], rows[i], np, all.length) != 0;
            if (newPeer) {
                for (int j = qs; j < i; j++) {
                    peerStart[j] = qs;
                    peerEnd[j] = i;
                }
                qs = i;
            }
            if (newPart) {
                for (int j = ps; j < i; j++) {
                    partStart[j] = ps;
                    partEnd[j] = i;
                }
                ps = i;
            }
        }
    }
}

package io.tessera.backend.jvm.window;

import io.tessera.backend.host.HostWorkers;
import io.tessera.backend.host.RowBuffer;
import io.tessera.backend.host.sort.SortedRows;
import io.tessera.plan.SortKey;

import java.util.List;

/**
 * Rows of a window sink in the order of one OVER clause: sorted by the partition columns, then the ORDER BY keys,
 * so that each partition is a run of positions; per position, where its partition and its peer group (the rows
 * equal to it in every ORDER BY key) start and end. The sort ({@link SortedRows}) keeps equal rows in the order they
 * were collected. An order may hold some rows of the buffer only (a group of whole partitions): its positions are
 * then those rows', and {@link #rows} names the buffer row at each.
 */
final class WindowOrder {

    /** The buffer row at each position. */
    final int[] rows;
    final int[] partStart;
    final int[] partEnd;
    final int[] peerStart;
    final int[] peerEnd;

    /** Every row of the buffer, sorted on the calling thread. */
    WindowOrder(RowBuffer b, List<Integer> partition, List<SortKey> order) {
        this(b, partition, order, null, b.size, 1, HostWorkers.ONE);
    }

    /**
     * Buffer rows {@code subset[0 .. count)} (every row where subset is null), sorted in {@code runs} runs on the
     * workers.
     */
    WindowOrder(RowBuffer b, List<Integer> partition, List<SortKey> order, int[] subset, int count, int runs,
                HostWorkers w) {
        int np = partition.size();
        SortKey[] all = new SortKey[np + order.size()];
        for (int i = 0; i < np; i++) {
            all[i] = new SortKey(partition.get(i), false, true);
        }
        for (int i = 0; i < order.size(); i++) {
            all[np + i] = order.get(i);
        }
        SortedRows sorted = SortedRows.sort(b, all, subset, count, runs, w);
        int n = count;
        rows = sorted.order;
        partStart = new int[n];
        partEnd = new int[n];
        peerStart = new int[n];
        peerEnd = new int[n];
        int ps = 0;
        int qs = 0;
        for (int i = 1; i <= n; i++) {
            boolean newPart = i == n || !sorted.sameKeys(i - 1, i, np);
            boolean newPeer = newPart || !sorted.sameKeys(i - 1, i, all.length);
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

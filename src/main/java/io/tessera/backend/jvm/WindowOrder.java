package io.tessera.backend.jvm;

import io.tessera.plan.SortKey;

import java.util.List;

/**
 * The rows of a window sink in the order of one OVER clause: sorted by the partition columns, then the ORDER BY
 * keys, so that each partition is a run of positions; per position, where its partition and its peer group (the
 * rows equal to it in every ORDER BY key) start and end. Sorting keeps equal rows in the order they were collected.
 */
final class WindowOrder {

    /** The row at each position. */
    final int[] rows;
    final int[] partStart;
    final int[] partEnd;
    final int[] peerStart;
    final int[] peerEnd;

    WindowOrder(RowBuffer b, List<Integer> partition, List<SortKey> order) {
        SortKey[] part = new SortKey[partition.size()];
        for (int i = 0; i < part.length; i++) {
            part[i] = new SortKey(partition.get(i), false, true);
        }
        SortKey[] ord = order.toArray(new SortKey[0]);
        SortKey[] all = new SortKey[part.length + ord.length];
        System.arraycopy(part, 0, all, 0, part.length);
        System.arraycopy(ord, 0, all, part.length, ord.length);
        int n = b.size;
        rows = all.length == 0 ? identity(n) : Sorter.order(b, all, -1);
        partStart = new int[n];
        partEnd = new int[n];
        peerStart = new int[n];
        peerEnd = new int[n];
        int ps = 0;
        int qs = 0;
        for (int i = 1; i <= n; i++) {
            boolean newPart = i == n || Sorter.compare(b, part, rows[i - 1], rows[i]) != 0;
            boolean newPeer = newPart || Sorter.compare(b, ord, rows[i - 1], rows[i]) != 0;
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

    private static int[] identity(int n) {
        int[] r = new int[n];
        for (int i = 0; i < n; i++) {
            r[i] = i;
        }
        return r;
    }
}

package io.tessera.backend.jvm.aggregate;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ExecutorService;

/**
 * The end of agg=ordered: the workers' tables, each morsel's groups in ascending key order, brought together. Where
 * every morsel's keys ascended and the morsels' key ranges, taken in order of their first keys, meet at most at a
 * shared boundary key, the groups are already the result: only a morsel's first group combines into the group of
 * the same key that ends another morsel (a run cut by a morsel's boundary). Otherwise (keys that decreased within
 * a morsel, ranges that overlap) every group goes through the hash merge ({@link GroupMerge#hash}), which combines
 * equal keys whatever their order: the answer never depends on the rows arriving sorted.
 */
final class OrderedMerge {

    /** The merged tables, and whether the key ranges sufficed (no hash merge). */
    record Merged(List<HashGroupTable> tables, boolean byRanges) {
    }

    /** A morsel's groups {@code [from, to)} of table {@code table}. */
    private record Segment(int table, int from, int to) {
    }

    private OrderedMerge() {
    }

    static Merged merge(List<OrderedRuns> runs, boolean[] stringKeys, boolean partitioned, ExecutorService pool,
                        int workers) {
        List<HashGroupTable> tables = new ArrayList<>();
        boolean ordered = true;
        for (OrderedRuns r : runs) {
            tables.add(r.table);
            ordered &= r.ordered;
        }
        int[][] absorbed = ordered ? boundaries(runs, tables) : null;
        if (absorbed == null) {
            List<HashGroupTable> all = new ArrayList<>();
            all.add(tables.get(0).emptyLike(16)); // the target of a serial merge, which finds groups by key
            all.addAll(tables);
            return new Merged(GroupMerge.hash(all, stringKeys, partitioned, pool, workers), false);
        }
        List<HashGroupTable> out = new ArrayList<>();
        for (int t = 0; t < tables.size(); t++) {
            tables.get(t).removeGroups(absorbed[t]);
            if (tables.get(t).groups > 0) {
                out.add(tables.get(t));
            }
        }
        return new Merged(out.isEmpty() ? List.of(tables.get(0)) : out, true);
    }

    /**
     * Combines each morsel's first group into the group of the same key that ends the morsels before it (in order of
     * their first keys) and returns, per table, the groups so combined in descending order; null, having combined
     * nothing, where a morsel's first key is below the last key of one before it (the ranges overlap).
     */
    private static int[][] boundaries(List<OrderedRuns> runs, List<HashGroupTable> tables) {
        List<Segment> segments = new ArrayList<>();
        for (int t = 0; t < runs.size(); t++) {
            OrderedRuns r = runs.get(t);
            for (int m = 0; m < r.morsels(); m++) {
                if (r.to(m) > r.from(m)) {
                    segments.add(new Segment(t, r.from(m), r.to(m)));
                }
            }
        }
        Comparator<Segment> byFirst = (a, b) -> compare(tables, a.table, a.from, b.table, b.from);
        segments.sort(byFirst.thenComparing((a, b) -> compare(tables, a.table, a.to - 1, b.table, b.to - 1)));
        // first pass: the pairs to combine (a morsel's first group, the open group of its key), nothing changed yet
        List<int[]> pairs = new ArrayList<>();
        int openTable = -1;
        int openGroup = -1;
        for (Segment s : segments) {
            int first = s.from;
            if (openTable >= 0) {
                int c = compare(tables, s.table, s.from, openTable, openGroup);
                if (c < 0) {
                    return null;
                }
                if (c == 0) {
                    pairs.add(new int[] {s.table, s.from, openTable, openGroup});
                    first++;
                }
            }
            if (first < s.to) {
                openTable = s.table;
                openGroup = s.to - 1;
            }
        }
        int[] counts = new int[tables.size()];
        for (int[] p : pairs) {
            counts[p[0]]++;
        }
        int[][] absorbed = new int[tables.size()][];
        for (int t = 0; t < absorbed.length; t++) {
            absorbed[t] = new int[counts[t]];
            counts[t] = 0;
        }
        for (int[] p : pairs) {
            tables.get(p[2]).combine(tables.get(p[0]), p[1], p[3]);
            absorbed[p[0]][counts[p[0]]++] = p[1];
        }
        for (int[] a : absorbed) {
            Arrays.sort(a);
            for (int i = 0, j = a.length - 1; i < j; i++, j--) {
                int x = a[i];
                a[i] = a[j];
                a[j] = x;
            }
        }
        return absorbed;
    }

    /** Group ga of table a against group gb of table b, by their encoded key words in turn. */
    private static int compare(List<HashGroupTable> tables, int a, int ga, int b, int gb) {
        HashGroupTable ta = tables.get(a);
        HashGroupTable tb = tables.get(b);
        for (int i = 0; i < ta.width; i++) {
            int c = Long.compare(ta.keyWord(ga, i), tb.keyWord(gb, i));
            if (c != 0) {
                return c;
            }
        }
        return 0;
    }
}

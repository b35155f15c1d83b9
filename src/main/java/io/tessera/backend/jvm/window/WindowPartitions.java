package io.tessera.backend.jvm.window;

import io.tessera.backend.host.HostWorkers;
import io.tessera.backend.host.RowBuffer;
import io.tessera.plan.WindowFunction;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The rows of a window sink cut into groups of whole partitions, for workers to sort and evaluate one group each: a
 * row's group is a hash of its values in the PARTITION BY columns that every function of the sink names, so that
 * the rows of any function's partition share a group. Values equal in SQL hash alike: a DOUBLE's -0.0 as 0.0, every
 * NaN as one, NULL as NULL; VARCHAR codes of one column come from one dictionary.
 */
final class WindowPartitions {

    private WindowPartitions() {
    }

    /** The PARTITION BY columns every function names (empty where one function has none). */
    static List<Integer> shared(List<WindowFunction> fns) {
        Set<Integer> common = null;
        for (WindowFunction fn : fns) {
            Set<Integer> cols = new LinkedHashSet<>(fn.partition());
            if (common == null) {
                common = cols;
            } else {
                common.retainAll(cols);
            }
        }
        return common == null ? List.of() : new ArrayList<>(common);
    }

    /**
     * The rows of each non-empty group, ascending, out of at most {@code groups} groups by the hash of
     * {@code columns}; the hashes are computed on the workers.
     */
    static int[][] groups(RowBuffer b, List<Integer> columns, int groups, HostWorkers w) {
        int n = b.size;
        int g = Math.max(1, Math.min(groups, n));
        int[] groupOf = new int[n];
        w.chunks(n, 16384, (from, to) -> {
            for (int r = from; r < to; r++) {
                groupOf[r] = (int) ((hash(b, columns, r) >>> 1) % g);
            }
        });
        int[] counts = new int[g];
        for (int r = 0; r < n; r++) {
            counts[groupOf[r]]++;
        }
        int[][] rows = new int[g][];
        for (int i = 0; i < g; i++) {
            rows[i] = new int[counts[i]];
        }
        int[] fill = new int[g];
        for (int r = 0; r < n; r++) {
            int i = groupOf[r];
            rows[i][fill[i]++] = r;
        }
        List<int[]> out = new ArrayList<>();
        for (int[] group : rows) {
            if (group.length > 0) {
                out.add(group);
            }
        }
        return out.toArray(new int[0][]);
    }

    /** Row r's hash over the columns, mixed so that its low and high bits both vary. */
    static long hash(RowBuffer b, List<Integer> columns, int r) {
        long h = 0x9E3779B97F4A7C15L;
        for (int c : columns) {
            long v;
            if (b.isNull(c, r)) {
                v = 0x5BD1E995L; // one value for NULL, apart from the values' hashes only by chance
            } else {
                v = switch (b.kinds[c]) {
                    case INT, CODE -> b.ints[c][r];
                    case LONG -> b.longs[c][r];
                    case DOUBLE -> Double.doubleToLongBits(b.doubles[c][r] + 0.0);
                    case BOOL -> b.bytes[c][r];
                    case STRING -> b.strings[c][r].hashCode();
                };
            }
            h = (h ^ v) * 0xFF51AFD7ED558CCDL;
            h ^= h >>> 32;
        }
        h *= 0xC4CEB9FE1A85EC53L;
        return h ^ (h >>> 29);
    }
}

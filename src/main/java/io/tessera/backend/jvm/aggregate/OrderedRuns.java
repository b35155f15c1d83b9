package io.tessera.backend.jvm.aggregate;

import java.util.Arrays;

/**
 * One worker's groups under agg=ordered: each run of equal keys in a morsel appended to {@link #table} as a group of
 * its own, with no lookup ({@link HashGroupTable#append1}), where each morsel's groups begin, and whether the keys
 * ever decreased within a morsel. {@link OrderedMerge} brings the workers' groups together.
 */
public final class OrderedRuns {

    public final HashGroupTable table;
    /** False once a morsel's keys decreased (or the keys cannot be compared across tables: strings). */
    public boolean ordered = true;
    private int[] starts = new int[16];
    private int morsels;

    public OrderedRuns(HashGroupTable table) {
        this.table = table;
    }

    /** A morsel begins: its groups are the ones appended from here on. */
    public void morsel() {
        if (morsels == starts.length) {
            starts = Arrays.copyOf(starts, morsels * 2);
        }
        starts[morsels++] = table.groups;
    }

    /** The number of morsels this worker ran. */
    int morsels() {
        return morsels;
    }

    /** The first group of morsel m. */
    int from(int m) {
        return starts[m];
    }

    /** The group after morsel m's last. */
    int to(int m) {
        return m + 1 < morsels ? starts[m + 1] : table.groups;
    }
}

package io.tessera.backend.jvm.aggregate;

import java.util.ArrayList;
import java.util.List;

/**
 * A grouping pipeline's groups once its workers' tables came together: one or more tables whose keys are disjoint
 * (a merged table, or the partitions of a partitioned merge, aggregation or shared table), and per table which of
 * its entries are groups: every group of a hash table, the used slots of a dense array, or the one group of an
 * aggregation without keys (a row even over no rows).
 */
public final class Groups {

    private final List<GroupTable> tables;
    /** Per table, the indexes of its groups; null: the groups 0 .. n - 1 of a hash table. */
    private final List<int[]> indexes;
    private final int[] offsets;

    private Groups(List<GroupTable> tables, List<int[]> indexes) {
        this.tables = List.copyOf(tables);
        this.indexes = indexes;
        offsets = new int[tables.size() + 1];
        for (int t = 0; t < tables.size(); t++) {
            offsets[t + 1] = Math.addExact(offsets[t], count(t));
        }
    }

    /** Every group of these hash tables, whose keys are disjoint. */
    public static Groups of(List<? extends GroupTable> hashTables) {
        List<int[]> all = new ArrayList<>();
        for (int i = 0; i < hashTables.size(); i++) {
            all.add(null);
        }
        return new Groups(new ArrayList<>(hashTables), all);
    }

    /** The used slots of a dense array. */
    public static Groups dense(DenseGroupTable d) {
        int n = 0;
        for (int gi = 0; gi < d.slots(); gi++) {
            n += d.rows[gi] > 0 ? 1 : 0;
        }
        int[] used = new int[n];
        n = 0;
        for (int gi = 0; gi < d.slots(); gi++) {
            if (d.rows[gi] > 0) {
                used[n++] = gi;
            }
        }
        return new Groups(List.of(d), List.of(used));
    }

    /** The one group of an aggregation without keys: slot 0, whether or not a row reached it. */
    public static Groups single(DenseGroupTable d) {
        return new Groups(List.of(d), List.of(new int[] {0}));
    }

    public List<GroupTable> tables() {
        return tables;
    }

    /** The number of groups of table t. */
    public int count(int t) {
        int[] idx = indexes.get(t);
        return idx != null ? idx.length : ((HashGroupTable) tables.get(t)).groups;
    }

    /** The index in table t of its i-th group. */
    public int group(int t, int i) {
        int[] idx = indexes.get(t);
        return idx != null ? idx[i] : i;
    }

    /** The number of groups of the tables before table t (its first group's row). */
    public int offset(int t) {
        return offsets[t];
    }

    /** The number of groups. */
    public int total() {
        return offsets[tables.size()];
    }
}

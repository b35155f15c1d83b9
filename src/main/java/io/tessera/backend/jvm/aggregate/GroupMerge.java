package io.tessera.backend.jvm.aggregate;

import io.tessera.backend.jvm.lib.Hashing;
import io.tessera.backend.host.WorkerTasks;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;

/**
 * The workers' group tables brought together, one strategy per value of the {@code merge} dimension:
 * <ul>
 * <li>serial: every table merged into the first, one after another, on one thread;</li>
 * <li>partitioned: each worker splits its hash table's groups into partitions by bits of their key's spreading hash
 * (equal keys fall into the same partition in every table), then the workers take partitions in turn and merge
 * partition p of every table into a table of its own: the result is those tables, whose keys are disjoint. Dense
 * arrays are merged by slot ranges instead, each range by one worker.</li>
 * </ul>
 * Below {@link #PARALLEL_MIN_GROUPS} groups in all, a partitioned merge is a serial one: handing it out would cost more.
 */
final class GroupMerge {

    /** Fewer groups than this (over all tables) are merged on one thread whatever the strategy. */
    static final long PARALLEL_MIN_GROUPS = 1 << 12;
    /** The most partitions of a partitioned merge. */
    private static final int MAX_PARTITION_BITS = 10;

    private GroupMerge() {
    }

    /** Hash tables merged into tables of disjoint keys (one table when serial). */
    static List<HashGroupTable> hash(List<HashGroupTable> tables, boolean[] stringKeys, boolean partitioned,
                                     ExecutorService pool, int workers) {
        long total = 0;
        for (HashGroupTable t : tables) {
            total += t.groups;
        }
        if (!partitioned || workers <= 1 || tables.size() == 1 || total < PARALLEL_MIN_GROUPS) {
            HashGroupTable h = tables.get(0);
            for (int i = 1; i < tables.size(); i++) {
                h.mergeFrom(tables.get(i), stringKeys);
            }
            return List.of(h);
        }
        // several partitions per worker, each of at least a thousand groups or so
        int bits = Math.min(MAX_PARTITION_BITS, Math.min(ceilLog2(workers * 4),
                Math.max(1, 63 - Long.numberOfLeadingZeros(total >> 10))));
        int partitions = 1 << bits;
        int w = tables.size();
        int[][][] members = new int[w][][];
        WorkerTasks.run(pool, workers, w, i -> members[i] = split(tables.get(i), stringKeys, bits));
        HashGroupTable[] merged = new HashGroupTable[partitions];
        WorkerTasks.run(pool, workers, partitions, p -> {
            long expected = 0;
            for (int i = 0; i < w; i++) {
                expected += members[i][p].length;
            }
            HashGroupTable into = tables.get(0).emptyLike((int) Math.min(1 << 30, expected));
            for (int i = 0; i < w; i++) {
                into.mergeGroups(tables.get(i), members[i][p], members[i][p].length, stringKeys);
            }
            merged[p] = into;
        });
        List<HashGroupTable> out = new ArrayList<>();
        for (HashGroupTable t : merged) {
            if (t.groups > 0) {
                out.add(t);
            }
        }
        return out.isEmpty() ? List.of(merged[0]) : out;
    }

    /** The groups of table t per partition of {@code bits} bits of their spreading hash. */
    private static int[][] split(HashGroupTable t, boolean[] stringKeys, int bits) {
        int[] partition = new int[t.groups];
        int[] counts = new int[1 << bits];
        for (int g = 0; g < t.groups; g++) {
            int p = Hashing.spread(t.spreadingHash(g, stringKeys), bits);
            partition[g] = p;
            counts[p]++;
        }
        int[][] members = new int[1 << bits][];
        for (int p = 0; p < members.length; p++) {
            members[p] = new int[counts[p]];
            counts[p] = 0;
        }
        for (int g = 0; g < t.groups; g++) {
            int p = partition[g];
            members[p][counts[p]++] = g;
        }
        return members;
    }

    /** Dense arrays merged into the first: slot by slot, by ranges of slots on the workers when partitioned. */
    static DenseGroupTable dense(List<DenseGroupTable> tables, boolean partitioned, ExecutorService pool, int workers) {
        DenseGroupTable d = tables.get(0);
        int slots = d.slots();
        if (!partitioned || workers <= 1 || (long) slots * (tables.size() - 1) < PARALLEL_MIN_GROUPS) {
            for (int i = 1; i < tables.size(); i++) {
                d.mergeFrom(tables.get(i));
            }
            return d;
        }
        int piece = WorkerTasks.pieceSize(slots, workers, 4, 1 << 10);
        WorkerTasks.run(pool, workers, (slots + piece - 1) / piece, r -> {
            int from = r * piece;
            int to = Math.min(slots, from + piece);
            for (int i = 1; i < tables.size(); i++) {
                d.mergeFrom(tables.get(i), from, to);
            }
        });
        return d;
    }

    private static int ceilLog2(int n) {
        return 32 - Integer.numberOfLeadingZeros(Math.max(1, n) - 1);
    }
}

package io.tessera.backend.jvm.aggregate;

import io.tessera.backend.jvm.lib.Hashing;
import io.tessera.backend.host.WorkerTasks;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutorService;

/**
 * The partitioned union of DISTINCT sets ({@code distinct=partitioned}): after the workers' group tables are merged,
 * each group's set holds the other workers' sets of the group only as noted ({@link DistinctSet#defer}). The sets
 * are united here by all workers: small unions each by one worker, several at once; a large one (few groups with
 * many values: COUNT(DISTINCT x) without GROUP BY) by value partitions: every source set is split by bits of a
 * spreading hash of its values (a worker per set), then partition p of every source is united by one worker. The
 * group's set becomes the partitions' disjoint sets. With {@code distinct=serial} nothing happens here: each set
 * adds what it noted when it is first read, on the thread that reads it.
 */
final class DistinctUnion {

    /** A union of at least this many values (over its sources) is split by value partitions. */
    static final long PARTITIONED_MIN_VALUES = 1 << 15;
    private static final int MAX_PARTITION_BITS = 8;

    private DistinctUnion() {
    }

    /** Unites every noted set of the groups' tables. */
    static void resolve(Groups groups, ExecutorService pool, int workers) {
        List<DistinctSet> pending = new ArrayList<>();
        for (int t = 0; t < groups.tables().size(); t++) {
            GroupTable table = groups.tables().get(t);
            for (int a = 0; a < table.aggs.length; a++) {
                DistinctSet[] sets = table.sets[a];
                if (sets == null) {
                    continue;
                }
                for (int i = 0; i < groups.count(t); i++) {
                    DistinctSet s = sets[groups.group(t, i)];
                    if (s != null && s.hasPending()) {
                        pending.add(s);
                    }
                }
            }
        }
        List<DistinctSet> large = new ArrayList<>();
        List<DistinctSet> small = new ArrayList<>();
        for (DistinctSet s : pending) {
            (s.valuesNoted() >= PARTITIONED_MIN_VALUES && workers > 1 ? large : small).add(s);
        }
        int piece = WorkerTasks.pieceSize(small.size(), workers, 4, 16);
        WorkerTasks.run(pool, workers, (small.size() + piece - 1) / piece, i -> {
            for (int j = i * piece, end = Math.min(small.size(), j + piece); j < end; j++) {
                small.get(j).resolve();
            }
        });
        for (DistinctSet s : large) {
            unitePartitioned(s, pool, workers);
        }
    }

    /** One set's union by value partitions on the workers. */
    static void unitePartitioned(DistinctSet target, ExecutorService pool, int workers) {
        List<DistinctSet> sources = target.takeSources();
        int bits = Math.min(MAX_PARTITION_BITS, 32 - Integer.numberOfLeadingZeros(Math.max(1, workers * 4) - 1));
        int partitions = 1 << bits;
        Split[] splits = new Split[sources.size()];
        WorkerTasks.run(pool, workers, sources.size(), i -> splits[i] = Split.of(sources.get(i), bits));
        DistinctSet[] parts = new DistinctSet[partitions];
        WorkerTasks.run(pool, workers, partitions, p -> {
            int expected = 0;
            for (Split s : splits) {
                expected += s.longCounts[p];
            }
            DistinctSet part = new DistinctSet(expected);
            for (Split s : splits) {
                long[] values = s.longs[p];
                for (int i = 0; i < s.longCounts[p]; i++) {
                    part.add(values[i]);
                }
                if (s.strings[p] != null) {
                    for (String v : s.strings[p]) {
                        part.add(v);
                    }
                }
            }
            parts[p] = part;
        });
        target.setParts(parts);
    }

    /** One source set's values by partition of their spreading hash. */
    private record Split(long[][] longs, int[] longCounts, List<String>[] strings) {

        @SuppressWarnings("unchecked")
        static Split of(DistinctSet set, int bits) {
            int n = 1 << bits;
            int[] counts = new int[n];
            long[][] longs = new long[n][];
            int room = (int) Math.min(1 << 20, set.valuesNoted() / n + set.valuesNoted() / (4L * n) + 16);
            for (int p = 0; p < n; p++) {
                longs[p] = new long[room];
            }
            set.forEachLong(v -> {
                int p = Hashing.spread(v, bits);
                if (counts[p] == longs[p].length) {
                    longs[p] = Arrays.copyOf(longs[p], longs[p].length * 2);
                }
                longs[p][counts[p]++] = v;
            });
            List<String>[] strings = new List[n];
            set.forEachString(v -> {
                int p = Hashing.spread(v.hashCode(), bits);
                if (strings[p] == null) {
                    strings[p] = new ArrayList<>();
                }
                strings[p].add(v);
            });
            return new Split(longs, counts, strings);
        }
    }
}

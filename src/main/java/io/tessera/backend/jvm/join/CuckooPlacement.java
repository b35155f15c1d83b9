package io.tessera.backend.jvm.join;

import io.tessera.backend.jvm.lib.Hashing;
import io.tessera.backend.host.WorkerTasks;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Arrays;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A cuckoo table's index built by the workers, over rows already partitioned by a spreading hash of their key. First
 * each partition's equal keys are chained (a partition holds every row of its keys), so that each key enters the
 * table once, as its chain's head. Then the workers place their partitions' heads at once: a head takes a free
 * candidate slot with a compare-and-set, or takes an occupied one with an atomic exchange and goes on placing the key
 * it evicted, as the serial build does; a key is in no slot only while the worker that evicted it carries it. When a
 * key finds no slot after the kicks allowed, every worker stops and the table is placed again twice as large; at the
 * largest size such keys go to the stash instead. The key array of a one-key table is filled in at the end, from
 * the rows that ended in the slots.
 */
final class CuckooPlacement {

    private static final VarHandle INTS = MethodHandles.arrayElementVarHandle(int[].class);

    private CuckooPlacement() {
    }

    static void place(JoinTable t, int[] starts, ExecutorService pool, int workers, int maxBits) {
        int partitions = starts.length - 1;
        int[][] heads = new int[partitions][];
        WorkerTasks.run(pool, workers, partitions, p -> heads[p] = chainPartition(t, starts[p], starts[p + 1]));
        long keys = 0;
        for (int[] h : heads) {
            keys += h.length;
        }
        // at most a quarter full with two functions, half full with three or four (as the serial build)
        int b = Math.min(maxBits, Hashing.bitsFor(t.ways == 2 ? 2 * keys : keys));
        while (!attempt(t, heads, b, b >= maxBits, pool, workers)) {
            b++;
        }
        if (t.keyCols.length == 1) {
            long[] k0 = t.keyCols[0];
            int piece = WorkerTasks.pieceSize(t.slotRows.length, workers, 4, 1 << 16);
            WorkerTasks.run(pool, workers, (t.slotRows.length + piece - 1) / piece, i -> {
                for (int s = i * piece, end = Math.min(t.slotRows.length, s + piece); s < end; s++) {
                    int r = t.slotRows[s];
                    t.slotKeys[s] = r < 0 ? 0 : k0[r];
                }
            });
        }
    }

    /**
     * Rows {@code [from, to)} chained by key (from the last row to the first, so that a chain's head is its first
     * row); returns the heads, one per key.
     */
    private static int[] chainPartition(JoinTable t, int from, int to) {
        int bits = Hashing.bitsFor(to - from);
        int mask = (1 << bits) - 1;
        int[] local = new int[1 << bits];
        Arrays.fill(local, -1);
        int keys = 0;
        for (int r = to - 1; r >= from; r--) {
            if (t.next != null) {
                t.next[r] = -1;
            }
            int s = Hashing.murmur(t.hashKey(r), bits);
            while (true) {
                int at = local[s];
                if (at < 0) {
                    local[s] = r;
                    keys++;
                    break;
                }
                if (t.sameKey(at, r)) {
                    t.chain(r, at);
                    local[s] = r;
                    break;
                }
                s = (s + 1) & mask;
            }
        }
        int[] heads = new int[keys];
        int n = 0;
        for (int r : local) {
            if (r >= 0) {
                heads[n++] = r;
            }
        }
        return heads;
    }

    /** Places every head in a table of 2^b slots; false when some key found no slot (and no stash is allowed). */
    private static boolean attempt(JoinTable t, int[][] heads, int b, boolean useStash, ExecutorService pool, int workers) {
        t.bits = b;
        t.mask = (1 << b) - 1;
        t.slotRows = new int[1 << b];
        t.slotKeys = t.keyCols.length == 1 ? new long[1 << b] : null;
        t.stashRows = new int[0];
        t.stashSize = 0;
        int piece = WorkerTasks.pieceSize(t.slotRows.length, workers, 4, 1 << 16);
        WorkerTasks.run(pool, workers, (t.slotRows.length + piece - 1) / piece, i ->
                Arrays.fill(t.slotRows, i * piece, Math.min(t.slotRows.length, (i + 1) * piece), -1));
        AtomicBoolean failed = new AtomicBoolean();
        WorkerTasks.run(pool, workers, heads.length, p -> {
            long seed = 0x9E3779B97F4A7C15L ^ b ^ ((long) p << 32);
            int maxKicks = 64 + 16 * b;
            for (int head : heads[p]) {
                if (failed.get()) {
                    return;
                }
                int left = insert(t, head, seed ^ head, maxKicks);
                if (left >= 0) {
                    if (!useStash) {
                        failed.set(true);
                        return;
                    }
                    stash(t, left);
                }
            }
        });
        return !failed.get();
    }

    /** Places row r's key; returns -1, or the row of a key that found no slot after {@code maxKicks} evictions. */
    private static int insert(JoinTable t, int r, long seed, int maxKicks) {
        int cur = r;
        long curHash = t.hashKey(cur);
        int from = -1;
        for (int kick = 0; kick <= maxKicks; kick++) {
            for (int i = 0; i < t.ways; i++) {
                int s = Hashing.cuckoo(curHash, i, t.bits, t.murmur);
                if ((int) INTS.getVolatile(t.slotRows, s) < 0 && (int) INTS.compareAndExchange(t.slotRows, s, -1, cur) < 0) {
                    return -1;
                }
            }
            // evict the resident of a random candidate slot (not the one cur was just moved out of)
            seed ^= seed << 13;
            seed ^= seed >>> 7;
            seed ^= seed << 17;
            int i = (int) Long.remainderUnsigned(seed, t.ways);
            int s = Hashing.cuckoo(curHash, i, t.bits, t.murmur);
            if (s == from) {
                s = Hashing.cuckoo(curHash, (i + 1) % t.ways, t.bits, t.murmur);
            }
            int evicted = (int) INTS.getAndSet(t.slotRows, s, cur);
            if (evicted < 0) {
                return -1;
            }
            cur = evicted;
            curHash = t.hashKey(cur);
            from = s;
        }
        return cur;
    }

    private static void stash(JoinTable t, int row) {
        synchronized (t) {
            if (t.stashSize == t.stashRows.length) {
                t.stashRows = Arrays.copyOf(t.stashRows, Math.max(4, t.stashSize * 2));
            }
            t.stashRows[t.stashSize++] = row;
        }
    }
}

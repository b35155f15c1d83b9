package io.tessera.backend.jvm.join;

import io.tessera.backend.jvm.lib.Hashing;
import io.tessera.backend.host.RowBuffer;
import io.tessera.backend.host.WorkerTasks;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.ExecutorService;

/**
 * The atomic build ({@code build=atomic}): the workers insert ranges of the concatenated rows into one table at
 * once. A perfect table's slot takes a row with an atomic exchange, the row it held becoming the new row's next
 * (each row pushed onto its key's chain); a linear table's empty slot is claimed with a compare-and-set, and a row
 * whose key a slot already holds is pushed onto that chain with a compare-and-set of the slot. Slots never empty
 * again, so every worker scanning for a key passes the same slots and meets the same first empty one: a key gets
 * one slot. The order of rows in a chain depends on the workers' timing.
 */
final class AtomicJoinBuild {

    private static final VarHandle INTS = MethodHandles.arrayElementVarHandle(int[].class);

    private AtomicJoinBuild() {
    }

    static JoinTable build(RowBuffer all, int payloadColumns, int keyCount, JoinTable.Layout layout, long min,
                           long max, boolean murmur, boolean unique, ExecutorService pool, int workers) {
        int n = all.size;
        JoinTable t = new JoinTable(layout, murmur, unique, all, n);
        long[][] keys = new long[keyCount][];
        for (int k = 0; k < keyCount; k++) {
            keys[k] = all.longs[payloadColumns + k];
        }
        t.keyCols = keys;
        // every row's next is written when it is inserted: no -1 fill
        t.next = unique ? null : new int[Math.max(1, n)];
        int[] index;
        if (layout == JoinTable.Layout.PERFECT) {
            t.min = min;
            t.max = max;
            index = t.first = new int[(int) Math.max(1, max - min + 1)];
        } else {
            t.bits = Hashing.bitsFor(n);
            t.mask = (1 << t.bits) - 1;
            index = t.slotRows = new int[1 << t.bits];
            t.slotKeys = keyCount == 1 ? new long[1 << t.bits] : null;
        }
        if (layout != JoinTable.Layout.PERFECT) { // a perfect table's zeroed array is empty (rows plus one, JoinTable)
            int fill = WorkerTasks.pieceSize(index.length, workers, 4, 1 << 16);
            WorkerTasks.run(pool, workers, (index.length + fill - 1) / fill, i ->
                    java.util.Arrays.fill(index, i * fill, Math.min(index.length, (i + 1) * fill), -1));
        }
        int piece = WorkerTasks.pieceSize(n, workers, 4, 1 << 12);
        WorkerTasks.run(pool, workers, (n + piece - 1) / piece, i -> {
            int from = i * piece;
            int to = Math.min(n, from + piece);
            for (int r = to - 1; r >= from; r--) {
                if (layout == JoinTable.Layout.PERFECT) {
                    insertPerfect(t, r);
                } else {
                    insertLinear(t, r);
                }
            }
        });
        return t;
    }

    private static void insertPerfect(JoinTable t, int r) {
        long k = t.keyCols[0][r];
        if (k < t.min || k > t.max) {
            throw new IllegalStateException("build key " + k + " outside its planned range [" + t.min + ", " + t.max + "]");
        }
        int prev = (int) INTS.getAndSet(t.first, (int) (k - t.min), r + 1) - 1;
        link(t, r, prev);
    }

    /** Row r, now its chain's head, gets the previous head {@code prev} (or -1) as its next. */
    private static void link(JoinTable t, int r, int prev) {
        if (t.unique) {
            if (prev >= 0) {
                throw new IllegalStateException("duplicate key in a join table planned as unique");
            }
            return;
        }
        t.next[r] = prev;
    }

    private static void insertLinear(JoinTable t, int r) {
        int[] slots = t.slotRows;
        int s = Hashing.hash(t.hashKey(r), t.bits, t.murmur);
        while (true) {
            int at = (int) INTS.getVolatile(slots, s);
            if (at < 0) {
                if (!t.unique) {
                    t.next[r] = -1; // before the row is published in the slot
                }
                at = (int) INTS.compareAndExchange(slots, s, -1, r);
                if (at < 0) {
                    if (t.slotKeys != null) {
                        t.slotKeys[s] = t.keyCols[0][r];
                    }
                    return;
                }
                // another worker took the slot first: look at its row's key
            }
            if (t.sameKey(at, r)) {
                while (true) {
                    link(t, r, at);
                    int witness = (int) INTS.compareAndExchange(slots, s, at, r);
                    if (witness == at) {
                        return;
                    }
                    at = witness;
                }
            }
            s = (s + 1) & t.mask;
        }
    }
}

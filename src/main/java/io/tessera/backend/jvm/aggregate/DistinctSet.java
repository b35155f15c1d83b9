package io.tessera.backend.jvm.aggregate;

import io.tessera.backend.jvm.lib.Hashing;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.LongConsumer;

/**
 * The distinct values of one DISTINCT aggregate in one group: numbers as longs (integers, DECIMAL unscaled, DOUBLE
 * as {@link Hashing#doubleKey}) in an open-addressing table with linear probing (0 marks an empty slot; the value 0
 * is a flag), strings in a hash set. When group tables are merged, another worker's set of the same group is only
 * noted ({@link #defer}); its values are added when the set is first read, or beforehand by a parallel union
 * ({@link DistinctUnion}), which leaves the values in disjoint parts ({@link #setParts}).
 */
public final class DistinctSet {

    private long[] slots;
    private int longs;
    private boolean zero;
    private HashSet<String> strings;
    /** Sets of other workers whose values belong here too, not added yet (null: none). */
    private List<DistinctSet> pending;
    /** Disjoint sets whose union is this set's values besides its own (null: none). */
    private DistinctSet[] parts;

    public DistinctSet() {
        this(4);
    }

    /** A set with room for about {@code expected} values before it grows. */
    DistinctSet(int expected) {
        int capacity = 4;
        while (capacity < 2L * expected && capacity < 1 << 30) {
            capacity <<= 1;
        }
        slots = new long[capacity];
    }

    public void add(long v) {
        unfold();
        addLong(v);
    }

    public void add(String s) {
        unfold();
        if (strings == null) {
            strings = new HashSet<>();
        }
        strings.add(s);
    }

    private void addLong(long v) {
        if (v == 0) {
            zero = true;
            return;
        }
        int bits = Integer.numberOfTrailingZeros(slots.length);
        int mask = slots.length - 1;
        for (int s = Hashing.murmur(v, bits); ; s = (s + 1) & mask) {
            long at = slots[s];
            if (at == 0) {
                slots[s] = v;
                if (++longs * 2 > slots.length) {
                    grow();
                }
                return;
            }
            if (at == v) {
                return;
            }
        }
    }

    private void grow() {
        long[] old = slots;
        slots = new long[old.length * 2];
        longs = 0;
        for (long v : old) {
            if (v != 0) {
                addLong(v);
            }
        }
    }

    /** Notes that {@code other}'s values (another worker's, of the same group) belong to this set too. */
    public void defer(DistinctSet other) {
        if (pending == null) {
            pending = new ArrayList<>();
        }
        pending.add(other);
        if (other.pending != null) {
            pending.addAll(other.pending);
            other.pending = null;
        }
    }

    /** The values of this set, its parts and its noted sets, counted without adding them (some may repeat). */
    long valuesNoted() {
        long n = longs + (zero ? 1 : 0) + (strings == null ? 0 : strings.size());
        if (parts != null) {
            for (DistinctSet p : parts) {
                n += p.valuesNoted();
            }
        }
        if (pending != null) {
            for (DistinctSet p : pending) {
                n += p.valuesNoted();
            }
        }
        return n;
    }

    /** Whether values of other sets are noted but not added yet. */
    boolean hasPending() {
        return pending != null;
    }

    /** The sets noted by {@link #defer}, this one's own values and parts first; none is noted afterwards. */
    List<DistinctSet> takeSources() {
        List<DistinctSet> out = new ArrayList<>();
        DistinctSet own = new DistinctSet(1);
        own.slots = slots;
        own.longs = longs;
        own.zero = zero;
        own.strings = strings;
        own.parts = parts;
        out.add(own);
        if (pending != null) {
            out.addAll(pending);
        }
        slots = new long[4];
        longs = 0;
        zero = false;
        strings = null;
        parts = null;
        pending = null;
        return out;
    }

    /** Makes this set the union of {@code disjoint} sets (and nothing else): what a parallel union computed. */
    void setParts(DistinctSet[] disjoint) {
        slots = new long[4];
        longs = 0;
        zero = false;
        strings = null;
        pending = null;
        parts = disjoint;
    }

    /** Adds the noted sets' values now. */
    void resolve() {
        if (pending == null) {
            return;
        }
        List<DistinctSet> others = pending;
        pending = null;
        unfold();
        for (DistinctSet o : others) {
            o.forEachLong(this::addLong);
            o.forEachString(this::add);
        }
    }

    /** Before values are added to a set made of parts: the parts' values become its own (they may repeat a new one). */
    private void unfold() {
        if (parts != null) {
            DistinctSet[] ps = parts;
            parts = null;
            for (DistinctSet p : ps) {
                p.forEachLong(this::addLong);
                p.forEachString(this::add);
            }
        }
    }

    /** Every long value: this set's own, its parts' and the noted sets'. */
    void forEachLong(LongConsumer c) {
        if (zero) {
            c.accept(0);
        }
        if (longs > 0) {
            for (long v : slots) {
                if (v != 0) {
                    c.accept(v);
                }
            }
        }
        if (parts != null) {
            for (DistinctSet p : parts) {
                p.forEachLong(c);
            }
        }
        if (pending != null) {
            for (DistinctSet p : pending) {
                p.forEachLong(c);
            }
        }
    }

    /** Every string value: this set's own, its parts' and the noted sets'. */
    void forEachString(Consumer<String> c) {
        if (strings != null) {
            strings.forEach(c);
        }
        if (parts != null) {
            for (DistinctSet p : parts) {
                p.forEachString(c);
            }
        }
        if (pending != null) {
            for (DistinctSet p : pending) {
                p.forEachString(c);
            }
        }
    }

    /** The number of values (of this set and its parts; noted sets are added first). */
    public long size() {
        resolve();
        long n = longs + (zero ? 1 : 0) + (strings == null ? 0 : strings.size());
        if (parts != null) {
            for (DistinctSet p : parts) {
                n += p.size();
            }
        }
        return n;
    }

    /** The sum of the long values (integers, DECIMAL unscaled); an overflow fails. */
    public long longSum() {
        resolve();
        long[] sum = {0};
        forEachLong(v -> sum[0] = Math.addExact(sum[0], v));
        return sum[0];
    }

    /** The sum of the values held as {@link Hashing#doubleKey} bits. */
    public double doubleSum() {
        resolve();
        double[] sum = {0};
        forEachLong(v -> sum[0] += Double.longBitsToDouble(v));
        return sum[0];
    }
}

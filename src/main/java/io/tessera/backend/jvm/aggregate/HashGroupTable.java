package io.tessera.backend.jvm.aggregate;

import io.tessera.backend.jvm.lib.Hashing;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;

/**
 * Groups in an open-addressing hash table with linear probing over encoded keys ({@code width} longs per group:
 * one per key column, plus a NULL mask when a key is nullable). STRING keys are interned to ids per table.
 */
public final class HashGroupTable extends GroupTable {

    public final int width;
    /** Index of the NULL-mask word in a key, or -1 when no key is nullable. */
    private final int nullMaskWord;
    private final boolean murmur;
    public long[] keys;
    private int[] slots; // group + 1, 0 = empty
    private int bits;
    private int mask;
    public int groups;
    /** Whether every group is in the slots (false after {@link #append1} and the like). */
    private boolean indexed = true;
    public final long[] scratch;
    private final HashMap<String, Integer> internIds = new HashMap<>();
    private final ArrayList<String> interned = new ArrayList<>();

    /** {@code nullableKeys}: the last of the {@code width} key words is a mask of the key columns that are NULL. */
    public HashGroupTable(AggSpec[] aggs, int width, boolean nullableKeys, boolean murmur, int expectedGroups) {
        this(aggs, width, nullableKeys ? width - 1 : -1, murmur, Math.min(expectedGroups, 1 << 16));
    }

    /**
     * A table with room for {@code groups} groups before it grows, not capped as an estimate is: for a count known
     * to bound the groups (the rows a partition holds), so that the table is not rehashed as it fills.
     */
    static HashGroupTable withRoomFor(AggSpec[] aggs, int width, boolean nullableKeys, boolean murmur, int groups) {
        return new HashGroupTable(aggs, width, nullableKeys ? width - 1 : -1, murmur, groups);
    }

    /** A table with room for {@code capacity} groups (at least 16) before it grows. */
    private HashGroupTable(AggSpec[] aggs, int width, int nullMaskWord, boolean murmur, int capacity) {
        super(aggs, Math.max(16, capacity));
        this.width = width;
        this.nullMaskWord = nullMaskWord;
        this.murmur = murmur;
        this.keys = new long[this.capacity * Math.max(1, width)];
        this.bits = Hashing.bitsFor(this.capacity);
        this.mask = (1 << bits) - 1;
        this.slots = new int[1 << bits];
        this.scratch = new long[Math.max(1, width)];
    }

    public long intern(String s) {
        Integer id = internIds.get(s);
        if (id == null) {
            id = interned.size();
            interned.add(s);
            internIds.put(s, id);
        }
        return id;
    }

    public String internedString(long id) {
        return interned.get((int) id);
    }

    public int find1(long k0) {
        int s = Hashing.hash(k0, bits, murmur);
        while (true) {
            int g = slots[s] - 1;
            if (g < 0) {
                return insert(s, k0, 0, null);
            }
            if (keys[g] == k0) {
                return g;
            }
            s = (s + 1) & mask;
        }
    }

    public int find2(long k0, long k1) {
        int s = Hashing.hash(Hashing.combine(Hashing.combine(0, k0), k1), bits, murmur);
        while (true) {
            int g = slots[s] - 1;
            if (g < 0) {
                return insert(s, k0, k1, null);
            }
            if (keys[2 * g] == k0 && keys[2 * g + 1] == k1) {
                return g;
            }
            s = (s + 1) & mask;
        }
    }

    /** Finds or inserts the group whose encoded key is in {@link #scratch}. */
    public int findN() {
        long[] k = scratch;
        long h = 0;
        for (int i = 0; i < width; i++) {
            h = Hashing.combine(h, k[i]);
        }
        int s = Hashing.hash(h, bits, murmur);
        while (true) {
            int g = slots[s] - 1;
            if (g < 0) {
                return insert(s, 0, 0, k);
            }
            boolean same = true;
            for (int i = 0; i < width && same; i++) {
                same = keys[g * width + i] == k[i];
            }
            if (same) {
                return g;
            }
            s = (s + 1) & mask;
        }
    }

    private int insert(int slot, long k0, long k1, long[] k) {
        int g = add(k0, k1, k);
        slots[slot] = g + 1;
        if (groups * 2 > slots.length) {
            rehash();
        }
        return g;
    }

    /** A new group of these keys (words k0, k1, or {@code k} when wider), not yet in the slots. */
    private int add(long k0, long k1, long[] k) {
        int g = groups++;
        if (g == capacity) {
            growAggregates(capacity * 2);
            keys = Arrays.copyOf(keys, capacity * Math.max(1, width));
        }
        if (k != null) {
            System.arraycopy(k, 0, keys, g * width, width);
        } else if (width == 1) {
            keys[g] = k0;
        } else {
            keys[2 * g] = k0;
            keys[2 * g + 1] = k1;
        }
        return g;
    }

    /**
     * Appends a group of key {@code k0} without looking it up (agg=ordered: a run of equal keys is one group, found
     * without the slots); the table is then looked up in only after {@link #index()}.
     */
    public int append1(long k0) {
        indexed = false;
        return add(k0, 0, null);
    }

    /** {@link #append1} of a key of two words. */
    public int append2(long k0, long k1) {
        indexed = false;
        return add(k0, k1, null);
    }

    /** {@link #append1} of the key in {@link #scratch}. */
    public int appendN() {
        indexed = false;
        return add(0, 0, scratch);
    }

    /**
     * The slots made over the groups after groups were appended; equal keys appended twice stay two groups (a merge
     * into another table combines them).
     */
    void index() {
        if (!indexed) {
            bits = Hashing.bitsFor(Math.max(16, groups)) - 1; // rehash takes one bit more
            rehash();
            indexed = true;
        }
    }

    /** Whether groups were appended since the slots were last made ({@link #index()}). */
    boolean appended() {
        return !indexed;
    }

    /** Word i of group g's key. */
    long keyWord(int g, int i) {
        return keys[g * width + i];
    }

    /**
     * Removes groups (each index once, in descending order): the last group moves into each hole, so the groups
     * stay 0 .. groups - 1 in another order. The slots are made again before the next lookup.
     */
    void removeGroups(int[] descending) {
        for (int hole : descending) {
            int last = groups - 1;
            if (hole != last) {
                System.arraycopy(keys, last * width, keys, hole * width, width);
                moveGroup(last, hole);
            }
            groups--;
        }
        if (descending.length > 0) {
            indexed = false;
        }
    }

    private void rehash() {
        bits++;
        mask = (1 << bits) - 1;
        slots = new int[1 << bits];
        for (int g = 0; g < groups; g++) {
            long h;
            if (width == 1) {
                h = keys[g];
            } else if (width == 2) {
                h = Hashing.combine(Hashing.combine(0, keys[2 * g]), keys[2 * g + 1]);
            } else {
                h = 0;
                for (int i = 0; i < width; i++) {
                    h = Hashing.combine(h, keys[g * width + i]);
                }
            }
            int s = Hashing.hash(h, bits, murmur);
            while (slots[s] != 0) {
                s = (s + 1) & mask;
            }
            slots[s] = g + 1;
        }
    }

    /** An empty table of the same keys, aggregates and hash, with room for {@code expectedGroups} groups (known, not estimated). */
    HashGroupTable emptyLike(int expectedGroups) {
        return new HashGroupTable(aggs, width, nullMaskWord, murmur, expectedGroups);
    }

    /**
     * The hash that spreads group g over partitions (as the emitted code spreads rows over stripes and partitions):
     * a string key's content hash, not its id, which differs from table to table.
     */
    long spreadingHash(int g, boolean[] stringKeys) {
        long h = 0;
        for (int i = 0; i < width; i++) {
            long v = keys[g * width + i];
            if (i < stringKeys.length && stringKeys[i] && !isNullKey(g, i)) {
                v = internedString(v).hashCode();
            }
            h = width == 1 ? v : Hashing.combine(h, v);
        }
        return h;
    }

    /** Merges another worker's table; {@code stringKeys[i]} marks key columns holding interned ids. */
    public void mergeFrom(HashGroupTable other, boolean[] stringKeys) {
        mergeGroups(other, null, other.groups, stringKeys);
    }

    /** Merges groups {@code groups[0 .. count)} of another table (null: its groups 0 .. count - 1). */
    void mergeGroups(HashGroupTable other, int[] groups, int count, boolean[] stringKeys) {
        index();
        for (int j = 0; j < count; j++) {
            int g = groups == null ? j : groups[j];
            for (int i = 0; i < width; i++) {
                long v = other.keys[g * width + i];
                if (i < stringKeys.length && stringKeys[i] && !other.isNullKey(g, i)) {
                    v = intern(other.internedString(v));
                }
                scratch[i] = v;
            }
            int to = width == 1 ? find1(scratch[0]) : width == 2 ? find2(scratch[0], scratch[1]) : findN();
            combine(other, g, to);
        }
    }

    /**
     * Merges a dense array of the same keys and aggregates (a block-by-block run that changed agg): each used slot's
     * keys are encoded as the hash variants encode them (the raw value, a NULL as 0 with its bit in the NULL mask).
     */
    public void mergeFrom(DenseGroupTable other) {
        index();
        int nk = other.sizes.length;
        if (nk + (nullMaskWord >= 0 ? 1 : 0) != width) {
            throw new IllegalArgumentException("a dense table of " + nk + " keys into a hash table of width " + width);
        }
        for (int g = 0; g < other.slots(); g++) {
            if (other.rows[g] == 0) {
                continue;
            }
            long nulls = 0;
            for (int i = 0; i < nk; i++) {
                Long raw = other.key(g, i);
                if (raw == null && nullMaskWord < 0) {
                    throw new IllegalStateException("a NULL key in a dense table whose keys are not nullable");
                }
                scratch[i] = raw == null ? 0 : raw;
                nulls |= raw == null ? 1L << i : 0;
            }
            if (nullMaskWord >= 0) {
                scratch[nullMaskWord] = nulls;
            }
            int to = width == 1 ? find1(scratch[0]) : width == 2 ? find2(scratch[0], scratch[1]) : findN();
            combine(other, g, to);
        }
    }

    /** Whether key column i of group g is NULL. */
    public boolean isNullKey(int g, int i) {
        return nullMaskWord >= 0 && (keys[g * width + nullMaskWord] & (1L << i)) != 0;
    }
}

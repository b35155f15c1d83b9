package io.tessera.backend.host.sort;

import io.tessera.backend.ValueKind;
import io.tessera.backend.host.HostWorkers;
import io.tessera.backend.host.RowBuffer;
import io.tessera.plan.SortKey;
import io.tessera.storage.CodePointOrder;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The sort keys of some rows of a buffer as one unsigned bit string per row that orders the rows as ORDER BY does.
 * Per key, a NULL bit where any of the rows holds a NULL in it (0 for the end the NULLs go to first), then the
 * value's distance from the smallest value (ascending) or from the largest (descending) in as few bits as the
 * values' range needs: a key whose rows all hold one value takes no bits. A value is a long that compares as the
 * column's values: integers as they are, VARCHAR codes as they are (their dictionary is order-preserving, and one
 * column of one buffer holds codes of one dictionary), a BOOLEAN 0 or 1, a DOUBLE's bits turned so that signed
 * order is {@link Double#compare}'s (-0.0 as 0.0, every NaN as one, after +Infinity), and strings that a union
 * left undecoded their rank among the distinct strings by code point.
 *
 * <p>Where the key bits and an encoded row's number fit 63 bits, each row is one long, the key bits above the
 * number ({@link #packed}): distinct for every row, and ordered as the keys and then the rows are. Else the key bits
 * are cut into words of 64 ({@link #words}), compared as unsigned numbers, the row's number after them.
 */
final class KeyEncoding {

    /** Rows encoded; encoded row i is buffer row {@code rows[i]}, or i where {@code rows} is null. */
    final int count;
    final int[] rows;
    /** Per key, its bits in the string (its NULL bit included) and whether it has a NULL bit. */
    final int[] fieldBits;
    private final boolean[] nullBit;
    private final long[] base;
    final int keyBits;
    final int rowBits;
    /** One long per encoded row (key bits, then the row number), or null where they do not fit. */
    final long[] packed;
    /** Per word of 64 key bits, its value of each encoded row (null where {@link #packed} holds the keys). */
    final long[][] words;

    private final RowBuffer b;
    private final SortKey[] keys;
    private final long[][] stringRanks;
    /** Rows per chunk of the encoding's passes. */
    private static final int CHUNK = 16384;

    private KeyEncoding(RowBuffer b, SortKey[] keys, int[] rows, int count, HostWorkers w) {
        this.b = b;
        this.keys = keys;
        this.rows = rows;
        this.count = count;
        int nk = keys.length;
        stringRanks = new long[nk][];
        for (int k = 0; k < nk; k++) {
            if (b.kinds[keys[k].column()] == ValueKind.STRING) {
                stringRanks[k] = ranks(keys[k].column());
            }
        }
        Range[] ranges = ranges(w);
        fieldBits = new int[nk];
        nullBit = new boolean[nk];
        base = new long[nk];
        int bits = 0;
        for (int k = 0; k < nk; k++) {
            Range r = ranges[k];
            nullBit[k] = r.nulls;
            int valueBits = r.values ? 64 - Long.numberOfLeadingZeros(r.max - r.min) : 0;
            fieldBits[k] = valueBits + (r.nulls ? 1 : 0);
            base[k] = keys[k].descending() ? r.max : r.min;
            bits += fieldBits[k];
        }
        keyBits = bits;
        rowBits = count <= 1 ? 0 : 32 - Integer.numberOfLeadingZeros(count - 1);
        if (keyBits + rowBits <= 63) {
            packed = new long[count];
            words = null;
            w.chunks(count, CHUNK, this::packRows);
        } else {
            packed = null;
            words = new long[(keyBits + 63) >>> 6][count];
            w.chunks(count, CHUNK, this::wordRows);
        }
    }

    /** Encodes the keys of buffer rows {@code rows[0 .. count)} (every row of the buffer where rows is null). */
    static KeyEncoding of(RowBuffer b, SortKey[] keys, int[] rows, int count, HostWorkers w) {
        return new KeyEncoding(b, keys, rows, count, w);
    }

    /** The buffer row of encoded row i. */
    int row(int i) {
        return rows == null ? i : rows[i];
    }

    /** Unsigned order of encoded rows i and j by their key words, then by their numbers (words only). */
    int compareWords(int i, int j) {
        for (long[] wd : words) {
            int c = Long.compareUnsigned(wd[i], wd[j]);
            if (c != 0) {
                return c;
            }
        }
        return Integer.compare(i, j);
    }

    /** The bits of the first {@code keyCount} keys. */
    int prefixBits(int keyCount) {
        int prefix = 0;
        for (int k = 0; k < keyCount; k++) {
            prefix += fieldBits[k];
        }
        return prefix;
    }

    /** Whether encoded rows i and j are equal in their first {@code keyCount} keys. */
    boolean sameKeys(int i, int j, int keyCount) {
        int prefix = prefixBits(keyCount);
        if (prefix == 0) {
            return true;
        }
        if (packed != null) {
            int shift = rowBits + keyBits - prefix;
            return packed[i] >>> shift == packed[j] >>> shift;
        }
        int whole = prefix >>> 6;
        for (int wd = 0; wd < whole; wd++) {
            if (words[wd][i] != words[wd][j]) {
                return false;
            }
        }
        int rest = prefix & 63;
        return rest == 0 || (words[whole][i] ^ words[whole][j]) >>> (64 - rest) == 0;
    }

    /** The smallest and largest value of a key over the rows, and whether a row holds a value or a NULL. */
    private static final class Range {
        long min = Long.MAX_VALUE;
        long max = Long.MIN_VALUE;
        boolean values;
        boolean nulls;

        void add(Range o) {
            min = Math.min(min, o.min);
            max = Math.max(max, o.max);
            values |= o.values;
            nulls |= o.nulls;
        }
    }

    private Range[] ranges(HostWorkers w) {
        int nk = keys.length;
        List<Range[]> parts = java.util.Collections.synchronizedList(new ArrayList<>());
        w.chunks(count, CHUNK, (from, to) -> {
            Range[] part = new Range[nk];
            long[] v = new long[to - from];
            boolean[] isNull = new boolean[to - from];
            for (int k = 0; k < nk; k++) {
                Range r = part[k] = new Range();
                boolean nulls = values(k, from, to, v, isNull);
                long min = Long.MAX_VALUE;
                long max = Long.MIN_VALUE;
                boolean any = false;
                for (int i = 0; i < v.length; i++) {
                    if (!nulls || !isNull[i]) {
                        min = Math.min(min, v[i]);
                        max = Math.max(max, v[i]);
                        any = true;
                    }
                }
                r.min = min;
                r.max = max;
                r.values = any;
                r.nulls = nulls;
            }
            parts.add(part);
        });
        Range[] all = new Range[nk];
        for (int k = 0; k < nk; k++) {
            all[k] = new Range();
            for (Range[] p : parts) {
                all[k].add(p[k]);
            }
        }
        return all;
    }

    /**
     * Key k's values of encoded rows {@code [from, to)} into {@code v} (from index 0), NULLs marked in
     * {@code isNull}; returns whether there is a NULL (isNull is left as it was where there is none).
     */
    private boolean values(int k, int from, int to, long[] v, boolean[] isNull) {
        int c = keys[k].column();
        switch (b.kinds[c]) {
            case INT, CODE -> {
                int[] a = b.ints[c];
                for (int i = from; i < to; i++) {
                    v[i - from] = a[row(i)];
                }
            }
            case LONG -> {
                long[] a = b.longs[c];
                for (int i = from; i < to; i++) {
                    v[i - from] = a[row(i)];
                }
            }
            case BOOL -> {
                byte[] a = b.bytes[c];
                for (int i = from; i < to; i++) {
                    v[i - from] = a[row(i)];
                }
            }
            case DOUBLE -> {
                double[] a = b.doubles[c];
                for (int i = from; i < to; i++) {
                    v[i - from] = doubleOrder(a[row(i)]);
                }
            }
            case STRING -> System.arraycopy(stringRanks[k], from, v, 0, to - from);
        }
        long[] nulls = b.nulls[c];
        if (nulls == null) {
            return false;
        }
        boolean any = false;
        for (int i = from; i < to; i++) {
            int r = row(i);
            boolean n = (nulls[r >>> 6] & (1L << r)) != 0;
            isNull[i - from] = n;
            any |= n;
        }
        return any;
    }

    /** Key k's value bits: its field's bits less its NULL bit. */
    private int valueBits(int k) {
        return fieldBits[k] - (nullBit[k] ? 1 : 0);
    }

    /**
     * Key k's fields of encoded rows {@code [from, to)} (all but a NULL bit where the key has 64 value bits: its
     * NULL bits then go to {@code nullBits}), from its values and NULL marks.
     */
    private void fields(int k, long[] v, boolean[] isNull, boolean nulls, long[] out, long[] nullBits) {
        int vb = valueBits(k);
        long top = vb == 64 ? 0 : 1L << vb;
        boolean desc = keys[k].descending();
        boolean first = keys[k].nullsFirst();
        long bs = base[k];
        // the NULL bit: 0 for the rows that go first
        long valueBit = nullBit[k] && first ? top : 0;
        long nullValue = first ? 0 : top;
        for (int i = 0; i < v.length; i++) {
            long f;
            if (nulls && isNull[i]) {
                f = nullValue;
            } else {
                f = (desc ? bs - v[i] : v[i] - bs) | valueBit;
            }
            out[i] = f;
            if (nullBits != null) {
                nullBits[i] = (nulls && isNull[i]) == first ? 0 : 1;
            }
        }
    }

    private void packRows(int from, int to) {
        int len = to - from;
        long[] acc = new long[len];
        long[] v = new long[len];
        boolean[] isNull = new boolean[len];
        long[] f = new long[len];
        for (int k = 0; k < keys.length; k++) {
            int fb = fieldBits[k];
            if (fb == 0) {
                continue;
            }
            fields(k, v, isNull, values(k, from, to, v, isNull), f, null);
            for (int i = 0; i < len; i++) {
                acc[i] = acc[i] << fb | f[i];
            }
        }
        for (int i = 0; i < len; i++) {
            packed[from + i] = acc[i] << rowBits | (from + i);
        }
    }

    private void wordRows(int from, int to) {
        if (keyBits <= 64) {
            oneWord(from, to);
            return;
        }
        int len = to - from;
        int nk = keys.length;
        long[][] f = new long[nk][];
        long[][] nullBits = new long[nk][];
        long[] v = new long[len];
        boolean[] isNull = new boolean[len];
        for (int k = 0; k < nk; k++) {
            if (fieldBits[k] != 0) {
                f[k] = new long[len];
                nullBits[k] = fieldBits[k] == 65 ? new long[len] : null;
                fields(k, v, isNull, values(k, from, to, v, isNull), f[k], nullBits[k]);
            }
        }
        long[] out = new long[words.length];
        for (int i = 0; i < len; i++) {
            Arrays.fill(out, 0);
            int at = 0;
            for (int k = 0; k < nk; k++) {
                int fb = fieldBits[k];
                if (fb == 65) {
                    // a NULL bit over 64 value bits: one bit, then a whole long
                    append(out, at, nullBits[k][i], 1);
                    append(out, at + 1, f[k][i], 64);
                } else if (fb != 0) {
                    append(out, at, f[k][i], fb);
                }
                at += fb;
            }
            for (int wd = 0; wd < out.length; wd++) {
                words[wd][from + i] = out[wd];
            }
        }
    }

    /** Keys of at most 64 bits: packed as {@link #packRows} packs them, then moved to the top of the word. */
    private void oneWord(int from, int to) {
        int len = to - from;
        long[] acc = new long[len];
        long[] v = new long[len];
        boolean[] isNull = new boolean[len];
        long[] f = new long[len];
        for (int k = 0; k < keys.length; k++) {
            int fb = fieldBits[k];
            if (fb == 0) {
                continue;
            }
            fields(k, v, isNull, values(k, from, to, v, isNull), f, null);
            for (int i = 0; i < len; i++) {
                acc[i] = fb == 64 ? f[i] : acc[i] << fb | f[i];
            }
        }
        int shift = 64 - keyBits;
        long[] word = words[0];
        for (int i = 0; i < len; i++) {
            word[from + i] = shift == 64 ? 0 : acc[i] << shift;
        }
    }

    /** Writes the low {@code bits} bits of f at bit {@code at} of the string (bit 0: the top bit of word 0). */
    private static void append(long[] out, int at, long f, int bits) {
        int wd = at >>> 6;
        int free = 64 - (at & 63);
        if (bits <= free) {
            out[wd] |= f << (free - bits);
        } else {
            int spill = bits - free;
            out[wd] |= f >>> spill;
            out[wd + 1] |= f << (64 - spill);
        }
    }

    /** A double as a long whose signed order is that of {@link Double#compare}, with -0.0 equal to 0.0. */
    static long doubleOrder(double d) {
        long bits = Double.doubleToLongBits(d + 0.0);
        return bits ^ ((bits >> 63) & Long.MAX_VALUE);
    }

    /** The rank of each encoded row's string of column c among the rows' distinct strings, by code point. */
    private long[] ranks(int c) {
        Map<String, Integer> distinct = new HashMap<>();
        for (int i = 0; i < count; i++) {
            int r = row(i);
            if (!b.isNull(c, r)) {
                distinct.putIfAbsent(b.strings[c][r], 0);
            }
        }
        String[] sorted = distinct.keySet().toArray(new String[0]);
        Arrays.sort(sorted, CodePointOrder.ORDER);
        for (int i = 0; i < sorted.length; i++) {
            distinct.put(sorted[i], i);
        }
        long[] out = new long[count];
        for (int i = 0; i < count; i++) {
            int r = row(i);
            out[i] = b.isNull(c, r) ? 0 : distinct.get(b.strings[c][r]);
        }
        return out;
    }
}

package io.tessera.backend.jvm.aggregate;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Function;

/**
 * The values of one holistic aggregate (a quantile, MODE, STRING_AGG) in one group, in the order they came: numbers
 * as longs (integers, DECIMAL unscaled, dates, timestamps, booleans as 0 and 1, dictionary codes) or doubles, or
 * strings. When group tables are merged, another worker's list of the same group is appended by reference
 * ({@link #append}); {@link HolisticValues} reads them all when the group's value is computed.
 */
public final class ValueList {

    private long[] longs;
    private double[] doubles;
    private String[] strings;
    /** Each value's ORDER BY keys, where the aggregate has an ORDER BY (else null). */
    private Object[][] keys;
    private int size;
    /** Lists of other workers whose values follow this one's (null: none). */
    private List<ValueList> appended;

    public void add(long v) {
        if (longs == null) {
            longs = new long[4];
        } else if (size == longs.length) {
            longs = Arrays.copyOf(longs, grown());
        }
        longs[size++] = v;
    }

    public void add(double v) {
        if (doubles == null) {
            doubles = new double[4];
        } else if (size == doubles.length) {
            doubles = Arrays.copyOf(doubles, grown());
        }
        doubles[size++] = v;
    }

    public void add(String v) {
        if (strings == null) {
            strings = new String[4];
        } else if (size == strings.length) {
            strings = Arrays.copyOf(strings, grown());
        }
        strings[size++] = v;
    }

    /** Adds a string with its ORDER BY keys. */
    public void add(String v, Object[] orderKeys) {
        key(orderKeys);
        add(v);
    }

    public void add(long v, Object[] orderKeys) {
        key(orderKeys);
        add(v);
    }

    public void add(double v, Object[] orderKeys) {
        key(orderKeys);
        add(v);
    }

    /** Keeps the ORDER BY keys of the value about to be added. */
    private void key(Object[] orderKeys) {
        if (keys == null) {
            keys = new Object[Math.max(4, size)][];
        } else if (size == keys.length) {
            keys = Arrays.copyOf(keys, grown());
        }
        keys[size] = orderKeys;
    }

    private int grown() {
        if (size >= Integer.MAX_VALUE - 8) {
            throw new IllegalStateException("more than 2^31 values in one group of a holistic aggregate");
        }
        return (int) Math.min(Integer.MAX_VALUE - 8, size * 2L);
    }

    /** Notes that {@code other}'s values (another worker's, of the same group) follow this list's. */
    void append(ValueList other) {
        if (appended == null) {
            appended = new ArrayList<>();
        }
        appended.add(other);
        if (other.appended != null) {
            appended.addAll(other.appended);
            other.appended = null;
        }
    }

    /** Every value, this list's and the appended lists', as one array of longs. */
    long[] allLongs() {
        return all(new long[total()], l -> l.longs);
    }

    double[] allDoubles() {
        return all(new double[total()], l -> l.doubles);
    }

    String[] allStrings() {
        return all(new String[total()], l -> l.strings);
    }

    /** Every value's ORDER BY keys, in the order of {@link #allLongs}, {@link #allDoubles} or {@link #allStrings}. */
    Object[][] allKeys() {
        return all(new Object[total()][], l -> l.keys);
    }

    /** {@code out} filled with the array {@code of} picks from each list, this one's first, one after another. */
    private <A> A all(A out, Function<ValueList, A> of) {
        int at = 0;
        for (ValueList l : parts()) {
            if (l.size > 0) {
                System.arraycopy(of.apply(l), 0, out, at, l.size);
                at += l.size;
            }
        }
        return out;
    }

    private List<ValueList> parts() {
        List<ValueList> all = new ArrayList<>();
        all.add(this);
        if (appended != null) {
            all.addAll(appended);
        }
        return all;
    }

    private int total() {
        long n = 0;
        for (ValueList l : parts()) {
            n += l.size;
        }
        if (n > Integer.MAX_VALUE - 8) {
            throw new IllegalStateException("more than 2^31 values in one group of a holistic aggregate");
        }
        return (int) n;
    }
}

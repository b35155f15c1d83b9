package io.tessera.storage;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A VARCHAR builder's local dictionary held as UTF-8 bytes end to end, for values that arrive as bytes (a Parquet
 * page's strings): no String is made per value, and the writer sorts these bytes as they are ({@link StringRuns}).
 * Value i is {@code bytes()[starts()[i], starts()[i + 1])}. Values are looked up as {@link ColumnBuilder#localCode}
 * looks them up: by hash until the first {@value #PROBE_LOOKUPS} lookups were nearly all new, then each value gets
 * a code of its own (the writer merges repeats when it sorts).
 */
final class LocalUtf8 {

    private static final int PROBE_LOOKUPS = 4096;

    private byte[] bytes = new byte[1024];
    private int[] starts = new int[65];
    private int count;
    /** Open addressing, each slot {@code hash << 32 | code + 1} (0: empty), at most three quarters full. */
    private long[] slots = new long[16];
    private int lookups;
    private boolean unlooked;

    /** The code of {@code b[from, from + len)} (valid UTF-8), added when new. */
    int code(byte[] b, int from, int len) {
        if (unlooked) {
            return add(b, from, len);
        }
        if (++lookups == PROBE_LOOKUPS && count > PROBE_LOOKUPS - PROBE_LOOKUPS / 8) {
            unlooked = true;
            slots = null;
            return add(b, from, len);
        }
        int h = hash(b, from, len) * 0x9E3779B9;
        int mask = slots.length - 1;
        for (int i = h >>> 7 & mask; ; i = (i + 1) & mask) {
            long slot = slots[i];
            if (slot == 0) {
                int code = add(b, from, len);
                slots[i] = (long) h << 32 | (code + 1L);
                if (4L * count > 3L * slots.length) {
                    grow();
                }
                return code;
            }
            if ((int) (slot >>> 32) == h) {
                int code = (int) slot - 1;
                if (Arrays.equals(bytes, starts[code], starts[code + 1], b, from, from + len)) {
                    return code;
                }
            }
        }
    }

    private static int hash(byte[] b, int from, int len) {
        int h = len;
        for (int i = from; i < from + len; i++) {
            h = 31 * h + b[i];
        }
        return h;
    }

    /** Room for {@code values} more values of {@code more} bytes together beyond those held. */
    void reserve(int values, int more) {
        if (starts.length - count - 1 < values) {
            starts = Arrays.copyOf(starts, (int) Math.min(Integer.MAX_VALUE - 16,
                    Math.max((long) count + 1 + values, 2L * starts.length)));
        }
        reserve(more);
    }

    /** Room for {@code more} bytes beyond those held. */
    private void reserve(int more) {
        int end = starts[count];
        if (bytes.length - end < more) {
            long want = Math.max((long) end + more, (long) bytes.length * 2);
            if (want > Integer.MAX_VALUE - 16) {
                throw new IllegalStateException("a batch's strings hold more than 2 GB");
            }
            bytes = Arrays.copyOf(bytes, (int) want);
        }
    }

    private int add(byte[] b, int from, int len) {
        int end = starts[count];
        reserve(len);
        System.arraycopy(b, from, bytes, end, len);
        if (count + 2 > starts.length) {
            starts = Arrays.copyOf(starts, starts.length * 2);
        }
        starts[++count] = end + len;
        return count - 1;
    }

    private void grow() {
        long[] t = new long[slots.length * 2];
        int mask = t.length - 1;
        for (long slot : slots) {
            if (slot != 0) {
                int i = (int) (slot >>> 32) >>> 7 & mask;
                while (t[i] != 0) {
                    i = (i + 1) & mask;
                }
                t[i] = slot;
            }
        }
        slots = t;
    }

    /** Holds no value again, keeping the bytes' and offsets' arrays. */
    void clear() {
        count = 0;
        starts[0] = 0;
        slots = new long[16];
        lookups = 0;
        unlooked = false;
    }

    int count() {
        return count;
    }

    byte[] bytes() {
        return bytes;
    }

    /** {@code count() + 1} offsets: value i's bytes start at {@code starts()[i]} and end where value i + 1 starts. */
    int[] starts() {
        return starts;
    }

    String value(int i) {
        return new String(bytes, starts[i], starts[i + 1] - starts[i], StandardCharsets.UTF_8);
    }
}

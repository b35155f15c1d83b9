package io.tessera.storage;

/**
 * Strings held as UTF-8 bytes end to end, copied into buckets by their first two bytes (zero-padded, unsigned): every
 * string of a bucket sorts before every string of a later bucket, and equal strings share a bucket. A large part's
 * strings fill an array many times the size of the caches, which a sort reads at random (a cache miss per string at
 * every level of the sort, and again when the sorted strings are copied out); the strings of one bucket lie close
 * together, so sorting and copying the buckets one by one reads them from the caches. Costs one sequential copy.
 *
 * <p>Value v of the buckets is {@code bytes[starts[v], starts[v + 1])}, value {@code origin[v]} of the input; bucket b
 * holds values {@code [bounds[b], bounds[b + 1])}.
 */
final class Utf8Buckets {

    /** Bytes of strings below which the input stays as it is: it fits the caches already. */
    static final int MIN_BYTES = 1 << 20;

    final byte[] bytes;
    final int[] starts;
    final int[] origin;
    final int[] bounds;

    private Utf8Buckets(byte[] bytes, int[] starts, int[] origin, int[] bounds) {
        this.bytes = bytes;
        this.starts = starts;
        this.origin = origin;
        this.bounds = bounds;
    }

    /** Buckets count. */
    int count() {
        return bounds.length - 1;
    }

    /**
     * The n values of {@code bytes[starts[i], starts[i + 1])} in buckets, or null where bucketing gains nothing: the
     * strings fit the caches, or nearly all of them share their first two bytes.
     */
    static Utf8Buckets of(byte[] bytes, int[] starts, int n) {
        int total = starts[n] - starts[0];
        if (total < MIN_BYTES) {
            return null;
        }
        int[] count = new int[1 << 16];
        int[] size = new int[1 << 16];
        for (int i = 0; i < n; i++) {
            int k = key(bytes, starts[i], starts[i + 1]);
            count[k]++;
            size[k] += starts[i + 1] - starts[i];
        }
        int used = 0;
        int largest = 0;
        for (int c : count) {
            used += c == 0 ? 0 : 1;
            largest = Math.max(largest, c);
        }
        if (largest > n - n / 8) {
            return null;
        }
        // count[k] becomes bucket k's next value, size[k] its next byte; bounds lists the buckets that hold any
        int[] bounds = new int[used + 1];
        int value = 0;
        int byteAt = 0;
        for (int k = 0, b = 0; k < count.length; k++) {
            int c = count[k];
            if (c != 0) {
                bounds[b++] = value;
                count[k] = value;
                value += c;
                int s = size[k];
                size[k] = byteAt;
                byteAt += s;
            }
        }
        bounds[used] = n;
        byte[] out = new byte[total];
        int[] outStarts = new int[n + 1];
        int[] origin = new int[n];
        for (int i = 0; i < n; i++) {
            int from = starts[i];
            int len = starts[i + 1] - from;
            int k = key(bytes, from, from + len);
            int v = count[k]++;
            int b = size[k];
            size[k] = b + len;
            outStarts[v] = b;
            origin[v] = i;
            System.arraycopy(bytes, from, out, b, len);
        }
        outStarts[n] = total;
        return new Utf8Buckets(out, outStarts, origin, bounds);
    }

    /** A string's first two bytes as an unsigned number, zero-padded: the order of strings, coarsened. */
    private static int key(byte[] bytes, int from, int to) {
        int len = to - from;
        if (len >= 2) {
            return (bytes[from] & 0xff) << 8 | bytes[from + 1] & 0xff;
        }
        return len == 1 ? (bytes[from] & 0xff) << 8 : 0;
    }
}

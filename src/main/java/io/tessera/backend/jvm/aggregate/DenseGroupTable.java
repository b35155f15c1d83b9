package io.tessera.backend.jvm.aggregate;

/**
 * Groups in a dense array: the group index is computed from the keys ({@code sum((k_i - min_i) * stride_i)}), each
 * key's range having one extra slot for NULL. {@code rows[g]} counts the rows of group g (0: no such group).
 * With no keys it holds the single group of an aggregate without GROUP BY.
 */
public final class DenseGroupTable extends GroupTable {

    public final long[] mins;
    public final long[] sizes;
    public final long[] rows;

    public DenseGroupTable(AggSpec[] aggs, long[] mins, long[] sizes) {
        super(aggs, size(sizes));
        this.mins = mins;
        this.sizes = sizes;
        this.rows = new long[capacity];
    }

    private static int size(long[] sizes) {
        long n = 1;
        for (long s : sizes) {
            n = Math.multiplyExact(n, s);
        }
        if (n > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException("dense group table of " + n + " slots");
        }
        return (int) n;
    }

    public int slots() {
        return capacity;
    }

    public void mergeFrom(DenseGroupTable other) {
        mergeFrom(other, 0, capacity);
    }

    /** Merges slots {@code [from, to)} of another worker's array (workers may merge disjoint ranges at once). */
    void mergeFrom(DenseGroupTable other, int from, int to) {
        for (int g = from; g < to; g++) {
            if (other.rows[g] > 0) {
                combine(other, g, g);
                rows[g] += other.rows[g];
            }
        }
    }

    /** Raw key i of group g, or null when that key is NULL (its extra slot). */
    public Long key(int g, int i) {
        long rest = g;
        for (int k = sizes.length - 1; k > i; k--) {
            rest /= sizes[k];
        }
        long off = rest % sizes[i];
        return off == sizes[i] - 1 ? null : mins[i] + off;
    }
}

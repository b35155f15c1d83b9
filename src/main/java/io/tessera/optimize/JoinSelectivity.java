package io.tessera.optimize;

import java.util.ArrayList;
import java.util.List;

/**
 * The fraction of row pairs an equi-join keeps: for each key, one over the larger distinct count of its two sides
 * (every value of the side with fewer values finds its match, as a foreign key finds its primary key), or where both
 * sides lost values at random, one over the larger domain ({@link #matched}). Several keys
 * are rarely independent (a part and a supplier key of a composite key, a nation key beside a customer key), so
 * the most selective counts fully and each further one with an exponentially smaller weight: s1 * s2^(1/2) *
 * s3^(1/4) ..., which stays between "only the best key" and "all keys independent". Where the keys' combinations
 * reach a side's rows, they are (nearly) a composite key of it, and are taken as one key ({@link #combined}).
 */
final class JoinSelectivity {

    /** An anti join keeps at least this fraction of its rows: "no match at all" is rarely known for sure. */
    static final double MIN_ANTI = 0.1;

    /** A column holds fewer values than its domain by more than this factor: it lost values at random. */
    static final double THINNED = 1.05;

    private JoinSelectivity() {
    }

    static double keys(List<Integer> leftKeys, List<Integer> rightKeys, List<ColumnEstimate> left,
                       List<ColumnEstimate> right, double leftRows, double rightRows) {
        List<Double> sels = new ArrayList<>();
        double nonNull = 1;
        for (int k = 0; k < leftKeys.size(); k++) {
            ColumnEstimate l = left.get(leftKeys.get(k));
            ColumnEstimate r = right.get(rightKeys.get(k));
            double keyNonNull = (1 - l.nullFraction()) * (1 - r.nullFraction());
            nonNull *= keyNonNull;
            sels.add(keyNonNull / matched(l.distinct(), l.domain(), r.distinct(), r.domain()));
        }
        return combined(sels, distinctProduct(leftKeys, left), leftRows, distinctProduct(rightKeys, right), rightRows,
                nonNull);
    }

    /**
     * The fraction of row pairs a join keeps from its keys' selectivities {@code sels}: where there are several keys
     * and their combinations (the product of their distinct counts) reach a side's rows, so that they are (nearly) a
     * composite key of that side, the {@link #composite} estimate; else the {@link #backoff} over the separate keys.
     */
    static double combined(List<Double> sels, double leftProduct, double leftRows, double rightProduct,
                           double rightRows, double nonNull) {
        if (sels.size() > 1 && (leftProduct >= leftRows || rightProduct >= rightRows)) {
            return composite(leftProduct, leftRows, rightProduct, rightRows, nonNull);
        }
        return backoff(sels);
    }

    /** The product of the distinct counts of these columns, each column once. */
    static double distinctProduct(List<Integer> keys, List<ColumnEstimate> columns) {
        double p = 1;
        for (int f : new java.util.TreeSet<>(keys)) {
            p *= columns.get(f).distinct();
        }
        return p;
    }

    /**
     * The values one equality divides the row pairs by. Where a side holds all of its domain, or values chosen by
     * value (a range on the key, a semi join on it: possibly the same choice as the other side's), the side with
     * fewer values is taken as contained in the other: the larger distinct count. Where both sides lost values at
     * random (filters on other columns, joins on other keys), a value of one is on the other only as often as the
     * other holds its share of the domain: the larger domain ({@link ColumnEstimate#domain}; Q8: the order keys of
     * the lineitem rows of a few parts and those of the orders of two years meet for 282 rows, not 4,985). A domain
     * no larger than the other side's values was chosen by them (a semi join with the relation the other side is
     * filtered from: Q2's part keys of the cheapest suppliers and the parts of the size and type they were found
     * for), and is taken as contained in them.
     */
    static double matched(double leftDistinct, double leftDomain, double rightDistinct, double rightDomain) {
        boolean bothThinned = leftDomain > leftDistinct * THINNED && rightDomain > rightDistinct * THINNED
                && leftDomain > rightDistinct && rightDomain > leftDistinct;
        return Math.max(1, bothThinned ? Math.max(leftDomain, rightDomain) : Math.max(leftDistinct, rightDistinct));
    }

    /**
     * The fraction of row pairs a join on several keys keeps with its keys taken as one composite key, whose distinct
     * combinations on a side are at most that side's rows: one over the larger side's combinations, as a foreign key
     * finds its primary key (Q9: lineitem joined with partsupp on part and supplier key keeps each lineitem row once,
     * where the backoff over the separate keys kept one in 80).
     */
    static double composite(double leftProduct, double leftRows, double rightProduct, double rightRows,
                            double nonNull) {
        double l = Math.min(leftProduct, Math.max(1, leftRows));
        double r = Math.min(rightProduct, Math.max(1, rightRows));
        return nonNull / Math.max(1, Math.max(l, r));
    }

    /** Selectivities combined with exponential backoff, most selective first; 1 for none. */
    static double backoff(List<Double> sels) {
        List<Double> sorted = new ArrayList<>(sels);
        sorted.sort(null);
        double s = 1;
        double weight = 1;
        for (double x : sorted) {
            s *= Math.pow(x, weight);
            weight /= 2;
        }
        return s;
    }

    /** The fraction of left rows that find a match (semi join): the share of left key values the right side has. */
    static double semi(List<Integer> leftKeys, List<Integer> rightKeys, List<ColumnEstimate> left,
                       List<ColumnEstimate> right) {
        if (leftKeys.isEmpty()) {
            return 0.5;
        }
        double found = 1;
        for (int k = 0; k < leftKeys.size(); k++) {
            ColumnEstimate l = left.get(leftKeys.get(k));
            ColumnEstimate r = right.get(rightKeys.get(k));
            found = Math.min(found, (1 - l.nullFraction()) * Math.min(1, r.distinct() / l.distinct()));
        }
        return found;
    }
}

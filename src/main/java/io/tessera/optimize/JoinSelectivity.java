package io.tessera.optimize;

import java.util.ArrayList;
import java.util.List;

/**
 * The fraction of row pairs an equi-join keeps: for each key, one over the larger distinct count of its two sides
 * (every value of the side with fewer values finds its match, as a foreign key finds its primary key). Several keys
 * are rarely independent (a part and a supplier key of a composite key, a nation key beside a customer key), so
 * the most selective counts fully and each further one with an exponentially smaller weight: s1 * s2^(1/2) *
 * s3^(1/4) ..., which stays between "only the best key" and "all keys independent".
 */
final class JoinSelectivity {

    /** An anti join keeps at least this fraction of its rows: "no match at all" is rarely known for sure. */
    static final double MIN_ANTI = 0.1;

    private JoinSelectivity() {
    }

    static double keys(List<Integer> leftKeys, List<Integer> rightKeys, List<ColumnEstimate> left,
                       List<ColumnEstimate> right) {
        List<Double> sels = new ArrayList<>();
        for (int k = 0; k < leftKeys.size(); k++) {
            ColumnEstimate l = left.get(leftKeys.get(k));
            ColumnEstimate r = right.get(rightKeys.get(k));
            double nonNull = (1 - l.nullFraction()) * (1 - r.nullFraction());
            sels.add(nonNull / Math.max(l.distinct(), r.distinct()));
        }
        return backoff(sels);
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

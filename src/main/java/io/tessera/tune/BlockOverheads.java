package io.tessera.tune;

import io.tessera.variant.Genome;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What a pipeline run in blocks spends outside its blocks on each code variant's sink state (making it before
 * the first block, merging it after the last), charged to the variant's blocks in equal shares. A run in one go
 * pays it too, but no block's time shows it: per-worker dense arrays of two million groups take milliseconds to
 * make and merge, a shared table of the same groups far less, while their blocks take about as long. Measured on
 * runs whose blocks all use the one variant: the median of their shares (a run may meet a collection).
 */
final class BlockOverheads {

    /** The dimensions that leave a block's code, and so its sink state, as it is. */
    private final Set<String> sameCode;
    private final Map<Genome, List<Double>> shares = new HashMap<>();

    BlockOverheads(Set<String> sameCode) {
        this.sameCode = Set.copyOf(sameCode);
    }

    /** Records a run whose {@code blocks} blocks all ran {@code g} and that spent {@code seconds} outside them. */
    void record(Genome g, double seconds, int blocks) {
        if (blocks > 0) {
            shares.computeIfAbsent(code(g), k -> new ArrayList<>()).add(seconds / blocks);
        }
    }

    /** The share of one block of {@code g}'s code (0 while none was recorded). */
    double perBlock(Genome g) {
        List<Double> s = shares.get(code(g));
        return s == null ? 0 : Remeasure.median(s.stream().mapToDouble(Double::doubleValue).toArray());
    }

    private Genome code(Genome g) {
        Genome out = g;
        for (String d : sameCode) {
            out = out.without(d);
        }
        return out;
    }
}

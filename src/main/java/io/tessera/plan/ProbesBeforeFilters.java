package io.tessera.plan;

import java.util.List;

/**
 * Moves a probe ahead of the filters just before it where it keeps fewer rows than they do and its table stays in a
 * core's cache: TPC-H Q21's lineitem scan kept 63% of its rows by comparing two dates, then kept 4% by probing the
 * Saudi suppliers; probed first, 96% of the rows are dropped after one lookup in a 40 KB table, the dates are read
 * for the rest only, and the comparison's branch (taken by chance) runs for few rows. A probe into a table larger
 * than a cache would miss it for most rows, where the filter costs a comparison: those stay after their filters.
 *
 * <p>Only probes that drop rows and add none move: inner probes that do not mark and semi probes, with no condition
 * of their own, whose keys are columns of the pipeline's source (valid before any filter) and whose estimated
 * matches per row are at most one. Filters then run on fewer rows, never on rows they did not see before.
 */
final class ProbesBeforeFilters {

    /** The largest table, in bytes of its index ({@link RuntimeFilters#tableBytes}), that a probe moves for. */
    static final double CACHED_TABLE_BYTES = 1 << 20;

    private ProbesBeforeFilters() {
    }

    /**
     * Reorders {@code ops} in place; {@code rows} holds the source's estimated rows and then those after each
     * operation, and moves with them.
     */
    static void apply(List<Operation> ops, List<Double> rows) {
        for (int i = 1; i < ops.size(); i++) {
            if (!(ops.get(i) instanceof Operation.Probe pr) || !movable(pr)) {
                continue;
            }
            int start = i;
            while (start > 0 && ops.get(start - 1) instanceof Operation.Filter) {
                start--;
            }
            double before = rowsAt(rows, start);
            double after = rows.get(i);
            double matches = PipelineAnalysis.matchesPerRow(pr);
            if (start == i || !(before > 0) || Double.isNaN(after) || !(matches < after / before)) {
                continue;
            }
            double probed = rows.get(i + 1);
            ops.remove(i);
            ops.add(start, pr);
            rows.remove(i + 1);
            rows.add(start + 1, before * matches);
            for (int k = start + 2; k <= i; k++) {
                rows.set(k, rows.get(k) * matches);
            }
            rows.set(i + 1, probed);
        }
    }

    /** The rows estimated before operation {@code index}: the last estimate at or before it. */
    private static double rowsAt(List<Double> rows, int index) {
        for (int k = index; k >= 0; k--) {
            if (!Double.isNaN(rows.get(k))) {
                return rows.get(k);
            }
        }
        return Double.NaN;
    }

    private static boolean movable(Operation.Probe pr) {
        boolean drops = pr.kind() == JoinKind.INNER && !pr.marks() || pr.kind() == JoinKind.SEMI;
        if (!drops || pr.residual() != null || pr.keys().isEmpty() || pr.build().keepsNullKeys()
                || PipelineAnalysis.matchesPerRow(pr) > 1.0
                || RuntimeFilters.tableBytes(pr.build()) > CACHED_TABLE_BYTES) {
            return false;
        }
        for (Expr k : pr.keys()) {
            if (!(k instanceof Expr.Ref r) || !r.slot().isSource()) {
                return false;
            }
        }
        return true;
    }
}

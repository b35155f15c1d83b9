package io.tessera.plan;

import java.util.List;

/**
 * Moves a probe ahead of the filters just before it where it keeps fewer rows than they do and its lookups are
 * cheap: TPC-H Q21's lineitem scan kept 63% of its rows by comparing two dates, then kept 4% by probing the Saudi
 * suppliers; probed first, 96% of the rows are dropped after one lookup in a 40 KB table, the dates are read for the
 * rest only, and the comparison's branch (taken by chance) runs for few rows. A lookup is cheap where the table
 * stays in a core's cache, or where its index is in key order (a perfect or ranged table) and the probing key is a
 * stored column whose values ascend with the row (lineitem's order key probing the orders: the slots are read in
 * order, as a scan reads). A probe into a larger table in no order would miss the cache for most rows, where the
 * filter costs a comparison: those stay after their filters.
 *
 * <p>Only probes that drop rows and add none move: inner probes that do not mark and semi probes, with no condition
 * of their own, whose keys are columns of the pipeline's source (valid before any filter) and whose estimated
 * matches per row are at most one. Filters then run on fewer rows, never on rows they did not see before. A mark
 * probe that ends its pipeline (its rows only set marks) takes the filters before it into its condition instead, on
 * the same terms: a row the filters drop marks nothing, and the filters are then tested only for rows whose key has
 * a build row (Q21's NOT EXISTS scan compares its two dates for lineitem rows of the orders it probes, not for all).
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
        foldIntoMark(ops, rows);
        for (int i = 1; i < ops.size(); i++) {
            if (!(ops.get(i) instanceof Operation.Probe pr) || !movable(pr)) {
                continue;
            }
            int start = firstFilterBefore(ops, i);
            if (!keepsFewerThanFilters(rows, start, i, pr)) {
                continue;
            }
            double before = rowsAt(rows, start);
            double matches = PipelineAnalysis.matchesPerRow(pr);
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

    /** The filters just before a last mark probe joined to its condition, where that keeps fewer rows. */
    private static void foldIntoMark(List<Operation> ops, List<Double> rows) {
        int last = ops.size() - 1;
        if (last < 1 || !(ops.get(last) instanceof Operation.Probe pr) || pr.kind() != JoinKind.MARK
                || !sourceKeys(pr) || !cheapLookups(pr)) {
            return;
        }
        int start = firstFilterBefore(ops, last);
        if (!keepsFewerThanFilters(rows, start, last, pr)) {
            return;
        }
        Expr condition = null;
        for (int k = start; k < last; k++) {
            condition = and(condition, ((Operation.Filter) ops.get(k)).condition());
        }
        double marked = rows.get(last + 1);
        for (int k = last; k >= start; k--) {
            ops.remove(k);
            rows.remove(k + 1);
        }
        ops.add(new Operation.Probe(pr.joinId(), pr.keys(), pr.kind(), pr.build(), and(condition, pr.residual()),
                pr.marks()));
        rows.add(marked);
    }

    /** The first of the filters just before operation {@code i}: {@code i} itself when none is. */
    private static int firstFilterBefore(List<Operation> ops, int i) {
        int start = i;
        while (start > 0 && ops.get(start - 1) instanceof Operation.Filter) {
            start--;
        }
        return start;
    }

    /** Whether probe {@code pr} at {@code i} keeps a smaller share of rows than the filters from {@code start} do. */
    private static boolean keepsFewerThanFilters(List<Double> rows, int start, int i, Operation.Probe pr) {
        double before = rowsAt(rows, start);
        double after = rows.get(i);
        return start < i && before > 0 && !Double.isNaN(after) && PipelineAnalysis.matchesPerRow(pr) < after / before;
    }

    /** {@code a AND b}, either null for none. */
    private static Expr and(Expr a, Expr b) {
        if (a == null || b == null) {
            return a == null ? b : a;
        }
        return new Expr.Call(Op.AND, List.of(a, b), io.tessera.storage.DataType.BOOLEAN, a.nullable() || b.nullable());
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
        return drops && pr.residual() == null && !pr.build().keepsNullKeys()
                && PipelineAnalysis.matchesPerRow(pr) <= 1.0 && sourceKeys(pr) && cheapLookups(pr);
    }

    private static boolean sourceKeys(Operation.Probe pr) {
        if (pr.keys().isEmpty()) {
            return false;
        }
        for (Expr k : pr.keys()) {
            if (!(k instanceof Expr.Ref r) || !r.slot().isSource()) {
                return false;
            }
        }
        return true;
    }

    /** A table in cache, or a table in key order probed by a stored column that ascends with the row. */
    private static boolean cheapLookups(Operation.Probe pr) {
        return RuntimeFilters.tableBytes(pr.build()) <= CACHED_TABLE_BYTES || RuntimeFilters.lookupsInOrder(pr);
    }
}

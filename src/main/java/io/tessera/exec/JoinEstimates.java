package io.tessera.exec;

import io.tessera.backend.PipelineActuals;
import io.tessera.plan.Operation;
import io.tessera.plan.Pipeline;
import io.tessera.plan.QueryPlan;

import java.util.Locale;

/**
 * How far the optimizer's join estimates were from a run's rows: for each join (a PROBE) with an estimate whose
 * rows out were counted (compared), the ratio max(estimate / actual, actual / estimate), both taken as at least one
 * row (the q-error); the worst of them is what EXPLAIN ANALYZE sums a query up with.
 */
record JoinEstimates(int joins, int compared, Worst worst) {

    /** The join furthest off: its pipeline, its operation, its estimate and rows, and their ratio. */
    record Worst(int pipeline, String operation, double estimate, long actual, double ratio) {
    }

    static JoinEstimates of(QueryPlan plan, PipelineActuals actuals) {
        int joins = 0;
        int compared = 0;
        Worst worst = null;
        for (Pipeline p : plan.pipelines()) {
            long[] rows = actuals.rows(p);
            for (int i = 0; i < p.operations().size(); i++) {
                Operation op = p.operations().get(i);
                if (!(op instanceof Operation.Probe)) {
                    continue;
                }
                joins++;
                double est = p.estimatedRowsAfter(i);
                long act = rows[i + 1];
                if (act < 0 || Double.isNaN(est)) {
                    continue;
                }
                compared++;
                double r = ratio(est, act);
                if (worst == null || r > worst.ratio()) {
                    worst = new Worst(p.id(), op.toString(), est, act, r);
                }
            }
        }
        return new JoinEstimates(joins, compared, worst);
    }

    /** max(estimate / actual, actual / estimate), each at least one row. */
    static double ratio(double estimate, long actual) {
        double e = Math.max(1, estimate);
        double a = Math.max(1, actual);
        return Math.max(e / a, a / e);
    }

    /** The summary line of EXPLAIN ANALYZE. */
    String summary() {
        if (joins == 0) {
            return "joins: none";
        }
        if (worst == null) {
            return "joins: " + joins + ", none with both an estimate and a count";
        }
        String op = worst.operation();
        int space = op.indexOf(' ', op.indexOf(' ') + 1);
        return String.format(Locale.ROOT, "joins: %d, %d compared; worst estimate/actual ratio %.2f (pipeline %d, %s: "
                        + "~%,d %s, actual %,d)", joins, compared, worst.ratio(), worst.pipeline(),
                space < 0 ? op : op.substring(0, space), Math.round(worst.estimate()),
                Math.round(worst.estimate()) == 1 ? "row" : "rows", worst.actual());
    }
}

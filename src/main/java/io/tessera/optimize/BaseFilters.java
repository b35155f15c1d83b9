package io.tessera.optimize;

import io.tessera.sql.CatalogTableAccess;
import io.tessera.storage.Table;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Filter;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.core.TableScan;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The selectivity of a filter over a stored table, found on the table's sample: every conjunct the sample can
 * evaluate is evaluated together on the sampled rows that passed the filters below it, so correlated conjuncts are
 * counted as they are; the others are estimated from statistics and multiplied in. When few sampled rows pass
 * (a very selective filter), the sample only bounds the statistics' estimate.
 */
final class BaseFilters {

    private BaseFilters() {
    }

    /** Where a relation's fields come from: expressions over a stored table's columns (null: not from it alone). */
    private record Base(Table table, RexNode[] fieldValues) {
    }

    /** The fraction of {@code f}'s input rows that pass it. */
    static double selectivity(Estimates estimates, Filter f) {
        Base below = base(f.getInput());
        if (below == null || below.table.rowCount() == 0) {
            return estimates.statisticsSelectivity(f.getInput(), f.getCondition());
        }
        TableSample sample = TableSample.of(below.table);
        boolean[] passedBelow = passing(f.getInput(), sample, f.getCluster().getRexBuilder());
        SampleFilter eval = new SampleFilter(sample, below.fieldValues, f.getCluster().getRexBuilder());
        boolean[] passes = passedBelow.clone();
        List<RexNode> evaluated = new ArrayList<>();
        double others = 1;
        for (RexNode c : RelOptUtil.conjunctions(f.getCondition())) {
            boolean[] t = truth(below, eval, c);
            if (t == null) {
                others *= estimates.statisticsSelectivity(f.getInput(), c);
            } else {
                evaluated.add(c);
                for (int i = 0; i < t.length; i++) {
                    passes[i] &= t[i];
                }
            }
        }
        if (evaluated.isEmpty()) {
            return others;
        }
        int before = count(passedBelow);
        int after = count(passes);
        boolean whole = sample.size() >= below.table.rowCount();
        if (before == 0) {
            return others * estimates.statisticsSelectivity(f.getInput(),
                    org.apache.calcite.rex.RexUtil.composeConjunction(f.getCluster().getRexBuilder(), evaluated));
        }
        double fromSample = after / (double) before;
        if (whole || after >= Estimates.MIN_SAMPLE_HITS) {
            return fromSample * others;
        }
        double fromStats = estimates.statisticsSelectivity(f.getInput(),
                org.apache.calcite.rex.RexUtil.composeConjunction(f.getCluster().getRexBuilder(), evaluated));
        return Math.min(fromStats, (after + 1.0) / before) * others;
    }

    /** Which sampled rows pass the filters between {@code rel} and its table (all, where none can be evaluated). */
    private static boolean[] passing(RelNode rel, TableSample sample,
                                     org.apache.calcite.rex.RexBuilder rexBuilder) {
        if (rel instanceof Filter f) {
            boolean[] below = passing(f.getInput(), sample, rexBuilder);
            Base b = base(f.getInput());
            SampleFilter eval = new SampleFilter(sample, b.fieldValues, rexBuilder);
            for (RexNode c : RelOptUtil.conjunctions(f.getCondition())) {
                boolean[] t = truth(b, eval, c);
                if (t != null) {
                    for (int i = 0; i < t.length; i++) {
                        below[i] &= t[i];
                    }
                }
            }
            return below;
        }
        if (rel instanceof Project p) {
            return passing(p.getInput(), sample, rexBuilder);
        }
        boolean[] all = new boolean[sample.size()];
        Arrays.fill(all, true);
        return all;
    }

    /**
     * Per sampled row, whether conjunct {@code c} holds (null where the sample cannot evaluate it). The optimizer's
     * rules rebuild the same filter over new nodes many times per query, and each prepare of a query estimates the
     * same conjuncts, so each conjunct's answer is kept with the table's sample under its text over the table's
     * columns.
     */
    private static boolean[] truth(Base base, SampleFilter eval, RexNode c) {
        RexNode overTable = overTable(c, base.fieldValues);
        if (overTable == null) {
            return evaluate(eval, c);
        }
        return TableSample.of(base.table).truth(overTable.toString(), () -> evaluate(eval, c));
    }

    private static boolean[] evaluate(SampleFilter eval, RexNode c) {
        try {
            return eval.truth(c);
        } catch (SampleFilter.Unsupported e) {
            return null;
        }
    }

    private static int count(boolean[] b) {
        int n = 0;
        for (boolean x : b) {
            if (x) {
                n++;
            }
        }
        return n;
    }

    /** {@code e} over fields rewritten over the table's columns (null when a field it reads is not from the table). */
    private static RexNode overTable(RexNode e, RexNode[] fieldValues) {
        boolean[] missing = new boolean[1];
        RexNode out = e.accept(new org.apache.calcite.rex.RexShuttle() {
            @Override
            public RexNode visitInputRef(RexInputRef ref) {
                RexNode v = fieldValues[ref.getIndex()];
                if (v == null) {
                    missing[0] = true;
                    return ref;
                }
                return v;
            }
        });
        return missing[0] ? null : out;
    }

    /** The stored table under a chain of filters and projections, with the column each field reads; else null. */
    private static Base base(RelNode rel) {
        if (rel instanceof TableScan ts) {
            CatalogTableAccess a = ts.getTable().unwrap(CatalogTableAccess.class);
            if (a == null) {
                return null;
            }
            RexNode[] cols = new RexNode[ts.getRowType().getFieldCount()];
            for (int i = 0; i < cols.length; i++) {
                cols[i] = new RexInputRef(i, ts.getRowType().getFieldList().get(i).getType());
            }
            return new Base(a.table(), cols);
        }
        if (rel instanceof Filter f) {
            return base(f.getInput());
        }
        if (rel instanceof Project p) {
            Base in = base(p.getInput());
            if (in == null) {
                return null;
            }
            RexNode[] cols = new RexNode[p.getProjects().size()];
            for (int i = 0; i < cols.length; i++) {
                cols[i] = overTable(p.getProjects().get(i), in.fieldValues);
            }
            return new Base(in.table, cols);
        }
        return null;
    }
}

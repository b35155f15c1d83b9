package io.tessera.sql;

import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.plan.Strong;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.rel.core.CorrelationId;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.logical.LogicalAggregate;
import org.apache.calcite.rel.logical.LogicalFilter;
import org.apache.calcite.rel.logical.LogicalJoin;
import org.apache.calcite.rel.logical.LogicalProject;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.rex.RexSubQuery;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.tools.RelBuilder;
import org.apache.calcite.util.ImmutableBitSet;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * {@code WHERE x < (SELECT agg(...) FROM r WHERE r.k = outer.k AND ...)}, a comparison with a correlated scalar
 * aggregate whose correlation is equalities only (TPC-H Q2, Q17, Q20), becomes an inner join of the outer rows with
 * {@code r} grouped by the correlated keys, and the comparison a filter on the joined value. This is the plan that
 * Calcite's decorrelator arrives at for these queries, made in one step instead of through its rule programs, which
 * took a quarter of Q2's planning.
 *
 * <p>It is exact only where the subquery over no rows makes the comparison not TRUE: the aggregates are MIN, MAX,
 * SUM or AVG (NULL over no rows, unlike COUNT), the subquery's value is NULL whenever they all are ({@link Strong}),
 * and the comparison is a conjunct of a WHERE, which drops rows where it is NULL. An outer row whose keys find no
 * group is then dropped by the join as by the comparison, and a key value has one group, so no outer row is
 * repeated. Anything else is left to Calcite.
 */
final class ScalarSubqueryJoins {
    private ScalarSubqueryJoins() {
    }

    private static final Set<SqlKind> COMPARISONS = EnumSet.of(SqlKind.EQUALS, SqlKind.NOT_EQUALS,
            SqlKind.LESS_THAN, SqlKind.LESS_THAN_OR_EQUAL, SqlKind.GREATER_THAN, SqlKind.GREATER_THAN_OR_EQUAL);
    private static final Set<SqlKind> NULL_OVER_NO_ROWS = EnumSet.of(SqlKind.MIN, SqlKind.MAX, SqlKind.SUM,
            SqlKind.AVG);

    static RelNode rewrite(RelNode rel, RelBuilder builder) {
        List<RelNode> inputs = new ArrayList<>();
        for (RelNode in : rel.getInputs()) {
            inputs.add(rewrite(in, builder));
        }
        RelNode r = inputs.equals(rel.getInputs()) ? rel : rel.copy(rel.getTraitSet(), inputs);
        // subqueries inside this node's expressions (Q20's comparison sits in an IN subquery)
        r = r.accept(new RexShuttle() {
            @Override
            public RexNode visitSubQuery(RexSubQuery sq) {
                RexSubQuery visited = (RexSubQuery) super.visitSubQuery(sq);
                RelNode in = rewrite(visited.rel, builder);
                return in == visited.rel ? visited : visited.clone(in);
            }
        });
        if (!(r instanceof LogicalFilter f) || f.getVariablesSet().size() != 1) {
            return r;
        }
        return joined(f, f.getVariablesSet().iterator().next(), builder);
    }

    /** The subquery's value joined in, as a column, with the outer rows of the filter. */
    private record Grouped(RelNode rel, List<RexNode> outerKeys) {
    }

    private static RelNode joined(LogicalFilter f, CorrelationId cor, RelBuilder builder) {
        RexBuilder rex = f.getCluster().getRexBuilder();
        RelNode input = f.getInput();
        List<RexNode> rest = new ArrayList<>();
        List<RexNode> compared = new ArrayList<>();
        List<RexSubQuery> scalars = new ArrayList<>();
        List<Grouped> groups = new ArrayList<>();
        for (RexNode c : RelOptUtil.conjunctions(f.getCondition())) {
            RexSubQuery sq = comparedScalar(c);
            Grouped g = sq == null ? null : grouped(sq.rel, cor, builder);
            if (g == null) {
                rest.add(c);
            } else {
                compared.add(c);
                scalars.add(sq);
                groups.add(g);
            }
        }
        // what is left may hold other subqueries, but none that reads the outer row: those would read a wider row
        if (groups.isEmpty() || rest.stream().anyMatch(c -> readsCorrelation(c, cor))) {
            return f;
        }
        // the other conjuncts filter the outer rows before the joins (where semi-join reduction finds them, Q20)
        RelNode current = rest.isEmpty() ? input
                : LogicalFilter.create(input, RexUtil.composeConjunction(rex, rest));
        List<RexNode> comparisons = new ArrayList<>();
        for (int s = 0; s < groups.size(); s++) {
            Grouped g = groups.get(s);
            int base = current.getRowType().getFieldCount();
            List<RexNode> on = new ArrayList<>();
            for (int i = 0; i < g.outerKeys.size(); i++) {
                on.add(rex.makeCall(SqlStdOperatorTable.EQUALS, g.outerKeys.get(i),
                        new RexInputRef(base + i, g.rel.getRowType().getFieldList().get(i).getType())));
            }
            current = LogicalJoin.create(current, g.rel, List.of(), RexUtil.composeConjunction(rex, on), Set.of(),
                    JoinRelType.INNER);
            int valueField = base + g.outerKeys.size();
            RexInputRef value = new RexInputRef(valueField,
                    current.getRowType().getFieldList().get(valueField).getType());
            RexSubQuery sq = scalars.get(s);
            comparisons.add(compared.get(s).accept(new RexShuttle() {
                @Override
                public RexNode visitSubQuery(RexSubQuery other) {
                    return other == sq ? value : other;
                }
            }));
        }
        RelNode filtered = LogicalFilter.create(current, RexUtil.composeConjunction(rex, comparisons));
        builder.push(filtered);
        List<RexNode> outer = new ArrayList<>(builder.fields(ImmutableBitSet.range(input.getRowType().getFieldCount())));
        return builder.project(outer, input.getRowType().getFieldNames(), true).build();
    }

    /** The scalar subquery that {@code c} compares (through CASTs) with an expression holding none, else null. */
    private static RexSubQuery comparedScalar(RexNode c) {
        if (!COMPARISONS.contains(c.getKind()) || !(c instanceof RexCall call)) {
            return null;
        }
        RexSubQuery found = null;
        for (RexNode op : call.getOperands()) {
            RexNode e = op;
            while (e.getKind() == SqlKind.CAST) {
                e = ((RexCall) e).getOperands().get(0);
            }
            if (e instanceof RexSubQuery sq && sq.getKind() == SqlKind.SCALAR_QUERY && found == null) {
                found = sq;
            } else if (RexUtil.SubQueryFinder.find(op) != null) {
                return null;
            }
        }
        return found;
    }

    private static boolean readsCorrelation(RexNode c, CorrelationId cor) {
        boolean[] reads = {RexUtil.containsCorrelation(c)};
        c.accept(new RexShuttle() {
            @Override
            public RexNode visitSubQuery(RexSubQuery sq) {
                reads[0] |= RelOptUtil.getVariablesUsed(sq.rel).contains(cor);
                return super.visitSubQuery(sq);
            }
        });
        return reads[0];
    }

    /**
     * The subquery grouped by the inner sides of its correlated equalities, as the keys followed by its value, with
     * the outer sides over the outer row's fields; null where it is not of the shape the class comment names.
     */
    private static Grouped grouped(RelNode sub, CorrelationId cor, RelBuilder builder) {
        RelNode top = sub;
        LogicalProject valueProject = null;
        if (top instanceof LogicalProject p) {
            valueProject = p;
            top = p.getInput();
        }
        if (!(top instanceof LogicalAggregate agg) || !agg.getGroupSet().isEmpty()
                || agg.getGroupType() != Aggregate.Group.SIMPLE || agg.getAggCallList().isEmpty()) {
            return null;
        }
        for (AggregateCall call : agg.getAggCallList()) {
            if (!NULL_OVER_NO_ROWS.contains(call.getAggregation().getKind()) || !call.collation.getFieldCollations()
                    .isEmpty() || call.distinctKeys != null || !call.rexList.isEmpty()) {
                return null;
            }
        }
        int aggs = agg.getAggCallList().size();
        RexNode value;
        if (valueProject == null) {
            if (aggs != 1) {
                return null;
            }
            value = new RexInputRef(0, agg.getRowType().getFieldList().get(0).getType());
        } else {
            value = valueProject.getProjects().get(0);
            if (valueProject.getProjects().size() != 1 || RexUtil.containsCorrelation(value)
                    || RexUtil.SubQueryFinder.find(value) != null) {
                return null;
            }
        }
        if (!Strong.isNull(value, ImmutableBitSet.range(aggs))) {
            return null;
        }
        RelNode below = agg.getInput();
        LogicalProject argProject = null;
        if (below instanceof LogicalProject p) {
            argProject = p;
            below = p.getInput();
            for (RexNode e : p.getProjects()) {
                if (RexUtil.containsCorrelation(e) || RexUtil.SubQueryFinder.find(e) != null) {
                    return null;
                }
            }
        }
        if (!(below instanceof LogicalFilter sf) || !sf.getVariablesSet().isEmpty()
                || RexUtil.SubQueryFinder.containsSubQuery(sf)
                || !RelOptUtil.getVariablesUsed(sf.getInput()).isEmpty()) {
            return null;
        }
        List<RexNode> innerKeys = new ArrayList<>();
        List<RexNode> outerKeys = new ArrayList<>();
        List<RexNode> local = new ArrayList<>();
        for (RexNode c : RelOptUtil.conjunctions(sf.getCondition())) {
            if (!RexUtil.containsCorrelation(c)) {
                local.add(c);
                continue;
            }
            if (c.getKind() != SqlKind.EQUALS || !(c instanceof RexCall eq)) {
                return null;
            }
            RexNode a = eq.getOperands().get(0);
            RexNode b = eq.getOperands().get(1);
            RexNode outerSide = RexUtil.containsCorrelation(a) ? a : b;
            RexNode innerSide = outerSide == a ? b : a;
            RexNode overOuter = outerSide(outerSide, cor);
            if (overOuter == null || RexUtil.containsCorrelation(innerSide)) {
                return null;
            }
            outerKeys.add(overOuter);
            innerKeys.add(innerSide);
            // a NULL key equals no outer row: its rows need not be grouped (as Calcite's decorrelator filters them)
            if (innerSide.getType().isNullable()) {
                local.add(sf.getCluster().getRexBuilder().makeCall(SqlStdOperatorTable.IS_NOT_NULL, innerSide));
            }
        }
        if (outerKeys.isEmpty()) {
            return null;
        }
        RexBuilder rex = sf.getCluster().getRexBuilder();
        RelNode rows = local.isEmpty() ? sf.getInput()
                : LogicalFilter.create(sf.getInput(), RexUtil.composeConjunction(rex, local));
        int k = innerKeys.size();
        List<RexNode> projected = new ArrayList<>(innerKeys);
        if (argProject == null) {
            for (int i = 0; i < rows.getRowType().getFieldCount(); i++) {
                projected.add(new RexInputRef(i, rows.getRowType().getFieldList().get(i).getType()));
            }
        } else {
            projected.addAll(argProject.getProjects());
        }
        RelNode keyed = builder.push(rows).project(projected).build();
        List<AggregateCall> calls = new ArrayList<>();
        for (AggregateCall call : agg.getAggCallList()) {
            List<Integer> args = call.getArgList().stream().map(a -> a + k).toList();
            int filter = call.filterArg < 0 ? call.filterArg : call.filterArg + k;
            calls.add(AggregateCall.create(call.getAggregation(), call.isDistinct(), call.isApproximate(),
                    call.ignoreNulls(), List.of(), args, filter, null, call.collation, k, keyed, null, call.name));
        }
        RelNode grouped = LogicalAggregate.create(keyed, List.of(), ImmutableBitSet.range(k), null, calls);
        List<RexNode> out = new ArrayList<>();
        for (int i = 0; i < k; i++) {
            out.add(new RexInputRef(i, grouped.getRowType().getFieldList().get(i).getType()));
        }
        out.add(RexUtil.shift(value, k).accept(new RexShuttle() {
            // the aggregates' types as grouped (MIN of a NOT NULL column is NOT NULL per group)
            @Override
            public RexNode visitInputRef(RexInputRef ref) {
                return new RexInputRef(ref.getIndex(), grouped.getRowType().getFieldList().get(ref.getIndex())
                        .getType());
            }
        }));
        // the keys keep their names, the value the subquery's column name
        List<String> names = new ArrayList<>(grouped.getRowType().getFieldNames().subList(0, k));
        names.add(sub.getRowType().getFieldNames().get(0));
        RelNode valued = builder.push(grouped).project(out, names).build();
        return new Grouped(valued, outerKeys);
    }

    /** {@code e}, which reads only fields of the outer row through {@code cor}, over the outer row's fields. */
    private static RexNode outerSide(RexNode e, CorrelationId cor) {
        if (!RelOptUtil.InputFinder.bits(e).isEmpty() || RexUtil.SubQueryFinder.find(e) != null) {
            return null;
        }
        return OuterFieldRefs.outerOnly(e, cor);
    }
}

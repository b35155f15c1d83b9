package io.tessera.sql;

import org.apache.calcite.rel.RelHomogeneousShuttle;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.CorrelationId;
import org.apache.calcite.rel.core.Filter;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.logical.LogicalFilter;
import org.apache.calcite.rel.logical.LogicalProject;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCorrelVariable;
import org.apache.calcite.rex.RexFieldAccess;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.rex.RexSubQuery;

import java.util.Arrays;
import java.util.List;
import java.util.Set;

/**
 * A correlated subquery in a grouped query's SELECT list or HAVING reads the outer query's groups. Calcite's
 * converter types its correlation variable as the FROM clause's row (t's columns), while the subquery sits above
 * the aggregation, whose rows hold only the group keys, in GROUP BY's order: decorrelated as it is, {@code t.b} at
 * position 1 of t would read the group's column 1 (another key, or none). Before the subqueries become
 * correlations, this retypes each such variable as the row it stands over and moves every field it reads to the
 * position of that column's group key, traced down through the aggregation's input (its projections and filters);
 * a column that is not a group key is refused, as DuckDB refuses it.
 */
final class GroupedCorrelations {

    private GroupedCorrelations() {
    }

    static RelNode rewrite(RelNode rel) {
        return rel.accept(new RelHomogeneousShuttle() {
            @Override
            public RelNode visit(RelNode other) {
                RelNode r = super.visit(other);
                if (r instanceof LogicalProject p) {
                    List<RexNode> exprs = p.getProjects().stream().map(e -> retype(e, p.getInput())).toList();
                    return exprs.equals(p.getProjects()) ? p : LogicalProject.create(p.getInput(), p.getHints(),
                            exprs, p.getRowType().getFieldNames(), p.getVariablesSet());
                }
                if (r instanceof LogicalFilter f) {
                    RexNode cond = retype(f.getCondition(), f.getInput());
                    return cond.equals(f.getCondition()) ? f : LogicalFilter.create(f.getInput(), cond,
                            com.google.common.collect.ImmutableSet.copyOf(f.getVariablesSet()));
                }
                return r;
            }
        });
    }

    /**
     * The expression with each correlation variable its subqueries read typed as the input's row (at the top of the
     * plan, outside any subquery, the variables a node's subqueries read stand for that node's input).
     */
    private static RexNode retype(RexNode e, RelNode input) {
        Set<CorrelationId> ids = new java.util.HashSet<>();
        e.accept(new RexShuttle() {
            @Override
            public RexNode visitSubQuery(RexSubQuery s) {
                ids.addAll(org.apache.calcite.plan.RelOptUtil.getVariablesUsed(s.rel));
                return super.visitSubQuery(s);
            }
        });
        RexNode out = e;
        for (CorrelationId id : ids) {
            RelDataType type = variableType(out, id);
            if (type == null || type.equals(input.getRowType())) {
                continue;
            }
            int[] positions = positions(input, type);
            if (positions == null) {
                continue; // not over an aggregation: left as Calcite made it
            }
            out = out.accept(new Moved(input.getCluster().getRexBuilder(), id, type, input.getRowType(), positions));
        }
        return out;
    }

    /** The type the variable has where the expression's subqueries read it, or null where none does. */
    private static RelDataType variableType(RexNode e, CorrelationId id) {
        RelDataType[] found = {null};
        RexShuttle finder = new RexShuttle() {
            @Override
            public RexNode visitCorrelVariable(RexCorrelVariable v) {
                if (v.id.equals(id)) {
                    found[0] = v.getType();
                }
                return v;
            }

            @Override
            public RexNode visitSubQuery(RexSubQuery s) {
                s.rel.accept(new RelHomogeneousShuttle() {
                    @Override
                    public RelNode visit(RelNode other) {
                        other.accept(finder());
                        return super.visit(other);
                    }
                });
                return super.visitSubQuery(s);
            }

            private RexShuttle finder() {
                return this;
            }
        };
        e.accept(finder);
        return found[0];
    }

    /**
     * For each field of a row of the given type, the position of its value among the relation's columns (-1 where
     * the relation does not carry it); null where the relation is not built on such a row by an aggregation,
     * projections and filters.
     */
    private static int[] positions(RelNode rel, RelDataType row) {
        if (rel.getRowType().equals(row)) {
            int[] identity = new int[row.getFieldCount()];
            Arrays.setAll(identity, i -> i);
            return identity;
        }
        if (rel instanceof Filter f) {
            return positions(f.getInput(), row);
        }
        int[] below;
        int[] out = new int[row.getFieldCount()];
        Arrays.fill(out, -1);
        if (rel instanceof Project p && (below = positions(p.getInput(), row)) != null) {
            List<RexNode> exprs = p.getProjects();
            for (int j = 0; j < out.length; j++) {
                for (int i = 0; i < exprs.size() && out[j] < 0; i++) {
                    if (below[j] >= 0 && exprs.get(i) instanceof RexInputRef ref && ref.getIndex() == below[j]) {
                        out[j] = i;
                    }
                }
            }
            return out;
        }
        if (rel instanceof Aggregate a && (below = positions(a.getInput(), row)) != null) {
            List<Integer> keys = a.getGroupSet().asList();
            for (int j = 0; j < out.length; j++) {
                out[j] = below[j] < 0 ? -1 : keys.indexOf(below[j]);
            }
            return out;
        }
        return null;
    }

    /** The variable's fields read from the positions of the row it now stands for. */
    private static final class Moved extends RexShuttle {
        private final RexBuilder rb;
        private final CorrelationId id;
        private final RelDataType oldType;
        private final RexNode variable;
        private final int[] positions;

        Moved(RexBuilder rb, CorrelationId id, RelDataType oldType, RelDataType newType, int[] positions) {
            this.rb = rb;
            this.id = id;
            this.oldType = oldType;
            this.variable = rb.makeCorrel(newType, id);
            this.positions = positions;
        }

        @Override
        public RexNode visitFieldAccess(RexFieldAccess access) {
            if (access.getReferenceExpr() instanceof RexCorrelVariable v && v.id.equals(id)
                    && v.getType().equals(oldType)) {
                int j = access.getField().getIndex();
                if (positions[j] < 0) {
                    throw new SqlError("column \"" + access.getField().getName() + "\" must appear in the GROUP BY "
                            + "clause or must be part of an aggregate function (read by a correlated subquery)");
                }
                RexNode moved = rb.makeFieldAccess(variable, positions[j]);
                return moved.getType().getSqlTypeName() == access.getType().getSqlTypeName() ? moved
                        : rb.makeCast(rb.getTypeFactory().createTypeWithNullability(access.getType(),
                        moved.getType().isNullable()), moved);
            }
            return super.visitFieldAccess(access);
        }

        @Override
        public RexNode visitSubQuery(RexSubQuery s) {
            RexSubQuery withOperands = (RexSubQuery) super.visitSubQuery(s);
            RexShuttle self = this;
            RelNode rel = withOperands.rel.accept(new RelHomogeneousShuttle() {
                @Override
                public RelNode visit(RelNode other) {
                    return super.visit(other).accept(self);
                }
            });
            return rel == withOperands.rel ? withOperands : withOperands.clone(rel);
        }
    }
}

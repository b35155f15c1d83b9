package io.tessera.sql;

import org.apache.calcite.rel.RelCollation;
import org.apache.calcite.rel.RelCollations;
import org.apache.calcite.rel.RelFieldCollation;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.rel.core.Correlate;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.sql.SqlAggFunction;
import org.apache.calcite.sql.SqlFunctionCategory;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.type.ReturnTypes;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * An aggregate with an ORDER BY inside its parentheses ({@code string_agg(o, ',' ORDER BY d)}) in a correlated
 * subquery, carried through Calcite's decorrelator. The decorrelator moves an aggregate's arguments and FILTER to the
 * positions of its new input (the correlated keys added in front) but leaves the ORDER BY's field positions as they
 * were, so the aggregate would be ordered by another column. {@link #hide} therefore makes the order keys trailing
 * arguments of a stand-in function that remembers the original function, its argument count and each key's
 * direction; the decorrelator moves them with the arguments, and {@link #restore} turns them back into the call's
 * ORDER BY.
 */
final class OrderedCorrelatedAggregates {

    private OrderedCorrelatedAggregates() {
    }

    /** {@code rel} with every ordered aggregate call under the right side of a Correlate as a {@link Keyed} call. */
    static RelNode hide(RelNode rel) {
        return rewrite(rel, false, true);
    }

    /** {@code rel} with every {@link Keyed} call the ordered call it stands for, its keys where they are now. */
    static RelNode restore(RelNode rel) {
        return rewrite(rel, true, false);
    }

    private static RelNode rewrite(RelNode rel, boolean correlated, boolean hiding) {
        List<RelNode> inputs = new ArrayList<>();
        for (int i = 0; i < rel.getInputs().size(); i++) {
            inputs.add(rewrite(rel.getInput(i), correlated || rel instanceof Correlate && i == 1, hiding));
        }
        RelNode copy = inputs.equals(rel.getInputs()) ? rel : rel.copy(rel.getTraitSet(), inputs);
        if (!correlated || !(copy instanceof Aggregate a)) {
            return copy;
        }
        List<AggregateCall> calls = new ArrayList<>();
        boolean changed = false;
        for (AggregateCall call : a.getAggCallList()) {
            AggregateCall out = hiding ? hidden(call) : restored(call);
            changed |= out != call;
            calls.add(out);
        }
        return changed ? a.copy(a.getTraitSet(), a.getInput(), a.getGroupSet(), a.getGroupSets(), calls) : copy;
    }

    private static AggregateCall hidden(AggregateCall call) {
        List<RelFieldCollation> keys = call.getCollation().getFieldCollations();
        if (keys.isEmpty()) {
            return call;
        }
        List<Integer> args = new ArrayList<>(call.getArgList());
        List<RelFieldCollation> directions = new ArrayList<>();
        for (RelFieldCollation key : keys) {
            args.add(key.getFieldIndex());
            directions.add(key.withFieldIndex(0));
        }
        Keyed keyed = new Keyed(call.getAggregation(), call.getArgList().size(), directions, call.getType());
        return AggregateCall.create(keyed, call.isDistinct(), call.isApproximate(), call.ignoreNulls(), call.rexList,
                args, call.filterArg, call.distinctKeys, RelCollations.EMPTY, call.getType(), call.getName());
    }

    private static AggregateCall restored(AggregateCall call) {
        if (!(call.getAggregation() instanceof Keyed keyed)) {
            return call;
        }
        List<Integer> args = call.getArgList();
        List<RelFieldCollation> keys = new ArrayList<>();
        for (int i = 0; i < keyed.directions.size(); i++) {
            keys.add(keyed.directions.get(i).withFieldIndex(args.get(keyed.argCount + i)));
        }
        RelCollation order = RelCollations.of(keys);
        return AggregateCall.create(keyed.original, call.isDistinct(), call.isApproximate(), call.ignoreNulls(),
                call.rexList, args.subList(0, keyed.argCount), call.filterArg, call.distinctKeys, order,
                call.getType(), call.getName());
    }

    /**
     * The stand-in for an ordered aggregate while the decorrelator runs: of the original's type, named with the
     * original's name and the keys' directions, so that two calls ordered differently never look alike to a planner
     * that merges equal expressions.
     */
    private static final class Keyed extends SqlAggFunction {
        final SqlAggFunction original;
        final int argCount;
        final List<RelFieldCollation> directions;

        Keyed(SqlAggFunction original, int argCount, List<RelFieldCollation> directions, RelDataType type) {
            super(original.getName() + "/" + argCount + " ORDER BY " + directions.stream()
                            .map(d -> d.getDirection() + " " + d.nullDirection).collect(Collectors.joining(", ")),
                    null, SqlKind.OTHER_FUNCTION, ReturnTypes.explicit(type), null, null,
                    SqlFunctionCategory.USER_DEFINED_FUNCTION, false, false);
            this.original = original;
            this.argCount = argCount;
            this.directions = List.copyOf(directions);
        }
    }
}

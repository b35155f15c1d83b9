package io.tessera.optimize;

import io.tessera.sql.IntervalSyntax;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.rel.RelCollations;
import org.apache.calcite.rel.RelFieldCollation;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rel.core.Sort;
import org.apache.calcite.rel.core.Window;
import org.apache.calcite.rel.logical.LogicalSort;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.tools.RelBuilder;
import org.apache.calcite.util.ImmutableBitSet;

import java.util.ArrayList;
import java.util.List;

/**
 * An aggregation with an INTERVAL key (GROUP BY, DISTINCT, UNION) grouped as DuckDB groups intervals: by their length,
 * 30 days equal to 1 month. Each such key is replaced by its length ({@link IntervalSyntax#KEY}, computed below
 * the aggregation), and the group shows the least of its intervals (MIN, in the order of their codes); a group of
 * one spelling shows that spelling, as DuckDB does. Likewise COUNT(DISTINCT interval) counts lengths: where the rows
 * carry an interval's code, two spellings of one length (1 month, 30 days) would otherwise differ. A LIST or STRUCT
 * key with an INTERVAL inside is grouped the same way, by a key in which each interval is its length, and its group
 * shows the value of the least encoded string ({@link IntervalSyntax#CODE}). A join on an equality of such values
 * compares lengths too ({@link IntervalJoinKeys}), and so does a sort of intervals.
 */
final class IntervalGroups {
    private IntervalGroups() {
    }

    static RelNode apply(RelNode rel, RelBuilder b) {
        List<RelNode> inputs = new ArrayList<>();
        for (RelNode in : rel.getInputs()) {
            inputs.add(apply(in, b));
        }
        if (!inputs.equals(rel.getInputs())) {
            rel = rel.copy(rel.getTraitSet(), inputs);
        }
        if (rel instanceof Join j) {
            return IntervalJoinKeys.apply(j, b);
        }
        if (rel instanceof Sort s) {
            return sortByLength(s, b);
        }
        if (rel instanceof Window w) {
            refuseIntervalWindows(w);
            return rel;
        }
        if (!(rel instanceof Aggregate a) || a.getGroupType() != Aggregate.Group.SIMPLE) {
            return rel;
        }
        List<Integer> keys = a.getGroupSet().asList();
        int width = a.getInput().getRowType().getFieldCount();
        List<Integer> intervals = new ArrayList<>();
        for (int k : keys) {
            if (groupsByKey(a.getInput().getRowType().getFieldList().get(k).getType())) {
                intervals.add(k);
            }
        }
        // COUNT(DISTINCT x) of an interval counts the lengths, each computed below as one more column
        List<Integer> distinctArgs = new ArrayList<>();
        for (AggregateCall c : a.getAggCallList()) {
            if (c.isDistinct() && c.getAggregation().getKind() == SqlKind.COUNT) {
                for (int arg : c.getArgList()) {
                    if (groupsByKey(a.getInput().getRowType().getFieldList().get(arg).getType())
                            && !distinctArgs.contains(arg)) {
                        distinctArgs.add(arg);
                    }
                }
            }
        }
        if (intervals.isEmpty() && distinctArgs.isEmpty()) {
            return rel;
        }
        b.push(a.getInput());
        List<RexNode> fields = new ArrayList<>(b.fields());
        for (int k : intervals) {
            fields.add(b.call(IntervalSyntax.KEY, b.field(k)));
        }
        for (int k : distinctArgs) {
            fields.add(b.call(IntervalSyntax.KEY, b.field(k)));
        }
        // a nested key's encoded string, whose least the group shows (an interval's own code is its MIN's argument)
        int codes = fields.size();
        for (int k : intervals) {
            fields.add(isInterval(b.field(k).getType()) ? b.field(k) : b.call(IntervalSyntax.CODE, b.field(k)));
        }
        b.project(fields);
        ImmutableBitSet.Builder groups = ImmutableBitSet.builder();
        for (int k : keys) {
            groups.set(intervals.contains(k) ? width + intervals.indexOf(k) : k);
        }
        ImmutableBitSet groupSet = groups.build();
        List<RelBuilder.AggCall> calls = new ArrayList<>();
        for (AggregateCall c : a.getAggCallList()) {
            boolean lengths = c.isDistinct() && c.getAggregation().getKind() == SqlKind.COUNT
                    && c.getArgList().stream().anyMatch(distinctArgs::contains);
            if (!lengths) {
                calls.add(b.aggregateCall(c));
                continue;
            }
            List<Integer> args = new ArrayList<>();
            for (int arg : c.getArgList()) {
                args.add(distinctArgs.contains(arg) ? width + intervals.size() + distinctArgs.indexOf(arg) : arg);
            }
            calls.add(b.aggregateCall(c.copy(args, c.filterArg, c.distinctKeys, c.collation)));
        }
        for (int i = 0; i < intervals.size(); i++) {
            calls.add(b.min(b.field(codes + i)));
        }
        b.aggregate(b.groupKey(groupSet), calls);
        // back to the aggregation's columns: its keys in their order (an interval's the MIN), then its calls
        List<Integer> newKeys = groupSet.asList();
        List<RexNode> out = new ArrayList<>();
        for (int k : keys) {
            if (!intervals.contains(k)) {
                out.add(b.field(newKeys.indexOf(k)));
                continue;
            }
            RexNode least = b.field(newKeys.size() + a.getAggCallList().size() + intervals.indexOf(k));
            RelDataType type = a.getInput().getRowType().getFieldList().get(k).getType();
            out.add(isInterval(type) ? least
                    : b.getRexBuilder().makeCall(type, IntervalSyntax.OF_CODE, List.of(least)));
        }
        for (int i = 0; i < a.getAggCallList().size(); i++) {
            out.add(b.field(newKeys.size() + i));
        }
        b.project(out, a.getRowType().getFieldNames(), true);
        b.convert(a.getRowType(), false);
        return b.build();
    }

    /**
     * A sort on an INTERVAL sorts on its length, so that intervals of one length spelled differently (1 month, 30 days)
     * tie and the next key orders them, as in DuckDB; the code's order would put 30 days first.
     */
    private static RelNode sortByLength(Sort s, RelBuilder b) {
        List<RelDataTypeField> inputFields = s.getInput().getRowType().getFieldList();
        int width = inputFields.size();
        List<RelFieldCollation> keys = new ArrayList<>();
        List<RexNode> lengths = new ArrayList<>();
        b.push(s.getInput());
        for (RelFieldCollation c : s.getCollation().getFieldCollations()) {
            if (isInterval(inputFields.get(c.getFieldIndex()).getType())) {
                keys.add(c.withFieldIndex(width + lengths.size()));
                lengths.add(b.call(IntervalSyntax.KEY, b.field(c.getFieldIndex())));
            } else {
                keys.add(c);
            }
        }
        if (lengths.isEmpty()) {
            b.clear();
            return s;
        }
        List<RexNode> fields = new ArrayList<>(b.fields());
        fields.addAll(lengths);
        b.project(fields);
        RelNode sorted = LogicalSort.create(b.build(), RelCollations.of(keys), s.offset, s.fetch);
        b.push(sorted);
        b.project(b.fields().subList(0, width), s.getRowType().getFieldNames(), true);
        return b.build();
    }

    /**
     * A window partitioned or ordered by an INTERVAL would partition and order by its code, where DuckDB goes by
     * length (1 month with 30 days): refused, naming it, until windows take the length as sorts do.
     */
    private static void refuseIntervalWindows(Window w) {
        List<RelDataTypeField> fields = w.getInput().getRowType().getFieldList();
        for (Window.Group g : w.groups) {
            List<Integer> keys = new ArrayList<>(g.keys.asList());
            for (RelFieldCollation c : g.orderKeys.getFieldCollations()) {
                keys.add(c.getFieldIndex());
            }
            for (int k : keys) {
                if (k < fields.size() && groupsByKey(fields.get(k).getType())) {
                    throw new io.tessera.sql.SqlError("unsupported: a window function partitioned or ordered by the"
                            + (isInterval(fields.get(k).getType()) ? " INTERVAL " : " value with an INTERVAL inside ")
                            + fields.get(k).getName() + " (intervals of one length spelled differently,"
                            + " 1 month and 30 days, would not be peers)");
                }
            }
        }
    }

    /** Whether values of {@code t} group by a key: an INTERVAL, or a LIST or STRUCT with one inside. */
    static boolean groupsByKey(RelDataType t) {
        return io.tessera.sql.IntervalTypeName.holdsInterval(t);
    }

    static boolean isInterval(RelDataType t) {
        SqlTypeFamily f = t.getSqlTypeName().getFamily();
        return f == SqlTypeFamily.INTERVAL_DAY_TIME || f == SqlTypeFamily.INTERVAL_YEAR_MONTH;
    }
}

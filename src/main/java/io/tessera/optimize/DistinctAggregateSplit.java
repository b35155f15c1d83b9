package io.tessera.optimize;

import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.SqlAggFunction;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.tools.RelBuilder;
import org.apache.calcite.util.ImmutableBitSet;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * An aggregation with DISTINCT aggregates (COUNT, SUM, AVG of distinct values of one argument x) as two plain
 * aggregations, for a plan the GPU runs, whose group tables hold no set of values per group: the first groups the
 * rows by the group keys and x, which leaves each distinct x of a group once, and the second aggregates x over
 * those groups per group key (COUNT(DISTINCT x) is the COUNT of x there). The plain aggregates beside them are
 * computed in two steps as well: per (keys, x) first, then combined (a SUM of the counts and of the sums, the
 * least of the minima, the greatest of the maxima).
 *
 * <p>A NULL x groups too, and the second aggregation skips it as SQL says. Where x can be NULL and is an integer
 * or a DECIMAL, the first aggregation groups by {@code COALESCE(x, 0)} instead and counts x's values there: a group
 * key the GPU can hold (device tables hold no NULL); the second aggregation then reads x as the key where the
 * group counted a value, else as NULL (0 standing for NULLs only is skipped, 0 among the values is kept).
 *
 * <p>Left as it is (the JVM keeps a set of values per group): DISTINCT over several arguments or over more than
 * one column, a DISTINCT aggregate with a FILTER clause, and plain aggregates other than COUNT, SUM, MIN and MAX
 * (AVG, the statistics, the holistic ones), which do not combine from parts as written.
 */
final class DistinctAggregateSplit {

    private static final Set<SqlKind> DISTINCT_KINDS = Set.of(SqlKind.COUNT, SqlKind.SUM, SqlKind.SUM0, SqlKind.AVG,
            SqlKind.MIN, SqlKind.MAX);
    private static final Set<SqlKind> PLAIN_KINDS = Set.of(SqlKind.COUNT, SqlKind.SUM, SqlKind.SUM0, SqlKind.MIN,
            SqlKind.MAX);

    private final RelBuilder builder;

    private DistinctAggregateSplit(RelBuilder builder) {
        this.builder = builder;
    }

    static RelNode apply(RelNode rel, RelBuilder builder) {
        return new DistinctAggregateSplit(builder).visit(rel);
    }

    private RelNode visit(RelNode rel) {
        RelNode copy = Inputs.visited(rel, this::visit);
        if (copy instanceof Aggregate a && a.getGroupType() == Aggregate.Group.SIMPLE) {
            int x = distinctArgument(a);
            if (x >= 0) {
                return split(a, x);
            }
        }
        return copy;
    }

    /**
     * The one input field every DISTINCT aggregate of {@code a} reads, where {@code a} can be split in two; -1 where
     * it has no DISTINCT aggregate (MIN and MAX of distinct values are the plain ones) or cannot be split.
     */
    static int distinctArgument(Aggregate a) {
        int x = -1;
        for (AggregateCall c : a.getAggCallList()) {
            if (c.isApproximate() || !c.getCollation().getFieldCollations().isEmpty() || !c.rexList.isEmpty()) {
                return -1;
            }
            SqlKind kind = c.getAggregation().getKind();
            if (!c.isDistinct() || kind == SqlKind.MIN || kind == SqlKind.MAX) {
                if (!PLAIN_KINDS.contains(kind) || c.hasFilter()) {
                    return -1;
                }
                continue;
            }
            if (!DISTINCT_KINDS.contains(kind) || c.hasFilter() || c.getArgList().size() != 1
                    || x >= 0 && x != c.getArgList().get(0)) {
                return -1;
            }
            x = c.getArgList().get(0);
        }
        return x;
    }

    private RelNode split(Aggregate a, int x) {
        RexBuilder rex = a.getCluster().getRexBuilder();
        RelNode input = a.getInput();
        int width = input.getRowType().getFieldCount();
        RelDataType xType = input.getRowType().getFieldList().get(x).getType();
        boolean coalesced = xType.isNullable() && zeroable(xType);
        builder.push(input);
        int key = x;
        int present = -1;
        if (coalesced) {
            // the key COALESCE(x, 0), and 1 for a row whose x is a value, 0 for one whose x is NULL
            List<RexNode> fields = new ArrayList<>(builder.fields());
            RexNode zero = rex.makeExactLiteral(BigDecimal.ZERO, a.getCluster().getTypeFactory()
                    .createTypeWithNullability(xType, false));
            fields.add(builder.call(SqlStdOperatorTable.COALESCE, builder.field(x), zero));
            fields.add(builder.call(SqlStdOperatorTable.CASE, builder.isNull(builder.field(x)), builder.literal(0),
                    builder.literal(1)));
            builder.project(fields);
            key = width;
            present = width + 1;
        }
        ImmutableBitSet firstKeys = a.getGroupSet().union(ImmutableBitSet.of(key));
        List<RelBuilder.AggCall> parts = new ArrayList<>();
        for (AggregateCall c : a.getAggCallList()) {
            if (plain(c)) {
                parts.add(part(c));
            }
        }
        if (coalesced) {
            parts.add(builder.aggregateCall(SqlStdOperatorTable.SUM0, builder.field(present)));
        }
        builder.aggregate(builder.groupKey(firstKeys), parts);
        // the first aggregation's columns: its keys in field order, then the parts
        int keyColumn = firstKeys.indexOf(key);
        int partColumn = firstKeys.cardinality();
        RexNode value = builder.field(keyColumn);
        if (coalesced) {
            RexNode counted = builder.greaterThan(builder.field(partColumn + parts.size() - 1), builder.literal(0));
            value = builder.call(SqlStdOperatorTable.CASE, counted, value, rex.makeNullLiteral(xType));
        }
        List<RexNode> fields = new ArrayList<>(builder.fields());
        fields.add(value);
        int valueColumn = fields.size() - 1;
        builder.project(fields);
        List<RelBuilder.AggCall> calls = new ArrayList<>();
        int part = partColumn;
        for (AggregateCall c : a.getAggCallList()) {
            RelBuilder.AggCall call = plain(c)
                    ? builder.aggregateCall(combining(c), builder.field(part++))
                    : builder.aggregateCall(c.getAggregation(), builder.field(valueColumn));
            calls.add(c.getName() == null ? call : call.as(c.getName()));
        }
        List<Integer> groups = new ArrayList<>();
        for (int g : a.getGroupSet()) {
            groups.add(firstKeys.indexOf(g));
        }
        builder.aggregate(builder.groupKey(ImmutableBitSet.of(groups)), calls);
        return builder.convert(a.getRowType(), false).build();
    }

    /** Whether {@code c} is an aggregate over all of a group's rows (MIN and MAX of distinct values are too). */
    private static boolean plain(AggregateCall c) {
        SqlKind kind = c.getAggregation().getKind();
        return !c.isDistinct() || kind == SqlKind.MIN || kind == SqlKind.MAX;
    }

    /** The plain aggregate {@code c} over the rows of one (keys, x) group. */
    private RelBuilder.AggCall part(AggregateCall c) {
        List<RexNode> args = new ArrayList<>();
        for (int arg : c.getArgList()) {
            args.add(builder.field(arg));
        }
        if (c.getAggregation().getKind() == SqlKind.COUNT) {
            return builder.count(false, null, args);
        }
        return builder.aggregateCall(c.getAggregation(), args);
    }

    /** The aggregate that combines the parts of plain aggregate {@code c} into its value. */
    private static SqlAggFunction combining(AggregateCall c) {
        return switch (c.getAggregation().getKind()) {
            case COUNT, SUM0 -> SqlStdOperatorTable.SUM0;
            case SUM -> SqlStdOperatorTable.SUM;
            case MIN -> SqlStdOperatorTable.MIN;
            case MAX -> SqlStdOperatorTable.MAX;
            default -> throw new IllegalArgumentException("no combining aggregate for " + c);
        };
    }

    /** Whether 0 is a value of the type: the integers and DECIMAL. */
    private static boolean zeroable(RelDataType t) {
        SqlTypeName n = t.getSqlTypeName();
        return n == SqlTypeName.TINYINT || n == SqlTypeName.SMALLINT || n == SqlTypeName.INTEGER
                || n == SqlTypeName.BIGINT || n == SqlTypeName.DECIMAL;
    }
}

package io.tessera.sql;

import io.tessera.storage.Column;
import io.tessera.storage.Dictionary;
import io.tessera.storage.ListCodec;
import io.tessera.storage.Table;
import org.apache.calcite.plan.RelOptTable;
import org.apache.calcite.rel.RelHomogeneousShuttle;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Correlate;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.core.Uncollect;
import org.apache.calcite.rel.core.Values;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexCorrelVariable;
import org.apache.calcite.rex.RexFieldAccess;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.tools.RelBuilder;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The rows of an UNNEST ({@link Unnests}) as a join with the positions 1 to N: {@code t, UNNEST(t.l)} becomes the rows
 * of {@code t} joined with a VALUES of positions {@code i} where {@code i <= len(t.l)}, each giving
 * {@code t.l[i]}; an empty or NULL list gives no row. Several lists of one UNNEST zip: a row for every position of
 * the longest, NULL past the end of a shorter one. N is the longest list the query can meet: a list literal's
 * length, or the longest value of the stored LIST column the list is read from (from its dictionary).
 */
final class UnnestJoins {
    private UnnestJoins() {
    }

    /** The most positions an unnest joins with (a longer list's rows would be too many to join this way). */
    static final int MAX_LENGTH = 1 << 16;

    /**
     * {@code rel} with each UNNEST a join with positions; {@code measure} runs a one-row plan of list lengths over a
     * query's rows and gives its largest value, where a list is computed (not a column or a literal).
     */
    static RelNode rewrite(RelNode rel, RelBuilder builder, java.util.function.ToLongFunction<RelNode> measure) {
        return rel.accept(new RelHomogeneousShuttle() {
            @Override
            public RelNode visit(RelNode other) {
                RelNode n = super.visit(other);
                if (n instanceof Correlate c && c.getRight() instanceof Uncollect u) {
                    return correlated(c, u, builder, measure);
                }
                if (n instanceof Correlate c && c.getRight() instanceof Project p && p.getInput() instanceof Uncollect u) {
                    return renamed(c, p, correlated(c, u, builder, measure), builder);
                }
                if (n instanceof Uncollect u && listsOf(u).stream().noneMatch(UnnestJoins::containsInput)) {
                    return standalone(u, builder);
                }
                return n;
            }
        });
    }

    /** {@code left, UNNEST(exprs of left's row)}. */
    private static RelNode correlated(Correlate c, Uncollect u, RelBuilder builder,
                                      java.util.function.ToLongFunction<RelNode> measure) {
        if (c.getJoinType() != JoinRelType.INNER) {
            throw new SqlError("unsupported: a " + c.getJoinType().name().toLowerCase(Locale.ROOT)
                    + " join with unnest(...)");
        }
        RelNode left = c.getLeft();
        List<RexNode> lists = listsOf(u);
        // the correlation variable's fields are the left row's columns
        List<RexNode> onLeft = new ArrayList<>();
        for (RexNode e : lists) {
            onLeft.add(e.accept(new RexShuttle() {
                @Override
                public RexNode visitFieldAccess(RexFieldAccess access) {
                    if (access.getReferenceExpr() instanceof RexCorrelVariable v && v.id.equals(c.getCorrelationId())) {
                        return new RexInputRef(access.getField().getIndex(), access.getType());
                    }
                    return super.visitFieldAccess(access);
                }
            }));
        }
        int n;
        try {
            n = longest(onLeft, left);
        } catch (UnknownLength e) {
            n = measured(onLeft, left, builder, measure);
        }
        builder.push(left).push(positions(builder, n));
        int width = left.getRowType().getFieldCount();
        RexNode position = builder.field(2, 1, 0);
        List<RexNode> leftLists = new ArrayList<>();
        for (RexNode e : onLeft) {
            leftLists.add(e.accept(new RexShuttle() {
                @Override
                public RexNode visitInputRef(RexInputRef ref) {
                    return builder.field(2, 0, ref.getIndex());
                }
            }));
        }
        builder.join(JoinRelType.INNER, within(builder, position, leftLists));
        List<RexNode> out = new ArrayList<>();
        for (int i = 0; i < width; i++) {
            out.add(builder.field(i));
        }
        RexNode pos = builder.field(width);
        for (int k = 0; k < onLeft.size(); k++) {
            RexNode shifted = onLeft.get(k); // input refs below width: the joined row's left columns
            out.add(element(builder, shifted, pos, u.getRowType().getFieldList().get(k).getType(),
                    onLeft.size() > 1));
        }
        List<String> names = new ArrayList<>(left.getRowType().getFieldNames());
        names.addAll(u.getRowType().getFieldNames());
        return builder.project(out, names, true).build();
    }

    /** The Correlate's rows where its right side is a projection over the UNNEST's (the left columns kept). */
    private static RelNode renamed(Correlate c, Project p, RelNode joined, RelBuilder builder) {
        int width = c.getLeft().getRowType().getFieldCount();
        builder.push(joined);
        List<RexNode> out = new ArrayList<>();
        for (int i = 0; i < width; i++) {
            out.add(builder.field(i));
        }
        for (RexNode e : p.getProjects()) {
            out.add(e.accept(new RexShuttle() {
                @Override
                public RexNode visitInputRef(RexInputRef ref) {
                    return builder.field(width + ref.getIndex());
                }

                @Override
                public RexNode visitFieldAccess(RexFieldAccess access) {
                    if (access.getReferenceExpr() instanceof RexCorrelVariable v && v.id.equals(c.getCorrelationId())) {
                        return builder.field(access.getField().getIndex());
                    }
                    return super.visitFieldAccess(access);
                }
            }));
        }
        return builder.project(out, c.getRowType().getFieldNames(), true).build();
    }

    /** {@code UNNEST(constant lists)} with no row around it. */
    private static RelNode standalone(Uncollect u, RelBuilder builder) {
        List<RexNode> lists = listsOf(u);
        int n;
        try {
            n = longest(lists, null);
        } catch (UnknownLength e) {
            throw unmeasured();
        }
        builder.push(positions(builder, n));
        RexNode pos = builder.field(0);
        builder.filter(within(builder, pos, lists));
        List<RexNode> out = new ArrayList<>();
        for (int k = 0; k < lists.size(); k++) {
            out.add(element(builder, lists.get(k), builder.field(0), u.getRowType().getFieldList().get(k).getType(),
                    lists.size() > 1));
        }
        return builder.project(out, u.getRowType().getFieldNames(), true).build();
    }

    /** The list expressions an Uncollect unnests: a projection over one row of VALUES. */
    private static List<RexNode> listsOf(Uncollect u) {
        if (u.withOrdinality) {
            throw new SqlError("unsupported: unnest WITH ORDINALITY");
        }
        if (!(u.getInput() instanceof Project p) || !(p.getInput() instanceof Values v) || v.getTuples().size() != 1) {
            throw new SqlError("unsupported: unnest of a query's rows (unnest a list value or a list column)");
        }
        for (RexNode e : p.getProjects()) {
            if (e.getType().getSqlTypeName() != SqlTypeName.ARRAY) {
                throw new SqlError("unsupported: unnest of a " + e.getType() + " (only lists can be unnested)");
            }
        }
        return p.getProjects();
    }

    /** {@code pos <= len(l1) OR pos <= len(l2) ...}: a NULL list's length is NULL, which keeps no row. */
    private static RexNode within(RelBuilder builder, RexNode pos, List<RexNode> lists) {
        List<RexNode> any = new ArrayList<>();
        for (RexNode l : lists) {
            any.add(builder.lessThanOrEqual(pos, builder.call(SqlStdOperatorTable.CARDINALITY, l)));
        }
        return builder.or(any);
    }

    /**
     * The element at {@code pos}, of the type the UNNEST's column has: NOT NULL where the list's elements are (a list
     * literal's), which only one list's positions keep true, since a shorter list of several is padded with NULL.
     */
    private static RexNode element(RelBuilder builder, RexNode list, RexNode pos, RelDataType type, boolean zipped) {
        RexBuilder rex = builder.getRexBuilder();
        RexNode item = rex.makeCall(SqlStdOperatorTable.ITEM, list, pos);
        if (item.getType().equals(type)) {
            return item;
        }
        if (!type.isNullable() && zipped) {
            throw new SqlError("unsupported: unnest of a list of NOT NULL values (a list literal) beside another unnest"
                    + " in one SELECT list");
        }
        return rex.makeAbstractCast(type, item, false);
    }

    /** A VALUES of the positions 1 to n (one row of position 1 for n = 0, which the condition then drops). */
    private static RelNode positions(RelBuilder builder, int n) {
        RelDataType intType = builder.getTypeFactory().createSqlType(SqlTypeName.INTEGER);
        List<List<org.apache.calcite.rex.RexLiteral>> rows = new ArrayList<>();
        for (int i = 1; i <= Math.max(n, 1); i++) {
            rows.add(List.of(builder.getRexBuilder().makeExactLiteral(java.math.BigDecimal.valueOf(i), intType)));
        }
        RelDataType row = builder.getTypeFactory().builder().add("__pos", intType).build();
        return builder.values(rows, row).build();
    }

    /** The longest list {@code lists} can hold, over the rows of {@code input} (null: the lists are constants). */
    private static int longest(List<RexNode> lists, RelNode input) {
        int n = 0;
        for (RexNode e : lists) {
            n = Math.max(n, longest(e, input));
        }
        return joinable(n);
    }

    /** {@code n} positions, refused where more than an unnest joins with. */
    private static int joinable(long n) {
        if (n > MAX_LENGTH) {
            throw new SqlError("unsupported: unnest of a list of " + n + " elements (at most " + MAX_LENGTH + ")");
        }
        return (int) n;
    }

    private static int longest(RexNode e, RelNode input) {
        if (e instanceof RexCall call && (call.getKind() == SqlKind.ARRAY_VALUE_CONSTRUCTOR
                || call.getOperator().getName().equalsIgnoreCase("LIST_VALUE")
                || call.getOperator().getName().equalsIgnoreCase("LIST_PACK"))) {
            return call.getOperands().size();
        }
        if (e instanceof RexCall call && call.getKind() == SqlKind.CAST) {
            return longest(call.getOperands().get(0), input);
        }
        if (e instanceof org.apache.calcite.rex.RexLiteral lit && lit.isNull()) {
            return 0;
        }
        if (e instanceof RexCall call && (call.getKind() == SqlKind.CASE || call.getKind() == SqlKind.COALESCE)) {
            int n = 0;
            for (RexNode o : call.getOperands()) {
                if (o.getType().getSqlTypeName() == SqlTypeName.ARRAY) {
                    n = Math.max(n, longest(o, input));
                }
            }
            return n;
        }
        if (e instanceof RexInputRef ref && input != null) {
            return longestField(ref.getIndex(), input, e);
        }
        return unknown(e);
    }

    /** The longest list field {@code index} of {@code input} holds: followed down to a stored column or literal. */
    private static int longestField(int index, RelNode input, RexNode asked) {
        return switch (input) {
            case Project p -> longest(p.getProjects().get(index), p.getInput());
            case org.apache.calcite.rel.core.Filter f -> longestField(index, f.getInput(), asked);
            case org.apache.calcite.rel.core.Sort s -> longestField(index, s.getInput(), asked);
            case org.apache.calcite.rel.core.Join j -> {
                int left = j.getLeft().getRowType().getFieldCount();
                yield index < left ? longestField(index, j.getLeft(), asked)
                        : longestField(index - left, j.getRight(), asked);
            }
            case org.apache.calcite.rel.core.Aggregate a when index < a.getGroupCount() ->
                    longestField(a.getGroupSet().asList().get(index), a.getInput(), asked);
            case org.apache.calcite.rel.core.TableScan scan -> {
                int n = longestStored(scan.getTable(), index);
                yield n >= 0 ? n : unknown(asked);
            }
            case Values v -> {
                for (List<org.apache.calcite.rex.RexLiteral> row : v.getTuples()) {
                    if (!row.get(index).isNull()) {
                        yield unknown(asked);
                    }
                }
                yield 0;
            }
            default -> unknown(asked);
        };
    }

    private static int unknown(RexNode e) {
        throw new UnknownLength();
    }

    /** A list whose longest value the plan does not tell (a list the query computes: list(x), string_split). */
    private static final class UnknownLength extends RuntimeException {
        UnknownLength() {
            super(null, null, false, false);
        }
    }

    private static SqlError unmeasured() {
        return new SqlError("unsupported: unnest of a list the query computes (such as list(x)) over rows computed by"
                + " a subquery or by a call giving a new value each time: unnest a list column or a list literal");
    }

    /**
     * The longest of {@code lists} over {@code input}'s rows, measured by running the query of their lengths now: the
     * rows are computed twice, once here and once by the query, so only rows that come out the same both times are
     * measured (no subquery, which is not yet decorrelated here, and no call giving a new value each time).
     */
    private static int measured(List<RexNode> lists, RelNode input, RelBuilder builder,
                                java.util.function.ToLongFunction<RelNode> measure) {
        if (RuleTargets.holdsSubQuery(input) || PartwiseDecorrelation.holdsCorrelate(input)
                || VolatileCalls.count(input) > 0 || VolatileCalls.in(lists)) {
            throw unmeasured();
        }
        builder.push(input);
        List<RexNode> lengths = new ArrayList<>();
        for (RexNode l : lists) {
            lengths.add(builder.call(SqlStdOperatorTable.CARDINALITY, l));
        }
        builder.project(lengths);
        List<RelBuilder.AggCall> longest = new ArrayList<>();
        for (int i = 0; i < lists.size(); i++) {
            longest.add(builder.max(builder.field(i)));
        }
        return joinable(measure.applyAsLong(builder.aggregate(builder.groupKey(), longest).build()));
    }

    /** The longest list of a stored LIST column (from its dictionary of distinct values), -1 for another table. */
    private static int longestStored(RelOptTable table, int ordinal) {
        CatalogTable catalog = table.unwrap(CatalogTable.class);
        if (catalog == null) {
            return -1;
        }
        Table t = catalog.table();
        Column column = t.column(ordinal);
        Dictionary d = column.dictionary();
        if (d == null) {
            return -1;
        }
        int n = 0;
        for (int code = 0; code < d.size(); code++) {
            n = Math.max(n, ListCodec.length(d.value(code)));
        }
        return n;
    }

    private static boolean containsInput(RexNode e) {
        boolean[] found = {false};
        e.accept(new RexShuttle() {
            @Override
            public RexNode visitInputRef(RexInputRef ref) {
                found[0] = true;
                return ref;
            }

            @Override
            public RexNode visitFieldAccess(RexFieldAccess access) {
                found[0] = true;
                return access;
            }
        });
        return found[0];
    }
}

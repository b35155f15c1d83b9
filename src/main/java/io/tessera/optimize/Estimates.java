package io.tessera.optimize;

import io.tessera.sql.CatalogTableAccess;
import io.tessera.storage.Column;
import io.tessera.storage.Table;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.Correlate;
import org.apache.calcite.rel.core.Filter;
import org.apache.calcite.rel.core.Intersect;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rel.core.JoinInfo;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.core.Minus;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.core.Sort;
import org.apache.calcite.rel.core.TableScan;
import org.apache.calcite.rel.core.Union;
import org.apache.calcite.rel.core.Values;
import org.apache.calcite.rel.core.Window;
import org.apache.calcite.rel.rules.MultiJoin;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.util.ImmutableBitSet;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * How many rows each operator of a logical plan is expected to produce, and how many distinct values each of its
 * columns holds: the one estimate that join order, build sides, group table sizes and EXPLAIN read. Base tables
 * start from their statistics; filters over a stored table are evaluated on a sample of its rows
 * ({@link TableSample}), what the sample cannot evaluate is estimated from the statistics ({@link Selectivity});
 * joins divide by the larger distinct count of each key ({@link JoinSelectivity}), aggregations count the
 * combinations of their keys. Estimates are kept per operator instance, so asking again costs nothing.
 */
public final class Estimates {

    /** A filter's sample estimate stands on its own once this many sampled rows pass; fewer are blended. */
    static final int MIN_SAMPLE_HITS = 8;

    private record Node(double rows, List<ColumnEstimate> columns) {
    }

    private final Map<RelNode, Node> memo = new IdentityHashMap<>();
    /** Per operator, the bound {@link #determined} found for each set of its fields. */
    private final Map<RelNode, Map<ImmutableBitSet, Double>> determinedMemo = new IdentityHashMap<>();
    private final EstimateSkew skew;

    /** Estimates from the statistics as they are. */
    public Estimates() {
        this(EstimateSkew.NONE);
    }

    /** Estimates with each stored table's rows multiplied by {@code skew}'s factor. */
    public Estimates(EstimateSkew skew) {
        this.skew = skew;
    }

    /** Expected rows of {@code rel} (at least 1). */
    public double rows(RelNode rel) {
        return node(rel).rows;
    }

    /** The expected distinct values and NULL fraction of field {@code field} of {@code rel}. */
    public ColumnEstimate column(RelNode rel, int field) {
        return node(rel).columns.get(field);
    }

    /**
     * Expected distinct combinations of {@code fields} among the rows of {@code rel}: the product of their distinct
     * counts, at most the rows, and at most the combinations of the relation they are taken from ({@link #determined}).
     */
    public double distinct(RelNode rel, ImmutableBitSet fields) {
        Node n = node(rel);
        double product = 1;
        for (int f : fields) {
            product *= n.columns.get(f).distinct();
            if (product > n.rows) {
                product = n.rows;
                break;
            }
        }
        double rows = Math.min(product, n.rows);
        Map<ImmutableBitSet, Double> known = determinedMemo.computeIfAbsent(rel, r -> new HashMap<>());
        Double bound = known.get(fields);
        if (bound == null) {
            // memoized: a key of many joins maps to both sides of each, which would otherwise be walked 2^joins times
            bound = determined(rel, fields);
            known.put(fields, bound);
        }
        return Math.max(1, Math.min(rows, bound));
    }

    /**
     * A bound on the distinct combinations of {@code fields} of {@code rel} from the relation below that they are
     * taken from: through projections of plain columns and through filters (which only drop rows) to the input's
     * fields; through a join whose row carries one row of each side, to one side's combinations where every field is
     * of that side or equal to one of its join keys (Q3: an order key, date and priority grouped after lineitem's join
     * with orders are at most the orders' combinations, however many lineitem rows each order has). Infinity where
     * nothing below bounds them.
     */
    private double determined(RelNode rel, ImmutableBitSet fields) {
        if (fields.isEmpty()) {
            return 1;
        }
        if (rel instanceof Project p) {
            ImmutableBitSet.Builder in = ImmutableBitSet.builder();
            for (int f : fields) {
                if (!(p.getProjects().get(f) instanceof RexInputRef r)) {
                    return Double.POSITIVE_INFINITY;
                }
                in.set(r.getIndex());
            }
            return distinct(p.getInput(), in.build());
        }
        if (rel instanceof Filter f) {
            return distinct(f.getInput(), fields);
        }
        if (rel instanceof Join j) {
            JoinRelType type = j.getJoinType();
            if (type == JoinRelType.SEMI || type == JoinRelType.ANTI) {
                return distinct(j.getLeft(), fields);
            }
            JoinInfo info = j.analyzeCondition();
            int nLeft = j.getLeft().getRowType().getFieldCount();
            double bound = Double.POSITIVE_INFINITY;
            // a side that NULLs fill for rows without a match adds a combination of NULLs: not bounded by its own
            ImmutableBitSet left = type == JoinRelType.INNER || type == JoinRelType.LEFT
                    ? onSide(fields, nLeft, info, true) : null;
            if (left != null) {
                bound = distinct(j.getLeft(), left);
            }
            ImmutableBitSet right = type == JoinRelType.INNER || type == JoinRelType.RIGHT
                    ? onSide(fields, nLeft, info, false) : null;
            if (right != null) {
                bound = Math.min(bound, distinct(j.getRight(), right));
            }
            return bound;
        }
        return Double.POSITIVE_INFINITY;
    }

    /**
     * {@code fields} of a join's row as fields of its left ({@code toLeft}) or right input: a field of the other side
     * through the join key it equals; null where a field is of the other side and no key.
     */
    private static ImmutableBitSet onSide(ImmutableBitSet fields, int nLeft, JoinInfo info, boolean toLeft) {
        ImmutableBitSet.Builder out = ImmutableBitSet.builder();
        for (int f : fields) {
            boolean isLeft = f < nLeft;
            if (isLeft == toLeft) {
                out.set(isLeft ? f : f - nLeft);
                continue;
            }
            List<Integer> from = isLeft ? info.leftKeys : info.rightKeys;
            List<Integer> to = isLeft ? info.rightKeys : info.leftKeys;
            int k = from.indexOf(isLeft ? f : f - nLeft);
            if (k < 0) {
                return null;
            }
            out.set(to.get(k));
        }
        return out.build();
    }

    /** Replaces the estimate of {@code rel} (tests force estimates far off to check the plans stay right). */
    public void force(RelNode rel, double rows) {
        Node n = node(rel);
        List<ColumnEstimate> cols = new ArrayList<>();
        for (ColumnEstimate c : n.columns) {
            cols.add(c.capped(Math.max(1, rows)));
        }
        memo.put(rel, new Node(Math.max(1, rows), cols));
        determinedMemo.clear();
    }

    private Node node(RelNode rel) {
        Node n = memo.get(rel);
        if (n == null) {
            n = compute(rel);
            memo.put(rel, n);
        }
        return n;
    }

    /** Distinct values left of {@code distinct} when {@code before} rows become {@code after}, at random. */
    static double distinctAfter(double distinct, double before, double after) {
        if (after >= before || before <= 0) {
            return Math.max(1, Math.min(distinct, Math.max(after, 1)));
        }
        double keep = after / before;
        double perValue = before / Math.max(1, distinct);
        double d = distinct * (1 - Math.pow(1 - keep, perValue));
        return Math.max(1, Math.min(d, after));
    }

    private Node compute(RelNode rel) {
        if (rel instanceof TableScan ts) {
            return scan(ts);
        } else if (rel instanceof Filter f) {
            return filter(f);
        } else if (rel instanceof Project p) {
            return project(p);
        } else if (rel instanceof Join j) {
            return join(j);
        } else if (rel instanceof Aggregate a) {
            return aggregate(a);
        } else if (rel instanceof Sort s) {
            return sort(s);
        } else if (rel instanceof Union u) {
            return union(u);
        } else if (rel instanceof Intersect || rel instanceof Minus) {
            return node(rel.getInput(0));
        } else if (rel instanceof Values v) {
            return computedColumns(rel, v.getTuples().size());
        } else if (rel instanceof Window w) {
            Node in = node(w.getInput());
            List<ColumnEstimate> cols = new ArrayList<>(in.columns);
            while (cols.size() < w.getRowType().getFieldCount()) {
                cols.add(ColumnEstimate.computed(in.rows));
            }
            return new Node(in.rows, cols);
        } else if (rel instanceof Correlate c) {
            Node left = node(c.getLeft());
            return extend(left, rel, left.rows);
        } else if (rel instanceof MultiJoin mj) {
            return multiJoin(mj);
        } else if (rel.getInputs().size() == 1) {
            Node in = node(rel.getInput(0));
            return extend(in, rel, in.rows);
        }
        return computedColumns(rel, Math.max(1, rel.getCluster().getMetadataQuery().getRowCount(rel)));
    }

    /** The input's columns, then computed ones up to {@code rel}'s width, over {@code rows} rows. */
    private static Node extend(Node in, RelNode rel, double rows) {
        List<ColumnEstimate> cols = new ArrayList<>();
        int n = rel.getRowType().getFieldCount();
        for (int i = 0; i < n; i++) {
            cols.add(i < in.columns.size() ? in.columns.get(i).thinned(in.rows, rows) : ColumnEstimate.computed(rows));
        }
        return new Node(Math.max(1, rows), cols);
    }

    private static Node computedColumns(RelNode rel, double rows) {
        List<ColumnEstimate> cols = new ArrayList<>();
        for (int i = 0; i < rel.getRowType().getFieldCount(); i++) {
            cols.add(ColumnEstimate.computed(rows));
        }
        return new Node(Math.max(1, rows), cols);
    }

    private Node scan(TableScan ts) {
        CatalogTableAccess access = ts.getTable().unwrap(CatalogTableAccess.class);
        if (access == null) {
            return computedColumns(ts, Math.max(1, ts.estimateRowCount(ts.getCluster().getMetadataQuery())));
        }
        Table t = access.table();
        double rows = Math.max(1, t.rowCount() * skew.factor(t.name()));
        List<ColumnEstimate> cols = new ArrayList<>();
        for (Column c : t.columns()) {
            double nonNull = Math.max(0, t.rowCount() - c.stats().nullCount());
            double d = c.stats().distinctEstimate() > 0 ? c.stats().distinctEstimate() : Math.max(1, nonNull);
            cols.add(new ColumnEstimate(Math.min(d, rows), t.rowCount() == 0 ? 0 : c.stats().nullCount() / (double) t.rowCount(), c));
        }
        return new Node(rows, cols);
    }

    private Node project(Project p) {
        Node in = node(p.getInput());
        List<ColumnEstimate> cols = new ArrayList<>();
        for (RexNode e : p.getProjects()) {
            cols.add(expression(in, e));
        }
        return new Node(in.rows, cols);
    }

    /** The values of a projected expression: a column's own, one for a constant, else at most the product. */
    private static ColumnEstimate expression(Node in, RexNode e) {
        RexNode inner = e;
        while (inner instanceof RexCall c && c.getKind() == SqlKind.CAST) {
            inner = c.getOperands().get(0);
        }
        if (inner instanceof RexInputRef r) {
            ColumnEstimate c = in.columns.get(r.getIndex());
            return inner == e ? c : new ColumnEstimate(c.distinct(), c.nullFraction(), null, c.aggregate(), c.domain());
        }
        if (inner instanceof RexLiteral l) {
            return new ColumnEstimate(1, l.getValue() == null ? 1 : 0, null);
        }
        double d = 1;
        for (int f : RelOptUtil.InputFinder.bits(e)) {
            d *= in.columns.get(f).distinct();
        }
        if (inner instanceof RexCall call && call.getKind() == SqlKind.EXTRACT) {
            d = Math.min(d, extractedValues(in, call));
        }
        return ColumnEstimate.computed(Math.min(in.rows, Math.max(d, 1)));
    }

    /**
     * The most values a date part can take (Q7, Q8, Q9 group by a year extracted from a date): the years the column's
     * statistics span, the twelve months, and so on; infinity where the part or the column is of another kind.
     */
    private static double extractedValues(Node in, RexCall extract) {
        if (!(extract.getOperands().get(0) instanceof RexLiteral unit)
                || !(unit.getValue() instanceof org.apache.calcite.avatica.util.TimeUnitRange range)) {
            return Double.POSITIVE_INFINITY;
        }
        return switch (range) {
            case YEAR -> {
                RexNode arg = extract.getOperands().get(1);
                while (arg instanceof RexCall c && c.getKind() == SqlKind.CAST) {
                    arg = c.getOperands().get(0);
                }
                Column origin = arg instanceof RexInputRef r ? in.columns.get(r.getIndex()).origin() : null;
                if (origin == null || origin.type().kind() != io.tessera.storage.TypeKind.DATE
                        || !origin.stats().hasRange() || !(origin.stats().min() instanceof Number)) {
                    yield Double.POSITIVE_INFINITY;
                }
                yield java.time.LocalDate.ofEpochDay(origin.stats().maxLong()).getYear()
                        - java.time.LocalDate.ofEpochDay(origin.stats().minLong()).getYear() + 1;
            }
            case QUARTER -> 4;
            case MONTH -> 12;
            case DAY -> 31;
            case DOW, ISODOW -> 7;
            case HOUR -> 24;
            default -> Double.POSITIVE_INFINITY;
        };
    }

    private Node filter(Filter f) {
        Node in = node(f.getInput());
        double s = BaseFilters.selectivity(this, f);
        double rows = Math.max(1, in.rows * s);
        List<ColumnEstimate> cols = new ArrayList<>();
        for (ColumnEstimate c : in.columns) {
            cols.add(c.thinned(in.rows, rows));
        }
        // a column compared for equality with a constant holds one value
        for (RexNode c : RelOptUtil.conjunctions(f.getCondition())) {
            if (c.getKind() == SqlKind.EQUALS && c instanceof RexCall call) {
                RexNode a = call.getOperands().get(0);
                RexNode b = call.getOperands().get(1);
                if (a instanceof RexInputRef r && b instanceof RexLiteral) {
                    cols.set(r.getIndex(), cols.get(r.getIndex()).withDistinct(1));
                } else if (b instanceof RexInputRef r && a instanceof RexLiteral) {
                    cols.set(r.getIndex(), cols.get(r.getIndex()).withDistinct(1));
                }
            }
            // a range (or IN list, LIKE) on a column keeps about its share of the column's values, where rows
            // dropped at random would leave most of them (a key filtered below a join: Q3-like order key ranges)
            ImmutableBitSet read = RelOptUtil.InputFinder.bits(c);
            if (read.cardinality() == 1 && ColumnClasses.isValuePredicate(c, read.nth(0))) {
                int i = read.nth(0);
                double kept = in.columns.get(i).distinct() * statisticsSelectivity(f.getInput(), c);
                cols.set(i, cols.get(i).withDistinct(Math.min(cols.get(i).distinct(), Math.max(1, kept))));
            }
        }
        return new Node(rows, cols);
    }

    /** Selectivity of {@code condition} over the rows of {@code input}, from statistics alone. */
    double statisticsSelectivity(RelNode input, RexNode condition) {
        Node in = node(input);
        return new Selectivity(i -> in.columns.get(i), input.getCluster().getRexBuilder()).of(condition);
    }

    private Node join(Join j) {
        Node left = node(j.getLeft());
        Node right = node(j.getRight());
        JoinInfo info = j.analyzeCondition();
        List<ColumnEstimate> both = new ArrayList<>(left.columns);
        both.addAll(right.columns);
        double keySel = JoinSelectivity.keys(info.leftKeys, info.rightKeys, left.columns, right.columns,
                left.rows, right.rows);
        double residual = info.nonEquiConditions.isEmpty() ? 1
                : new Selectivity(both::get, j.getCluster().getRexBuilder())
                .of(org.apache.calcite.rex.RexUtil.composeConjunction(j.getCluster().getRexBuilder(), info.nonEquiConditions));
        JoinRelType type = j.getJoinType();
        if (type == JoinRelType.SEMI || type == JoinRelType.ANTI) {
            double found = JoinSelectivity.semi(info.leftKeys, info.rightKeys, left.columns, right.columns)
                    * (info.nonEquiConditions.isEmpty() ? 1 : Math.sqrt(residual));
            double kept = type == JoinRelType.SEMI ? found : Math.max(1 - found, JoinSelectivity.MIN_ANTI);
            double rows = Math.max(1, left.rows * kept);
            Node out = extend(left, j, rows);
            // the rows kept were chosen by their keys' values: those are narrowed, not thinned at random, and a semi
            // join keeps only the values the other side holds
            List<ColumnEstimate> cols = new ArrayList<>(out.columns);
            for (int k = 0; k < info.leftKeys.size(); k++) {
                int f = info.leftKeys.get(k);
                double d = cols.get(f).distinct();
                if (type == JoinRelType.SEMI) {
                    d = Math.min(d, right.columns.get(info.rightKeys.get(k)).distinct());
                }
                cols.set(f, cols.get(f).withDistinct(d));
            }
            return new Node(out.rows, cols);
        }
        double inner = Math.max(1, left.rows * right.rows * keySel * residual);
        double rows = switch (type) {
            case LEFT -> Math.max(inner, left.rows);
            case RIGHT -> Math.max(inner, right.rows);
            case FULL -> Math.max(inner, left.rows + right.rows - Math.min(inner, Math.min(left.rows, right.rows)));
            default -> inner;
        };
        List<ColumnEstimate> cols = new ArrayList<>();
        for (ColumnEstimate c : left.columns) {
            ColumnEstimate t = c.thinned(left.rows, inner);
            cols.add(type == JoinRelType.RIGHT || type == JoinRelType.FULL
                    ? t.withNullFraction(1 - (1 - c.nullFraction()) * Math.min(1, inner / rows)) : t);
        }
        for (ColumnEstimate c : right.columns) {
            ColumnEstimate t = c.thinned(right.rows, inner);
            cols.add(type == JoinRelType.LEFT || type == JoinRelType.FULL
                    ? t.withNullFraction(1 - (1 - c.nullFraction()) * Math.min(1, inner / rows)) : t);
        }
        // the two sides of an equality hold the same values after an inner match
        for (int k = 0; k < info.leftKeys.size(); k++) {
            int l = info.leftKeys.get(k);
            int r = left.columns.size() + info.rightKeys.get(k);
            double d = Math.min(cols.get(l).distinct(), cols.get(r).distinct());
            if (type == JoinRelType.INNER) {
                cols.set(l, cols.get(l).withDistinct(d));
                cols.set(r, cols.get(r).withDistinct(d));
            }
        }
        return new Node(rows, cols.subList(0, j.getRowType().getFieldCount()));
    }

    private Node aggregate(Aggregate a) {
        Node in = node(a.getInput());
        double groups = a.getGroupSet().isEmpty() ? 1 : distinct(a.getInput(), a.getGroupSet());
        if (a.getGroupSets().size() > 1) {
            groups = Math.min(in.rows, groups * a.getGroupSets().size());
        }
        List<ColumnEstimate> cols = new ArrayList<>();
        for (int g : a.getGroupSet()) {
            cols.add(in.columns.get(g).capped(groups));
        }
        double groupRows = in.rows / Math.max(1, groups);
        for (org.apache.calcite.rel.core.AggregateCall call : a.getAggCallList()) {
            List<Integer> args = call.getArgList();
            Column origin = args.size() == 1 ? numericOrigin(a.getInput(), args.get(0)) : null;
            AggregateValues values = call.isDistinct() || call.filterArg >= 0 || args.size() > 1 ? null
                    : AggregateValues.of(call.getAggregation().getKind(), origin, groupRows);
            cols.add(new ColumnEstimate(groups, 0, null, values));
        }
        while (cols.size() < a.getRowType().getFieldCount()) {
            cols.add(ColumnEstimate.computed(groups));
        }
        return new Node(Math.max(1, groups), cols);
    }

    /**
     * The stored column whose values field {@code field} of {@code rel} holds, also through a projection that casts
     * it (AVG's argument is cast to DOUBLE): the same numbers, which the column's statistics describe; else null.
     */
    private Column numericOrigin(RelNode rel, int field) {
        Column origin = node(rel).columns.get(field).origin();
        if (origin != null || !(rel instanceof Project p)) {
            return origin;
        }
        RexNode e = p.getProjects().get(field);
        while (e instanceof RexCall c && c.getKind() == SqlKind.CAST) {
            e = c.getOperands().get(0);
        }
        return e instanceof RexInputRef r ? numericOrigin(p.getInput(), r.getIndex()) : null;
    }

    private Node sort(Sort s) {
        Node in = node(s.getInput());
        double rows = in.rows;
        if (s.offset instanceof RexLiteral o) {
            rows = Math.max(0, rows - o.getValueAs(BigDecimal.class).doubleValue());
        }
        if (s.fetch instanceof RexLiteral f) {
            rows = Math.min(rows, f.getValueAs(BigDecimal.class).doubleValue());
        }
        return extend(in, s, Math.max(1, rows));
    }

    private Node union(Union u) {
        double rows = 0;
        List<ColumnEstimate> cols = null;
        for (RelNode in : u.getInputs()) {
            Node n = node(in);
            rows += n.rows;
            if (cols == null) {
                cols = new ArrayList<>(n.columns);
            } else {
                for (int i = 0; i < cols.size(); i++) {
                    ColumnEstimate a = cols.get(i);
                    cols.set(i, new ColumnEstimate(a.distinct() + n.columns.get(i).distinct(), a.nullFraction(), null));
                }
            }
        }
        double total = Math.max(1, rows);
        List<ColumnEstimate> capped = new ArrayList<>();
        for (ColumnEstimate c : cols) {
            capped.add(c.withDistinct(Math.min(c.distinct(), total)));
        }
        return new Node(total, capped);
    }

    private Node multiJoin(MultiJoin mj) {
        double rows = 1;
        List<ColumnEstimate> cols = new ArrayList<>();
        for (RelNode in : mj.getInputs()) {
            Node n = node(in);
            rows *= n.rows;
            cols.addAll(n.columns);
        }
        double s = new Selectivity(cols::get, mj.getCluster().getRexBuilder()).of(mj.getJoinFilter());
        return extend(new Node(rows, cols), mj, Math.max(1, rows * s));
    }
}

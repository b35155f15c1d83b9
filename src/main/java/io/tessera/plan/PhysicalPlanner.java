package io.tessera.plan;

import io.tessera.optimize.Estimates;
import io.tessera.optimize.Optimizer;
import io.tessera.sql.SqlError;
import io.tessera.sql.VolatileCalls;
import io.tessera.storage.DataType;
import io.tessera.storage.Table;
import io.tessera.storage.TypeKind;
import org.apache.calcite.rel.RelCollation;
import org.apache.calcite.rel.RelFieldCollation;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.rel.core.Filter;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.core.Sort;
import org.apache.calcite.rel.core.TableScan;
import org.apache.calcite.rel.core.Union;
import org.apache.calcite.rel.core.Values;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.SqlKind;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Cuts an optimized Calcite plan into pipelines by produce/consume (Hawk, section 4): a scan starts a pipeline,
 * filters and projections stay inside it, a join's build side ends its own pipeline in a BUILD sink and its probe
 * side goes on with a PROBE, and aggregation, sorting and materialization end a pipeline whose rows a later one
 * reads. Expressions are translated to Tessera's IR over the slots of the pipeline that evaluates them.
 */
public final class PhysicalPlanner {

    /** Largest perfect (array) hash table, in slots. */
    static final long MAX_PERFECT_RANGE = 1L << 26;

    final RelMetadataQuery mq;
    final UniqueColumns uniqueColumns;
    final Estimates estimates;
    final RexTranslator rex;
    private final JoinPlanner joins = new JoinPlanner(this);
    private final List<Pipeline> pipelines = new ArrayList<>();
    private final Map<Integer, List<Object[]>> values = new HashMap<>();
    private int nextPipeline;
    int nextJoin;
    int nextRelation;

    private PhysicalPlanner(RelNode root, Estimates estimates) {
        this.mq = root.getCluster().getMetadataQuery();
        this.uniqueColumns = new UniqueColumns(mq);
        this.estimates = estimates;
        this.rex = new RexTranslator(root.getCluster().getRexBuilder(),
                io.tessera.sql.SqlFrontEnd.timeZone(root.getCluster()));
    }

    /**
     * A pipeline being built: its source, operations so far, one expression per field of the current node, and the
     * estimated rows after the source and after each operation.
     */
    static final class Open {
        final Source source;
        final List<Operation> ops = new ArrayList<>();
        final List<Double> rows = new ArrayList<>();
        List<Expr> fields;
        List<String> names;

        Open(Source source, List<Expr> fields, List<String> names, double sourceRows) {
            this.source = source;
            this.fields = fields;
            this.names = names;
            rows.add(sourceRows);
        }

        /** Appends an operation with the rows estimated after it (NaN for none). */
        void add(Operation op, double rowsAfter) {
            ops.add(op);
            rows.add(rowsAfter);
        }

        /** The rows estimated after the last operation with an estimate. */
        double currentRows() {
            for (int i = rows.size() - 1; i >= 0; i--) {
                if (!Double.isNaN(rows.get(i))) {
                    return rows.get(i);
                }
            }
            return Double.NaN;
        }
    }

    public static QueryPlan plan(Optimizer.OptimizedPlan optimized) {
        return new PhysicalPlanner(optimized.rel(), optimized.estimates()).planRoot(optimized.rel(), optimized.fieldNames());
    }

    private QueryPlan planRoot(RelNode root, List<String> outputNames) {
        Open o = visit(root);
        List<String> names = outputNames.size() == o.fields.size() ? outputNames : o.names;
        int rel;
        List<ColumnInfo> cols;
        if (o.ops.isEmpty() && o.source instanceof Source.RelationScan rs && isIdentity(o.fields, rs.columns().size())) {
            rel = rs.relationId();
            cols = new ArrayList<>();
            for (int i = 0; i < rs.columns().size(); i++) {
                ColumnInfo c = rs.columns().get(i);
                cols.add(new ColumnInfo(names.get(i), c.type(), c.nullable(), c.dictionaryKey()));
            }
        } else {
            rel = nextRelation++;
            close(o, new Sink.Materialize(o.fields, names, 0, -1, rel));
            cols = relationColumns(rel, o.fields, names);
        }
        return new QueryPlan(List.copyOf(pipelines), rel, cols, values);
    }

    private static boolean isIdentity(List<Expr> fields, int n) {
        if (fields.size() != n) {
            return false;
        }
        for (int i = 0; i < n; i++) {
            if (!(fields.get(i) instanceof Expr.Ref r) || !r.slot().isSource() || r.slot().index() != i) {
                return false;
            }
        }
        return true;
    }

    Open visit(RelNode rel) {
        if (rel instanceof TableScan ts) {
            return scan(ts);
        } else if (rel instanceof Filter f) {
            Open o = visit(f.getInput());
            addFilter(o, f.getCondition(), estimates.rows(f));
            return o;
        } else if (rel instanceof Project p) {
            Open o = visit(p.getInput());
            List<Expr> fields = new ArrayList<>();
            for (RexNode e : p.getProjects()) {
                fields.add(rex.translate(e, o.fields));
            }
            o.fields = fields;
            o.names = p.getRowType().getFieldNames();
            return VolatileCalls.columns(p).isEmpty() ? o : stored(o, estimates.rows(p));
        } else if (rel instanceof Join j) {
            return joins.join(j);
        } else if (rel instanceof Aggregate a) {
            return aggregate(a);
        } else if (rel instanceof Sort s) {
            return sort(s);
        } else if (rel instanceof org.apache.calcite.rel.core.Window w) {
            return WindowPlanning.plan(this, w);
        } else if (rel instanceof org.apache.calcite.rel.core.SetOp so && !(so instanceof Union su && su.all)) {
            return SetOpPlanning.plan(this, so);
        } else if (rel instanceof Union u) {
            return union(u);
        } else if (rel instanceof Values v) {
            return values(v);
        }
        throw new SqlError("unsupported: " + rel.getRelTypeName().replace("Logical", "") + " in the query plan");
    }

    /**
     * {@code o}'s rows written to a relation, and a pipeline reading them: for a projection that computes random(),
     * nextval or another call giving a new value each time ({@code sql.VolatileCalls}). The operators above put a
     * field's expression in place of each of its reads, which would compute the call again per read; read from the
     * relation, each row's value is the one computed once. (At the root, the relation is the result.)
     */
    private Open stored(Open o, double rows) {
        int rel = nextRelation++;
        close(o, new Sink.Materialize(o.fields, o.names, 0, -1, rel), rows);
        return relationScan(rel, relationColumns(rel, o.fields, o.names), rows);
    }

    private Open scan(TableScan ts) {
        Table t = ts.getTable().unwrap(io.tessera.sql.CatalogTableAccess.class).table();
        List<ColumnInfo> cols = SourceColumns.of(t);
        List<Expr> fields = new ArrayList<>();
        for (int i = 0; i < cols.size(); i++) {
            ColumnInfo c = cols.get(i);
            fields.add(new Expr.Ref(Slot.source(i, c.name(), c.type(), c.nullable(), c.dictionaryKey(), t.column(i))));
        }
        return new Open(new Source.TableScan(t, cols), fields, ts.getRowType().getFieldNames(), estimates.rows(ts));
    }

    /**
     * Adds a filter per conjunct, in the order written; the last one carries {@code rowsAfter}, the rows estimated
     * after all of them. (Ordering them by the table's sample made the generated code depend on the query's
     * constants, so that queries differing only in constants no longer shared their compiled classes.)
     */
    void addFilter(Open o, RexNode condition, double rowsAfter) {
        List<Expr> exprs = new ArrayList<>();
        for (RexNode c : org.apache.calcite.plan.RelOptUtil.conjunctions(condition)) {
            if (!c.isAlwaysTrue()) {
                exprs.add(rex.translate(c, o.fields));
            }
        }
        for (int i = 0; i < exprs.size(); i++) {
            o.add(new Operation.Filter(exprs.get(i)), i == exprs.size() - 1 ? rowsAfter : Double.NaN);
        }
    }

    /** Ends {@code o} in {@code sink}, which makes {@code sinkRows} rows (or entries, or groups) by estimate. */
    Pipeline close(Open o, Sink sink, double sinkRows) {
        List<Operation> ops = new ArrayList<>(o.ops);
        List<Double> rows = new ArrayList<>(o.rows);
        ProbesBeforeFilters.apply(ops, rows);
        rows.add(sinkRows);
        Pipeline p = new Pipeline(nextPipeline++, o.source, ops, sink, rows);
        pipelines.add(p);
        return p;
    }

    /** Ends {@code o} in a sink that keeps the rows it gets. */
    Pipeline close(Open o, Sink sink) {
        return close(o, sink, o.currentRows());
    }

    /** Starts a pipeline over relation {@code rel} with these columns. */
    Open relationScan(int rel, List<ColumnInfo> cols, double rows) {
        List<Expr> fields = new ArrayList<>();
        List<String> names = new ArrayList<>();
        for (int i = 0; i < cols.size(); i++) {
            ColumnInfo c = cols.get(i);
            fields.add(new Expr.Ref(Slot.source(i, c.name(), c.type(), c.nullable(), c.dictionaryKey(), null)));
            names.add(c.name());
        }
        return new Open(new Source.RelationScan(rel, cols, rows), fields, names, rows);
    }

    /** Columns of a relation written from these expressions; VARCHAR codes keep their dictionary when copied as is. */
    static List<ColumnInfo> relationColumns(int rel, List<Expr> exprs, List<String> names) {
        List<ColumnInfo> cols = new ArrayList<>();
        for (int i = 0; i < exprs.size(); i++) {
            Expr e = exprs.get(i);
            cols.add(new ColumnInfo(names.get(i), e.type(), e.nullable(), DictionaryKeys.of(e, DictionaryKeys.relation(rel, i))));
        }
        return cols;
    }

    // ---- aggregation ----

    /** A relation an aggregation made, by the digest of the aggregation, for another equal one to read. */
    private record Shared(int relationId, List<ColumnInfo> columns, double rows) {
    }

    private final Map<String, Shared> sharedAggregates = new HashMap<>();

    private Open aggregate(Aggregate a) {
        if (a.getGroupType() != Aggregate.Group.SIMPLE) {
            throw new SqlError("unsupported: GROUPING SETS, ROLLUP or CUBE");
        }
        // the same aggregation twice in one query (a view or WITH named twice, TPC-H Q15) is computed once
        Shared same = sharedAggregates.get(a.getDigest());
        if (same != null) {
            Open again = relationScan(same.relationId(), same.columns(), same.rows());
            again.names = a.getRowType().getFieldNames();
            ListSortKeys.listsOfKeys(a, again);
            return again;
        }
        Open o = visit(a.getInput());
        List<Expr> keys = new ArrayList<>();
        List<String> keyNames = new ArrayList<>();
        List<KeyRange> ranges = new ArrayList<>();
        List<String> outNames = a.getRowType().getFieldNames();
        int k = 0;
        for (int g : a.getGroupSet()) {
            Expr e = o.fields.get(g);
            keys.add(e);
            keyNames.add(outNames.get(k++));
            ranges.add(KeyRange.of(e));
        }
        List<AggCall> aggs = new ArrayList<>();
        for (AggregateCall call : a.getAggCallList()) {
            aggs.add(aggCall(call, o, outNames.get(k++), a));
        }
        int rel = nextRelation++;
        double groups = estimates.rows(a);
        Sink sink = keys.isEmpty() ? new Sink.Aggregate(aggs, rel)
                : new Sink.GroupAggregate(keys, keyNames, aggs, ranges, rel, groups);
        close(o, sink, groups);
        List<ColumnInfo> cols = new ArrayList<>(relationColumns(rel, keys, keyNames));
        for (int i = 0; i < aggs.size(); i++) {
            AggCall ac = aggs.get(i);
            String computed = DictionaryKeys.relation(rel, keys.size() + i);
            // MIN, MAX and the single-value aggregates return one of their argument's codes
            boolean keepsCodes = ac.function() == AggFunction.MIN || ac.function() == AggFunction.MAX
                    || ac.function() == AggFunction.SINGLE_VALUE || ac.function() == AggFunction.ANY_VALUE
                    || ac.function() == AggFunction.MODE || ac.function() == AggFunction.QUANTILE_DISC;
            String dict = ac.type().kind() != TypeKind.VARCHAR ? null
                    : keepsCodes && ac.arg() != null ? DictionaryKeys.of(ac.arg(), computed) : computed;
            cols.add(new ColumnInfo(ac.name(), ac.type(), ac.nullable(), dict));
        }
        sharedAggregates.put(a.getDigest(), new Shared(rel, cols, groups));
        Open next = relationScan(rel, cols, groups);
        next.names = outNames;
        ListSortKeys.listsOfKeys(a, next);
        return next;
    }

    /** Field i of the aggregation's input, as the literal Calcite's predicates prove it is where they do. */
    private static Expr constantField(Aggregate a, Open o, int i) {
        Expr e = o.fields.get(i);
        if (e instanceof Expr.Literal) {
            return e;
        }
        RexNode c = a.getCluster().getMetadataQuery().getPulledUpPredicates(a.getInput()).constantMap
                .get(RexInputRef.of(i, a.getInput().getRowType()));
        return c instanceof RexLiteral lit ? RexTranslator.literal(lit) : e;
    }

    private AggCall aggCall(AggregateCall call, Open o, String name, Aggregate a) {
        if (call.getAggregation().getKind() == SqlKind.LITERAL_AGG) {
            // the constant a decorrelated subquery marks its rows with: any row of the group gives it
            return new AggCall(AggFunction.ANY_VALUE, RexTranslator.literal((RexLiteral) call.rexList.get(0)),
                    null, Types.of(call.getType()), call.getType().isNullable(), name);
        }
        List<Integer> args = call.getArgList();
        Expr arg = args.isEmpty() ? null : o.fields.get(args.get(0));
        Expr filter = call.filterArg >= 0 ? o.fields.get(call.filterArg) : null;
        DataType type = Types.of(call.getType());
        boolean nullable = call.getType().isNullable();
        if (HolisticCalls.named(call)) {
            List<Expr> exprs = new ArrayList<>();
            for (int i = 0; i < args.size(); i++) {
                // a separator or fraction may reach the aggregation as a column of constant rows (a VALUES row
                // Calcite made of a SELECT without FROM): the constant Calcite proves the column holds
                exprs.add(i == 0 ? o.fields.get(args.get(i)) : constantField(a, o, args.get(i)));
            }
            return HolisticCalls.of(call, exprs, filter, type, name, o.fields::get);
        }
        AggFunction f = switch (call.getAggregation().getKind()) {
            case COUNT -> {
                if (args.size() > 1) {
                    throw new SqlError("unsupported: COUNT with several arguments");
                }
                yield args.isEmpty() ? AggFunction.COUNT_STAR : call.isDistinct() ? AggFunction.COUNT_DISTINCT : AggFunction.COUNT;
            }
            case SUM -> call.isDistinct() ? AggFunction.SUM_DISTINCT : AggFunction.SUM;
            case SUM0 -> AggFunction.SUM0;
            case MIN -> AggFunction.MIN;
            case MAX -> AggFunction.MAX;
            case AVG -> call.isDistinct() ? AggFunction.AVG_DISTINCT : AggFunction.AVG;
            case STDDEV_SAMP -> AggFunction.STDDEV_SAMP;
            case STDDEV_POP -> AggFunction.STDDEV_POP;
            case VAR_SAMP -> AggFunction.VAR_SAMP;
            case VAR_POP -> AggFunction.VAR_POP;
            case SINGLE_VALUE -> AggFunction.SINGLE_VALUE;
            case ANY_VALUE -> AggFunction.ANY_VALUE;
            case BIT_AND -> AggFunction.BIT_AND;
            case BIT_OR -> AggFunction.BIT_OR;
            case BIT_XOR -> AggFunction.BIT_XOR;
            case OTHER_FUNCTION -> switch (call.getAggregation().getName()) {
                case "PRODUCT" -> AggFunction.PRODUCT;
                default -> throw new SqlError("unsupported: aggregate function " + call.getAggregation().getName());
            };
            default -> throw new SqlError("unsupported: aggregate function " + call.getAggregation().getName());
        };
        if ((f == AggFunction.MIN || f == AggFunction.MAX) && arg != null && arg.type().isNested()) {
            // the least or greatest order key, which ListSortKeys.listsOfKeys turns back into its list
            arg = ListCalls.valueOrderKey(arg, call.getAggregation().getName());
            type = DataType.VARCHAR;
        }
        // MIN, MAX, BIT_AND and BIT_OR are the same over the distinct values
        if (call.isDistinct() && !f.distinct() && f != AggFunction.MIN && f != AggFunction.MAX
                && f != AggFunction.BIT_AND && f != AggFunction.BIT_OR) {
            throw new SqlError("unsupported: " + call.getAggregation().getName() + "(DISTINCT ...)");
        }
        if ((f == AggFunction.SUM || f == AggFunction.SUM0 || f == AggFunction.AVG || f == AggFunction.SUM_DISTINCT
                || f == AggFunction.AVG_DISTINCT || f.statistic() || f.fold()) && arg != null
                && (arg.type().kind() == TypeKind.VARCHAR || arg.type().kind() == TypeKind.DATE
                || arg.type().kind() == TypeKind.BOOLEAN)) {
            throw new SqlError("unsupported: " + f + " of " + arg.type());
        }
        return new AggCall(f, arg, filter, type, nullable, name);
    }

    // ---- sorting, limits, unions, values ----

    private Open sort(Sort s) {
        long offset = s.offset == null ? 0 : constant(s.offset, "OFFSET");
        long fetch = s.fetch == null ? -1 : constant(s.fetch, "LIMIT");
        Open o = visit(s.getInput());
        int rel = nextRelation++;
        RelCollation coll = s.getCollation();
        int width = o.fields.size();
        RelCollation sorted = ListSortKeys.add(o, coll);
        List<ColumnInfo> cols = relationColumns(rel, o.fields, o.names);
        if (coll.getFieldCollations().isEmpty()) {
            close(o, new Sink.Materialize(o.fields, o.names, offset, fetch, rel), estimates.rows(s));
        } else {
            List<SortKey> keys = new ArrayList<>();
            for (RelFieldCollation fc : sorted.getFieldCollations()) {
                boolean desc = fc.getDirection().isDescending();
                boolean nullsFirst = fc.nullDirection == RelFieldCollation.NullDirection.FIRST;
                keys.add(new SortKey(fc.getFieldIndex(), desc, nullsFirst));
            }
            close(o, new Sink.Sort(o.fields, o.names, keys, offset, fetch, rel), estimates.rows(s));
        }
        Open next = relationScan(rel, cols, estimates.rows(s));
        next.fields = next.fields.subList(0, width); // without the order keys of lists
        next.names = s.getRowType().getFieldNames();
        return next;
    }

    private static long constant(RexNode n, String what) {
        if (n instanceof RexLiteral l) {
            return l.getValueAs(BigDecimal.class).longValueExact();
        }
        throw new SqlError("unsupported: a non-constant " + what);
    }

    private Open union(Union u) {
        if (!u.all) {
            throw new SqlError("unsupported: UNION without ALL in this position");
        }
        int rel = nextRelation++;
        List<String> names = u.getRowType().getFieldNames();
        List<ColumnInfo> cols = new ArrayList<>();
        for (int i = 0; i < names.size(); i++) {
            RelDataTypeField f = u.getRowType().getFieldList().get(i);
            DataType t = Types.of(f.getType());
            cols.add(new ColumnInfo(names.get(i), t, f.getType().isNullable(),
                    t.kind() == TypeKind.VARCHAR ? DictionaryKeys.relation(rel, i) : null));
        }
        for (RelNode in : u.getInputs()) {
            Open o = visit(in);
            List<Expr> outs = new ArrayList<>();
            for (int i = 0; i < o.fields.size(); i++) {
                Expr e = o.fields.get(i);
                outs.add(rex.converted(e, in.getRowType().getFieldList().get(i).getType(), cols.get(i).type()));
            }
            close(o, new Sink.Materialize(outs, names, 0, -1, rel));
        }
        return relationScan(rel, cols, estimates.rows(u));
    }

    private Open values(Values v) {
        int rel = nextRelation++;
        List<ColumnInfo> cols = new ArrayList<>();
        List<RelDataTypeField> fs = v.getRowType().getFieldList();
        for (int i = 0; i < fs.size(); i++) {
            DataType t = Types.of(fs.get(i).getType());
            cols.add(new ColumnInfo(fs.get(i).getName(), t, fs.get(i).getType().isNullable(),
                    t.kind() == TypeKind.VARCHAR ? DictionaryKeys.relation(rel, i) : null));
        }
        List<Object[]> rows = new ArrayList<>();
        for (List<RexLiteral> tuple : v.getTuples()) {
            Object[] row = new Object[tuple.size()];
            for (int i = 0; i < row.length; i++) {
                Expr.Literal lit = RexTranslator.literal(tuple.get(i));
                row[i] = castLiteral(lit, cols.get(i).type());
            }
            rows.add(row);
        }
        values.put(rel, rows);
        return relationScan(rel, cols, rows.size());
    }

    /** A literal's raw value in the column type of a VALUES relation. */
    private static Object castLiteral(Expr.Literal lit, DataType target) {
        Object v = lit.value();
        if (v == null) {
            return null;
        }
        if (lit.type().kind() == TypeKind.DECIMAL && target.kind() == TypeKind.DECIMAL) {
            return BigDecimal.valueOf((Long) v, lit.type().scale()).setScale(target.scale()).unscaledValue().longValueExact();
        }
        if ((lit.type().kind() == TypeKind.INTEGER || lit.type().kind() == TypeKind.BIGINT) && target.kind() == TypeKind.DECIMAL) {
            return BigDecimal.valueOf((Long) v).setScale(target.scale()).unscaledValue().longValueExact();
        }
        if (target.kind() == TypeKind.DOUBLE && v instanceof Long l) {
            return lit.type().kind() == TypeKind.DECIMAL ? BigDecimal.valueOf(l, lit.type().scale()).doubleValue() : l.doubleValue();
        }
        return v;
    }

    // ---- what WindowPlanning and SetOpPlanning build pipelines with ----

    Open input(RelNode rel) {
        return visit(rel);
    }

    void end(Open o, Sink sink) {
        close(o, sink);
    }

    int newRelation() {
        return nextRelation++;
    }

    Open readRelation(int rel, List<ColumnInfo> cols, double rows) {
        return relationScan(rel, cols, rows);
    }

    double rowCount(RelNode rel) {
        return estimates.rows(rel);
    }
}

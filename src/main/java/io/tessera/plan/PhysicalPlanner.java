package io.tessera.plan;

import io.tessera.sql.SqlError;
import io.tessera.storage.Column;
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
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.core.Sort;
import org.apache.calcite.rel.core.TableScan;
import org.apache.calcite.rel.core.Union;
import org.apache.calcite.rel.core.Values;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.util.ImmutableBitSet;

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

    private final RelMetadataQuery mq;
    private final RexTranslator rex;
    private final List<Pipeline> pipelines = new ArrayList<>();
    private final Map<Integer, List<Object[]>> values = new HashMap<>();
    private int nextPipeline;
    private int nextJoin;
    private int nextRelation;

    private PhysicalPlanner(RelNode root) {
        this.mq = root.getCluster().getMetadataQuery();
        this.rex = new RexTranslator(root.getCluster().getRexBuilder());
    }

    /** A pipeline being built: its source, operations so far, and one expression per field of the current node. */
    static final class Open {
        final Source source;
        final List<Operation> ops = new ArrayList<>();
        List<Expr> fields;
        List<String> names;

        Open(Source source, List<Expr> fields, List<String> names) {
            this.source = source;
            this.fields = fields;
            this.names = names;
        }
    }

    public static QueryPlan plan(RelNode root, List<String> outputNames) {
        return new PhysicalPlanner(root).planRoot(root, outputNames);
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

    private Open visit(RelNode rel) {
        if (rel instanceof TableScan ts) {
            return scan(ts);
        } else if (rel instanceof Filter f) {
            Open o = visit(f.getInput());
            addFilter(o, f.getCondition());
            return o;
        } else if (rel instanceof Project p) {
            Open o = visit(p.getInput());
            List<Expr> fields = new ArrayList<>();
            for (RexNode e : p.getProjects()) {
                fields.add(rex.translate(e, o.fields));
            }
            o.fields = fields;
            o.names = p.getRowType().getFieldNames();
            return o;
        } else if (rel instanceof Join j) {
            return join(j);
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

    private Open scan(TableScan ts) {
        Table t = ts.getTable().unwrap(io.tessera.sql.CatalogTableAccess.class).table();
        List<ColumnInfo> cols = SourceColumns.of(t);
        List<Expr> fields = new ArrayList<>();
        for (int i = 0; i < cols.size(); i++) {
            ColumnInfo c = cols.get(i);
            fields.add(new Expr.Ref(Slot.source(i, c.name(), c.type(), c.nullable(), c.dictionaryKey(), t.column(i))));
        }
        return new Open(new Source.TableScan(t, cols), fields, ts.getRowType().getFieldNames());
    }

    private void addFilter(Open o, RexNode condition) {
        for (RexNode c : org.apache.calcite.plan.RelOptUtil.conjunctions(condition)) {
            if (c.isAlwaysTrue()) {
                continue;
            }
            o.ops.add(new Operation.Filter(rex.translate(c, o.fields)));
        }
    }

    private Pipeline close(Open o, Sink sink) {
        Pipeline p = new Pipeline(nextPipeline++, o.source, o.ops, sink);
        pipelines.add(p);
        return p;
    }

    /** Starts a pipeline over relation {@code rel} with these columns. */
    private Open relationScan(int rel, List<ColumnInfo> cols, double rows) {
        List<Expr> fields = new ArrayList<>();
        List<String> names = new ArrayList<>();
        for (int i = 0; i < cols.size(); i++) {
            ColumnInfo c = cols.get(i);
            fields.add(new Expr.Ref(Slot.source(i, c.name(), c.type(), c.nullable(), c.dictionaryKey(), null)));
            names.add(c.name());
        }
        return new Open(new Source.RelationScan(rel, cols, rows), fields, names);
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

    // ---- joins ----

    private record KeyPair(RexNode left, RexNode right) {
    }

    private Open join(Join j) {
        int nLeft = j.getLeft().getRowType().getFieldCount();
        List<KeyPair> keys = new ArrayList<>();
        List<RexNode> residual = new ArrayList<>();
        for (RexNode c : org.apache.calcite.plan.RelOptUtil.conjunctions(j.getCondition())) {
            KeyPair k = equiKey(c, nLeft, j);
            if (k != null) {
                keys.add(k);
            } else if (!c.isAlwaysTrue()) {
                residual.add(c);
            }
        }
        if (keys.isEmpty()) {
            throw new SqlError("unsupported: a join without an equality condition between its two sides (cross join)");
        }
        JoinRelType type = j.getJoinType();
        JoinKind kind = switch (type) {
            case INNER -> JoinKind.INNER;
            case LEFT -> JoinKind.LEFT;
            case SEMI -> JoinKind.SEMI;
            case ANTI -> JoinKind.ANTI;
            default -> throw new SqlError("unsupported: " + type + " join");
        };
        if (!residual.isEmpty() && kind != JoinKind.INNER) {
            throw new SqlError("unsupported: a " + type + " join with a non-equality condition");
        }
        double leftRows = mq.getRowCount(j.getLeft());
        double rightRows = mq.getRowCount(j.getRight());
        boolean buildLeft = kind == JoinKind.INNER && leftRows < rightRows;
        RelNode buildRel = buildLeft ? j.getLeft() : j.getRight();
        RelNode probeRel = buildLeft ? j.getRight() : j.getLeft();
        int offset = buildLeft ? 0 : nLeft;

        // probe side first (its own builds run before this join's), then the build side as its own pipeline
        Open p = visit(probeRel);
        List<Expr> probeKeys = new ArrayList<>();
        for (KeyPair k : keys) {
            RexNode pk = buildLeft ? RexUtil.shift(k.right(), -nLeft) : k.left();
            probeKeys.add(rex.translate(pk, p.fields));
        }
        Open b = visit(buildRel);
        List<Expr> buildKeys = new ArrayList<>();
        List<Integer> buildKeyFields = new ArrayList<>();
        for (KeyPair k : keys) {
            RexNode bk = buildLeft ? k.left() : RexUtil.shift(k.right(), -nLeft);
            buildKeys.add(rex.translate(bk, b.fields));
            if (bk instanceof RexInputRef r) {
                buildKeyFields.add(r.getIndex());
            }
        }
        List<DataType> common = new ArrayList<>();
        for (int i = 0; i < keys.size(); i++) {
            common.add(commonKeyType(probeKeys.get(i).type(), buildKeys.get(i).type()));
        }
        boolean withPayload = kind == JoinKind.INNER || kind == JoinKind.LEFT;
        List<Expr> payload = withPayload ? b.fields : List.of();
        List<String> payloadNames = withPayload ? b.names : List.of();
        boolean unique = buildKeyFields.size() == keys.size()
                && Boolean.TRUE.equals(mq.areColumnsUnique(buildRel, ImmutableBitSet.of(buildKeyFields)));
        KeyRange range = buildKeys.size() == 1 && common.get(0) == null ? KeyRange.of(buildKeys.get(0)) : null;
        if (range != null && range.size() > MAX_PERFECT_RANGE) {
            range = null;
        }
        int joinId = nextJoin++;
        Sink.Build build = new Sink.Build(joinId, buildKeys, payload, payloadNames, unique, range,
                mq.getRowCount(buildRel), common);
        close(b, build);
        p.ops.add(new Operation.Probe(joinId, probeKeys, kind, build));
        if (!withPayload) {
            return p;
        }
        List<Expr> payloadRefs = new ArrayList<>();
        for (int i = 0; i < payload.size(); i++) {
            Expr e = payload.get(i);
            Column origin = e instanceof Expr.Ref r ? r.slot().origin() : null;
            String dict = DictionaryKeys.of(e, DictionaryKeys.payload(joinId, i));
            payloadRefs.add(new Expr.Ref(new Slot(joinId, i, payloadNames.get(i), e.type(),
                    e.nullable() || kind == JoinKind.LEFT, dict, origin)));
        }
        List<Expr> fields = new ArrayList<>();
        if (buildLeft) {
            fields.addAll(payloadRefs);
            fields.addAll(p.fields);
        } else {
            fields.addAll(p.fields);
            fields.addAll(payloadRefs);
        }
        p.fields = fields;
        p.names = j.getRowType().getFieldNames();
        for (RexNode r : residual) {
            addFilter(p, r);
        }
        return p;
    }

    /** The type both sides of a key compare in when their representations differ, else null. */
    static DataType commonKeyType(DataType a, DataType b) {
        boolean da = a.kind() == TypeKind.DOUBLE;
        boolean db = b.kind() == TypeKind.DOUBLE;
        if (da != db) {
            return DataType.DOUBLE;
        }
        boolean xa = a.kind() == TypeKind.DECIMAL;
        boolean xb = b.kind() == TypeKind.DECIMAL;
        if ((xa || xb) && !(xa && xb && a.scale() == b.scale())) {
            return DataType.decimal(18, Math.max(xa ? a.scale() : 0, xb ? b.scale() : 0));
        }
        return null;
    }

    /** An equality whose sides reference only the left and only the right input, or null. */
    private static KeyPair equiKey(RexNode c, int nLeft, Join j) {
        if (!(c instanceof RexCall call)) {
            return null;
        }
        boolean nullSafe = call.getKind() == SqlKind.IS_NOT_DISTINCT_FROM;
        if (call.getKind() != SqlKind.EQUALS && !nullSafe) {
            return null;
        }
        RexNode a = call.getOperands().get(0);
        RexNode b = call.getOperands().get(1);
        ImmutableBitSet ra = org.apache.calcite.plan.RelOptUtil.InputFinder.bits(a);
        ImmutableBitSet rb = org.apache.calcite.plan.RelOptUtil.InputFinder.bits(b);
        if (ra.isEmpty() || rb.isEmpty()) {
            return null;
        }
        KeyPair k = null;
        if (ra.nth(ra.cardinality() - 1) < nLeft && rb.nth(0) >= nLeft) {
            k = new KeyPair(a, b);
        } else if (rb.nth(rb.cardinality() - 1) < nLeft && ra.nth(0) >= nLeft) {
            k = new KeyPair(b, a);
        }
        if (k != null && nullSafe && (k.left().getType().isNullable() || k.right().getType().isNullable())) {
            throw new SqlError("unsupported: a join on IS NOT DISTINCT FROM over nullable keys");
        }
        return k;
    }

    // ---- aggregation ----

    private Open aggregate(Aggregate a) {
        if (a.getGroupType() != Aggregate.Group.SIMPLE) {
            throw new SqlError("unsupported: GROUPING SETS, ROLLUP or CUBE");
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
            aggs.add(aggCall(call, o, outNames.get(k++)));
        }
        int rel = nextRelation++;
        double groups = mq.getRowCount(a);
        Sink sink = keys.isEmpty() ? new Sink.Aggregate(aggs, rel)
                : new Sink.GroupAggregate(keys, keyNames, aggs, ranges, rel, groups);
        close(o, sink);
        List<ColumnInfo> cols = new ArrayList<>(relationColumns(rel, keys, keyNames));
        for (int i = 0; i < aggs.size(); i++) {
            AggCall ac = aggs.get(i);
            String computed = DictionaryKeys.relation(rel, keys.size() + i);
            // MIN, MAX and the single-value aggregates return one of their argument's codes
            boolean keepsCodes = ac.function() == AggFunction.MIN || ac.function() == AggFunction.MAX
                    || ac.function() == AggFunction.SINGLE_VALUE || ac.function() == AggFunction.ANY_VALUE;
            String dict = ac.type().kind() != TypeKind.VARCHAR ? null
                    : keepsCodes && ac.arg() != null ? DictionaryKeys.of(ac.arg(), computed) : computed;
            cols.add(new ColumnInfo(ac.name(), ac.type(), ac.nullable(), dict));
        }
        Open next = relationScan(rel, cols, groups);
        next.names = outNames;
        return next;
    }

    private AggCall aggCall(AggregateCall call, Open o, String name) {
        List<Integer> args = call.getArgList();
        Expr arg = args.isEmpty() ? null : o.fields.get(args.get(0));
        Expr filter = call.filterArg >= 0 ? o.fields.get(call.filterArg) : null;
        DataType type = Types.of(call.getType());
        boolean nullable = call.getType().isNullable();
        AggFunction f = switch (call.getAggregation().getKind()) {
            case COUNT -> {
                if (args.size() > 1) {
                    throw new SqlError("unsupported: COUNT with several arguments");
                }
                yield args.isEmpty() ? AggFunction.COUNT_STAR : call.isDistinct() ? AggFunction.COUNT_DISTINCT : AggFunction.COUNT;
            }
            case SUM -> AggFunction.SUM;
            case SUM0 -> AggFunction.SUM0;
            case MIN -> AggFunction.MIN;
            case MAX -> AggFunction.MAX;
            case AVG -> AggFunction.AVG;
            case SINGLE_VALUE -> AggFunction.SINGLE_VALUE;
            case ANY_VALUE -> AggFunction.ANY_VALUE;
            default -> throw new SqlError("unsupported: aggregate function " + call.getAggregation().getName());
        };
        if (call.isDistinct() && f != AggFunction.COUNT_DISTINCT && f != AggFunction.MIN && f != AggFunction.MAX) {
            throw new SqlError("unsupported: " + call.getAggregation().getName() + "(DISTINCT ...)");
        }
        if ((f == AggFunction.SUM || f == AggFunction.SUM0 || f == AggFunction.AVG) && arg != null
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
        List<ColumnInfo> cols = relationColumns(rel, o.fields, o.names);
        if (coll.getFieldCollations().isEmpty()) {
            close(o, new Sink.Materialize(o.fields, o.names, offset, fetch, rel));
        } else {
            List<SortKey> keys = new ArrayList<>();
            for (RelFieldCollation fc : coll.getFieldCollations()) {
                boolean desc = fc.getDirection().isDescending();
                boolean nullsFirst = fc.nullDirection == RelFieldCollation.NullDirection.FIRST;
                keys.add(new SortKey(fc.getFieldIndex(), desc, nullsFirst));
            }
            close(o, new Sink.Sort(o.fields, o.names, keys, offset, fetch, rel));
        }
        Open next = relationScan(rel, cols, mq.getRowCount(s));
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
                outs.add(e.type().equals(cols.get(i).type()) ? e
                        : new Expr.Call(Op.CAST, List.of(e), cols.get(i).type(), e.nullable()));
            }
            close(o, new Sink.Materialize(outs, names, 0, -1, rel));
        }
        return relationScan(rel, cols, mq.getRowCount(u));
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
        return mq.getRowCount(rel);
    }
}

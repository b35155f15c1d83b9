package io.tessera.backend.cuda.gen;

import io.tessera.plan.AggCall;
import io.tessera.plan.AggFunction;
import io.tessera.plan.Expr;
import io.tessera.plan.JoinKind;
import io.tessera.plan.KeyRange;
import io.tessera.plan.Operation;
import io.tessera.plan.Pipeline;
import io.tessera.plan.Sink;
import io.tessera.plan.Slot;
import io.tessera.plan.Source;
import io.tessera.storage.Dictionary;
import io.tessera.storage.TypeKind;
import io.tessera.variant.CudaVariantSpace;
import io.tessera.variant.Genome;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.Function;
import java.util.function.IntFunction;
import java.util.function.IntPredicate;

/**
 * What the CUDA backend can run, decided over the plan before any code is emitted: a pipeline runs as a kernel when
 * it scans a table, the marked or unmarked rows of a join table built on the device, the groups of an aggregation
 * on the device ({@link GroupScan}), or the rows of a relation a kernel left on the device (a MATERIALIZE's rows,
 * an aggregation's groups read back and copied as rows, their string keys as codes; no other string column; a column that can be NULL read with its
 * NULL flags); its probes are inner, semi,
 * anti, left (into a table of unique keys) or marking joins on one 32- or 64-bit integer key, or two 32-bit keys ({@link JoinKeys}), into tables built on
 * the device with keys of the same type; its BUILD has such keys and unique keys where it carries payload, no
 * computed string in the payload, and a key range for a perfect table; its aggregates are counts, or sums, averages,
 * minima and maxima of numbers; its group keys are not DOUBLE, and a dense group table has each key's range; of the
 * values that can be NULL ({@link DeviceNulls}: a left join's missing payload, a relation's column, a table's
 * column that holds NULLs) none is a group key (a NULL join key never matches, as on the JVM: a BUILD leaves its row
 * out, a probe finds no slot for it; a join table keeps NULL flags beside a payload that can be NULL; an
 * aggregate skips them, and a row sink writes NULL flags beside an output column); and every expression has CUDA code ({@link CudaExprSupport}). Of the joins that build their
 * preserved side, the marks of left joins, marking probes with a condition besides the keys, and tables that keep
 * their NULL keys run on the JVM ({@link MarkOps} has the rest; {@link GpuJoinSwitches} turns it and the two-key
 * joins off).
 *
 * <p>The check walks the pipeline in the order the emitter does (the same operation order, each operator's
 * expressions as it generates them), so that a pipeline with several things the GPU lacks is given the same first
 * reason the emitter would meet. {@link CudaPipelineEmitter} may be called only for a pipeline this accepts.
 */
public final class CudaCapabilities {

    private CudaCapabilities() {
    }

    /** Why the marks of a join that builds its preserved side are not on the GPU. */
    static final String MARKS = "a join that builds its preserved side and marks the rows it matched has no GPU code yet";

    /**
     * Why pipeline p cannot run as a CUDA kernel under genome g, or null when it can. {@code tables}: the layouts of
     * the join tables built on the device so far (null for a join whose table is not); {@code dictionaries}: the
     * dictionaries of string columns by key (a lookup may throw {@link GpuUnsupported} for a key the device cannot
     * have, such as strings the query computes).
     */
    public static String reason(Pipeline p, Genome g, IntFunction<JoinLayout> tables,
                                Function<String, Dictionary> dictionaries) {
        return reason(p, g, tables, relationId -> null, relationId -> false, dictionaries);
    }

    /**
     * As {@link #reason(Pipeline, Genome, IntFunction, Function)}, where {@code groups} gives the groups GPU
     * aggregations leave on the device by relation (null for a relation that is not such groups), which a pipeline
     * may scan ({@link GroupScan}), and {@code onDevice} holds for the relations a GPU kernel leaves on the device,
     * whose rows a pipeline may read as columns ({@link CudaPipelineEmitter.Context#relationOnDevice}).
     */
    public static String reason(Pipeline p, Genome g, IntFunction<JoinLayout> tables,
                                IntFunction<ScannedGroups> groups, IntPredicate onDevice,
                                Function<String, Dictionary> dictionaries) {
        java.util.BitSet read = io.tessera.plan.SourceColumnsRead.of(p);
        for (int i = 0; i < p.source().columns().size(); i++) {
            io.tessera.plan.ColumnInfo c = p.source().columns().get(i);
            if (c.type().isBlob() || c.type().isUuid()) {
                return "it reads " + c.type() + " column " + c.name() + ": BLOB and UUID have no GPU code";
            }
            if (!read.get(i)) {
                continue; // a list or struct column the pipeline never reads holds nothing back
            }
            if (c.type().isMap()) {
                return "it reads the MAP column " + c.name() + " (maps run on the JVM)";
            }
            if (c.type().isList()) {
                return "it reads the LIST column " + c.name() + " (lists run on the JVM)";
            }
            if (c.type().isStruct()) {
                return "it reads the STRUCT column " + c.name() + " (structs run on the JVM)";
            }
        }
        Source.RelationScan relation = null;
        if (p.source() instanceof Source.RelationScan rs) {
            ScannedGroups scanned = groups.apply(rs.relationId());
            if (!GroupScan.scans(p, scanned)) {
                if (!onDevice.test(rs.relationId())) {
                    // why the groups cannot be scanned says more than that the relation is not on the device
                    String why = scanned != null && GroupScan.endsInTableOrAggregate(p) ? GroupScan.reason(p, scanned) : null;
                    return why != null ? why : "it reads r" + rs.relationId() + ", which no GPU kernel leaves on the device";
                }
                relation = rs;
            }
        } else if (p.source() instanceof Source.JoinTableScan js) {
            if (!GpuJoinSwitches.markJoins()) {
                return "it scans the " + (js.matched() ? "matched" : "unmatched") + " rows of join table j" + js.joinId()
                        + " (" + MARKS + ")";
            }
            if (tables.apply(js.joinId()) == null) {
                return "it scans join table j" + js.joinId() + ", which is on the JVM";
            }
            if (tables.apply(js.joinId()).sorted()) {
                return "it scans the marks of join table j" + js.joinId() + ", whose keys are sorted (ht="
                        + tables.apply(js.joinId()).kind().value() + ")";
            }
            if (tables.apply(js.joinId()).nullFlags()) {
                // a scan of marks reads the payload as columns that are never NULL
                return "it scans join table j" + js.joinId() + ", whose payload can be NULL";
            }
        } else if (!(p.source() instanceof Source.TableScan)) {
            return "it reads an intermediate result (" + p.source() + "); GPU pipelines scan tables";
        }
        // the values of a scan of device groups are never NULL, whatever the plan's types say (GroupScan); the
        // columns of a relation read as columns may be, with their NULL flags
        boolean scansGroups = p.source() instanceof Source.RelationScan && relation == null;
        boolean groupsAsRows = relation != null && groups.apply(relation.relationId()) != null;
        return new Walk(g, tables, dictionaries, scansGroups, relation != null, groupsAsRows,
                p.source() instanceof Source.TableScan ts ? ts : null).pipeline(p);
    }

    /** The C type of a join key, or null for a type the device tables do not hold. */
    static CType keyType(Expr key) {
        TypeKind k = key.type().kind();
        if (k == TypeKind.INTEGER || k == TypeKind.DATE) {
            return CType.INT;
        }
        if (k.isInt64()) { // BIGINT, DECIMAL, TIMESTAMP, TIME
            return CType.LONG;
        }
        return null;
    }

    /** Why a PROBE of table t (null: not on the device) has no GPU code, its expressions aside; null when it has. */
    static String probeReason(Operation.Probe pr, JoinLayout t) {
        if (pr.setsMarks() && (!GpuJoinSwitches.markJoins() || pr.kind() == JoinKind.LEFT)) {
            return "a probe that marks the build rows of j" + pr.joinId() + " (" + MARKS + ")";
        }
        String keys = JoinKeys.reason(pr.keys());
        if (keys != null && pr.keys().size() != 1) {
            return keys;
        }
        if (pr.residual() != null && !(GpuJoinSwitches.residualJoins()
                && (pr.kind() == JoinKind.INNER && !pr.marks() || pr.kind() == JoinKind.MARK))) {
            return "a join with a non-equality condition";
        }
        if (pr.keys().stream().anyMatch(e -> e instanceof Expr.Literal) && !singleRow(pr.build())) {
            return "a join without an equality condition";
        }
        if (pr.kind() != JoinKind.INNER && pr.kind() != JoinKind.SEMI && pr.kind() != JoinKind.ANTI
                && pr.kind() != JoinKind.MARK && !(pr.kind() == JoinKind.LEFT && GpuJoinSwitches.leftJoins())) {
            return "a " + pr.kind().name().toLowerCase(Locale.ROOT) + " join";
        }
        if (t == null) {
            return "join j" + pr.joinId() + " has its table on the JVM";
        }
        if (keys != null) {
            return keys;
        }
        if (JoinKeys.type(pr.keys()) != t.keyType()) {
            return "join j" + pr.joinId() + " compares keys of different types";
        }
        if (pr.kind() == JoinKind.LEFT && (t.chained() || !pr.build().uniqueKeys())) {
            return "a left join whose build keys may repeat";
        }
        if (t.sorted() && pr.setsMarks()) {
            return "a probe that marks the rows of a sorted join table (ht=" + t.kind().value() + ")";
        }
        return null;
    }

    /**
     * Whether a BUILD is the table of a join without an equality condition whose build side has at most one row (a
     * scalar subquery's): its one constant key unique, so that every probing row meets that row, or none when the
     * side is empty. Its payload may be NULL, with NULL flags beside it ({@link JoinLayout#nullFlags}), as any
     * table's.
     */
    static boolean singleRow(Sink.Build b) {
        return b.uniqueKeys() && b.keys().stream().allMatch(e -> e instanceof Expr.Literal);
    }

    /** Why a BUILD under genome g has no GPU code, its expressions aside; null when it has. */
    static String buildReason(Sink.Build b, Genome g) {
        if (b.keepsNullKeys()) {
            return "a join table that keeps its rows with a NULL key (" + MARKS + ")";
        }
        String keys = JoinKeys.reason(b.keys());
        if (keys != null && b.keys().size() != 1) {
            return keys;
        }
        if (b.keys().stream().anyMatch(e -> e instanceof Expr.Literal) && !singleRow(b)) {
            return "a join without an equality condition";
        }
        if (b.commonKeyTypes().stream().anyMatch(java.util.Objects::nonNull)) {
            return "join keys of different types";
        }
        if (ChainedRows.chains(b) && !GpuJoinSwitches.chainedJoins()) {
            return "a join whose build keys may repeat";
        }
        if (keys != null) {
            return keys;
        }
        CType kt = JoinKeys.type(b.keys());
        KeyRange r = b.range();
        if (JoinLayout.Kind.of(g.get(CudaVariantSpace.HASH_TABLE)) == JoinLayout.Kind.PERFECT
                && (r == null || JoinKeys.packed(b.keys()) || r.min() == (kt == CType.INT ? Integer.MIN_VALUE : Long.MIN_VALUE))) {
            return "a perfect table without a usable key range";
        }
        if (JoinLayout.Kind.of(g.get(CudaVariantSpace.HASH_TABLE)).sorted() && (b.keys().size() != 1 || singleRow(b))) {
            return "a sorted join table needs one key (ht=" + g.get(CudaVariantSpace.HASH_TABLE) + ")";
        }
        for (Expr e : b.payload()) {
            if (e.type().kind() == TypeKind.VARCHAR && !(e instanceof Expr.Ref)) {
                return "a computed string in a join payload";
            }
        }
        return null;
    }

    /** Why an aggregate has no GPU code, its expressions aside; null when it has. */
    static String aggReason(AggCall a) {
        return switch (a.function()) {
            case COUNT_STAR, COUNT -> null;
            case SUM, SUM0, AVG -> CType.stored(a.arg().type()) == CType.BOOL ? a.function() + " of a BOOLEAN" : null;
            // the device's atomic and warp extremes of doubles order NaN with nothing, where DuckDB's NaN is the
            // greatest value: such a MIN or MAX stays on the JVM
            case MIN, MAX -> CType.stored(a.arg().type()) == CType.BOOL ? a.function() + " of a BOOLEAN"
                    : CType.stored(a.arg().type()) == CType.DOUBLE ? a.function() + " of a " + a.arg().type()
                    + " (NaN is greater than every number in DuckDB's order, which the GPU's extremes of doubles do not keep)"
                    : null;
            case QUANTILE_CONT, QUANTILE_DISC, MODE, STRING_AGG, ENTROPY, MAD ->
                    a + " needs all of a group's values (collected per group on the JVM only)";
            // a plan for the GPU computes them by two aggregations where the aggregation's other aggregates allow
            case COUNT_DISTINCT, SUM_DISTINCT, AVG_DISTINCT -> a + " beside aggregates that keep it from being split "
                    + "into two aggregations (DISTINCT of another argument, or AVG, a statistic or a FILTER clause)";
            case PRODUCT, BIT_AND, BIT_OR, BIT_XOR -> a + ": no GPU code for this fold (it runs on the JVM)";
            default -> a.toString();
        };
    }

    /** One pipeline's walk: the first reason met, in the emitter's order. */
    private static final class Walk {
        private final Genome g;
        private final IntFunction<JoinLayout> tables;
        private final CudaExprSupport exprs;
        /** Source columns already read (and found never NULL), as the emitter's loads go. */
        private final Set<Integer> loaded = new HashSet<>();
        /** The left joins probed so far, whose payload is NULL for a row without a match. */
        private final Set<Integer> padded = new HashSet<>();

        /** Whether the pipeline scans device groups, whose values are never NULL. */
        private final boolean scansGroups;
        /** Whether the pipeline reads a relation's rows as columns, which carry NULL flags where they can be NULL. */
        private final boolean readsRelation;
        /**
         * Whether the relation read as columns is the groups of a GPU aggregation, moved to the host and copied back:
         * its string keys are codes of the dictionary the aggregation's layout names, registered for the run.
         */
        private final boolean groupsAsRows;
        /** Whether the pipeline scans a table, whose columns that hold NULLs are read with their NULL flags. */
        private final boolean scansTable;

        Walk(Genome g, IntFunction<JoinLayout> tables, Function<String, Dictionary> dictionaries, boolean scansGroups,
             boolean readsRelation, boolean groupsAsRows, Source.TableScan scan) {
            this.g = g;
            this.scansGroups = scansGroups;
            this.readsRelation = readsRelation;
            this.groupsAsRows = groupsAsRows;
            this.scansTable = scan != null;
            this.tables = tables;
            this.exprs = new CudaExprSupport(tables, dictionaries, padded::contains);
            if (readsRelation) {
                padded.add(DeviceNulls.SOURCE_COLUMNS);
            }
            if (scan != null) {
                DeviceNulls.tableColumns(scan, padded);
            }
        }

        /** Why value e cannot be stored where device memory holds no NULL (a key, a payload, an output); or null. */
        private String notNull(Expr e, String what) {
            return DeviceNulls.mayBeNull(e, padded::contains) ? what + " that can be NULL (" + e + ")" : null;
        }

        String pipeline(Pipeline p) {
            List<Operation> ops = g.has(CudaVariantSpace.PROBE_ORDER) && g.get(CudaVariantSpace.PROBE_ORDER).equals("selectivity")
                    ? ProbeOrder.bySelectivity(p.operations(), tables) : p.operations();
            boolean fanOut = false;
            for (Operation op : ops) {
                String why = switch (op) {
                    case Operation.Filter f -> first(loads(List.of(f.condition())), exprs.condition(f.condition()));
                    case Operation.Probe pr -> probe(pr);
                };
                if (why != null) {
                    return why;
                }
                fanOut |= op instanceof Operation.Probe pr && pr.kind() == JoinKind.INNER && tables.apply(pr.joinId()).chained();
            }
            if (fanOut && (p.sink() instanceof Sink.Materialize || p.sink() instanceof Sink.Sort || p.sink() instanceof Sink.Window
                    || p.sink() instanceof Sink.Build b && ChainedRows.chains(b) && !GpuJoinSwitches.expandedBuilds())) {
                // a row then stands for several: more rows than the input, which sizes the outputs (a chained
                // table's rows take places a counter hands out instead: ChainedRows.reservePlaces)
                return "a " + (p.sink() instanceof Sink.Build ? "table whose keys may repeat built" : "row sink fed")
                        + " from a probe whose build keys may repeat";
            }
            return switch (p.sink()) {
                case Sink.Build b -> build(b);
                case Sink.Aggregate a -> aggregate(p.sink(), a.aggs(), null);
                case Sink.GroupAggregate ga -> aggregate(p.sink(), ga.aggs(), ga);
                case Sink.Materialize m -> rows(m.outputs());
                case Sink.Sort s -> rows(s.outputs());
                case Sink.Window w -> first(rows(w.outputs()), GpuWindow.reason(w));
                case Sink.Marks m -> GpuJoinSwitches.markJoins() ? null
                        : "a pipeline that only marks the rows of join table j" + m.joinId() + " (" + MARKS + ")";
            };
        }

        private String probe(Operation.Probe pr) {
            String why = probeReason(pr, tables.apply(pr.joinId()));
            if (why != null) {
                return why;
            }
            List<Expr> reads = new ArrayList<>(pr.keys());
            if (pr.residual() != null) {
                reads.add(pr.residual());
            }
            why = loads(reads);
            for (int i = 0; why == null && i < pr.keys().size(); i++) {
                why = exprs.value(pr.keys().get(i)); // a NULL key finds no slot (JoinKeys.nullCondition)
            }
            if (tables.apply(pr.joinId()).nullFlags()) {
                padded.add(pr.joinId()); // its payload has NULL flags, which the condition besides the keys reads too
            }
            why = why != null || pr.residual() == null ? why : exprs.condition(pr.residual());
            if (why == null && pr.kind() == JoinKind.LEFT) {
                padded.add(pr.joinId());
            }
            return why;
        }

        private String build(Sink.Build b) {
            String why = buildReason(b, g);
            if (why != null) {
                return why;
            }
            why = loads(b.keys());
            if (why != null) {
                return why;
            }
            // a cuckoo build generates its key before it loads the payload (pass 1 loads it); the others load first
            boolean cuckoo = JoinLayout.Kind.of(g.get(CudaVariantSpace.HASH_TABLE)).cuckoo();
            why = cuckoo ? first(keyValues(b.keys()), loads(b.payload())) : first(loads(b.payload()), keyValues(b.keys()));
            for (int c = 0; why == null && c < b.payload().size(); c++) {
                // a payload that can be NULL is kept with NULL flags beside it (JoinLayout.nullFlags)
                why = exprs.value(b.payload().get(c));
            }
            return why;
        }

        private String keyValues(List<Expr> keys) {
            String why = null;
            for (int i = 0; why == null && i < keys.size(); i++) {
                why = exprs.value(keys.get(i)); // a row whose key is NULL stays out of the table
            }
            return why;
        }

        private String aggregate(Sink sink, List<AggCall> calls, Sink.GroupAggregate ga) {
            for (AggCall a : calls) {
                String why = aggReason(a);
                if (why != null) {
                    return why;
                }
            }
            String why = loads(Sink.exprs(sink));
            if (why != null) {
                return why;
            }
            if (ga != null) {
                for (Expr key : ga.keys()) {
                    why = first(exprs.value(key), notNull(key, "a group key"));
                    if (why != null) {
                        return why;
                    }
                    if (exprs.type(key) == CType.DOUBLE) {
                        return "a DOUBLE group key";
                    }
                }
                if (!"shared".equals(g.get(CudaVariantSpace.AGGREGATION))) {
                    for (int k = 0; k < ga.keys().size(); k++) {
                        if (ga.ranges().get(k) == null) {
                            return "a dense group table without the range of key " + ga.keyNames().get(k);
                        }
                    }
                }
            }
            for (AggCall a : calls) {
                why = a.filter() == null ? null : exprs.condition(a.filter());
                boolean hasValue = a.function() != AggFunction.COUNT_STAR && a.function() != AggFunction.COUNT;
                if (why == null && hasValue) {
                    why = exprs.value(a.arg());
                }
                if (why != null) {
                    return why;
                }
            }
            return null;
        }

        /** The outputs of a row sink, which may be NULL: each has NULL flags beside it ({@link MaterializeOp}). */
        private String rows(List<Expr> outputs) {
            String why = loads(outputs);
            for (int c = 0; why == null && c < outputs.size(); c++) {
                why = exprs.value(outputs.get(c));
            }
            return why;
        }

        /** The emitter's loads of the source columns the expressions read: a column that can be NULL has no load. */
        private String loads(List<Expr> es) {
            List<Slot> slots = new ArrayList<>();
            for (Expr e : es) {
                Expr.slots(e, slots);
            }
            for (Slot s : slots) {
                if (!s.isSource() || !loaded.add(s.index())) {
                    continue;
                }
                if (s.type().isInterval()) {
                    // its values are interval codes, whose string order and equality are not DuckDB's (1 month
                    // equals 30 days): the GPU would compare, group or take the least of them as plain strings
                    return "it reads INTERVAL column " + s.name() + ": INTERVAL has no GPU code";
                }
                if (readsRelation && !groupsAsRows && s.type().kind() == TypeKind.VARCHAR) {
                    // its codes' dictionary is the relation's, which the writer registers only on the host (a GPU
                    // aggregation's groups name theirs: a comparison with a constant still needs it at hand, and
                    // where it is computed by the query the expression check says so)
                    return "it reads the string column " + s + " of a relation";
                }
                if (s.nullable() && !scansGroups && !readsRelation && !scansTable) {
                    return "column " + s + " can be NULL";
                }
            }
            return null;
        }

        private static String first(String a, String b) {
            return a != null ? a : b;
        }
    }
}

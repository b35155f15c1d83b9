package io.tessera.backend.cuda.gen;

import io.tessera.backend.CodeNames;
import io.tessera.backend.GeneratedSource;
import io.tessera.plan.Expr;
import io.tessera.plan.JoinKind;
import io.tessera.plan.Operation;
import io.tessera.plan.Pipeline;
import io.tessera.plan.Sink;
import io.tessera.plan.Slot;
import io.tessera.plan.Source;
import io.tessera.storage.Dictionary;
import io.tessera.variant.CudaVariantSpace;
import io.tessera.variant.Genome;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One kernel while the operator emitters write it: its parameters, the three parts of its text (prologue before the
 * tile loop, the tile body, epilogue after it), the registers of the columns and payload loaded so far, and the
 * genome's choices that more than one operator reads. The operators append to it in pipeline order; {@link
 * KernelAssembler} puts the parts together.
 */
final class KernelBuilder {

    /** The indentation of a statement in the tile body. */
    static final String IN = "        ";

    final Pipeline p;
    /** How comments name the plan's columns and constants (never by their text). */
    final CodeNames codeNames;
    final Genome g;
    final CudaPipelineEmitter.Context ctx;
    /** The table the kernel scans, or null when it scans a join table's rows ({@link #joinScan}). */
    final Source.TableScan scan;
    /** The scan of a device join table's marked or unmarked rows, slot by slot ({@link MarkOps}), or null. */
    final Source.JoinTableScan joinScan;
    /** The groups of a GPU aggregation the kernel scans, slot by slot ({@link GroupScan}), or null. */
    final ScannedGroups groupScan;
    /**
     * A relation an earlier kernel made whose rows the kernel reads as columns, as it reads a table's (one array
     * per column, a column that can be NULL with its NULL flags beside it), or null.
     */
    final Source.RelationScan relationScan;
    /** pred=predicated: filters are evaluated for every item without a branch, columns loaded whole. */
    final boolean predicated;
    final CudaExprGen gen;
    /** The planner's estimates of the filters' selectivities, for the model. */
    final Selectivity estimates;
    final ModelAccount model;

    final List<KernelParam> params = new ArrayList<>();
    /** Constants passed so far (kernel parameters k0, k1, ...). */
    private int constants;
    /** Masks of dictionary codes passed so far (kernel parameters mask0, mask1, ...). */
    private int masks;
    private int codeMaps;
    final StringBuilder prologue = new StringBuilder();
    /** The tile body being emitted (with mat=bitmap, pass 1's once pass 0's is done: see {@link #firstPass}). */
    StringBuilder body = new StringBuilder();
    /** With mat=bitmap: pass 0's tile body (operations, bitmap and counts); {@link #body} is then pass 1's. */
    StringBuilder firstPass;
    final StringBuilder epilogue = new StringBuilder();
    final Map<Integer, String> loadedColumns = new HashMap<>();
    final Map<String, CValue> loadedPayload = new HashMap<>();
    /**
     * The NULL condition of each payload column probed so far, by {@code joinId:column} (null where it is never
     * NULL), also for the columns only IS [NOT] NULL reads, whose values are not loaded ({@link ValueReads}).
     */
    final Map<String, String> payloadNulls = new HashMap<>();
    private final Set<Integer> columnParams = new HashSet<>();
    /** Slots read by the operations still to come and by the sink (which payloads a probe must fetch). */
    final List<Slot> laterSlots = new ArrayList<>();
    /** As {@link #laterSlots}, without the sink's. */
    final List<Slot> laterOpSlots = new ArrayList<>();
    /** Of {@link #laterSlots}, those read as values, not only through IS [NOT] NULL ({@link ValueReads}). */
    final List<Slot> laterValueSlots = new ArrayList<>();
    /** As {@link #laterValueSlots}, without the sink's. */
    final List<Slot> laterOpValueSlots = new ArrayList<>();
    /** The genome's {@code mat} of a MATERIALIZE / SORT sink, else null. */
    final RowPlacement rows;
    /** Whether an operation has dropped rows, so that later loads read only the selected ones. */
    boolean narrowed;
    /** The operations in the order the kernel runs them. */
    List<Operation> operations;
    long bytesRead;
    /** Whether this kernel's perfect-table probes (pass 0) are predicated rather than branched (ppred). */
    boolean predicatedProbes;
    /** Whether the kernel calls tessera_search.cuh's device functions (a sorted join table's build or probe). */
    boolean usesSearch;
    SinkLayout sink;
    /** The joins whose presence bitmaps this kernel copies into shared memory (bm=shared), and their 32-bit words. */
    final Map<Integer, Long> sharedBitmapWords = new LinkedHashMap<>();
    /**
     * Payload gathers of perfect tables put off until a later operation or the sink reads the payload, by join:
     * the probe only tests the bitmap, and the payload is fetched for the rows that every probe and filter between
     * kept (the slot is the key minus the table's minimum, recomputed from the key still in registers).
     */
    final Map<Integer, PayloadGathers.Deferred> deferredGathers = new LinkedHashMap<>();
    /**
     * Where the loops of rounds of probes into chained tables begin in {@link #body}, innermost first
     * ({@link ChainedRows}): closed after the sink.
     */
    final java.util.ArrayDeque<Integer> roundStarts = new java.util.ArrayDeque<>();
    /** The left joins probed so far: their payload is NULL for a row without a match ({@link DeviceNulls}). */
    final Set<Integer> paddedJoins = new HashSet<>();
    /** 8-byte words of shared memory the sink's table takes (agg=wglocal), before the bitmaps. */
    long sinkSharedWords;

    KernelBuilder(Pipeline p, Genome g, CudaPipelineEmitter.Context ctx) {
        if (!(p.source() instanceof Source.TableScan) && !(p.source() instanceof Source.JoinTableScan)
                && !(p.source() instanceof Source.RelationScan)) {
            throw new IllegalStateException("pipeline " + p.id() + " reads " + p.source()
                    + ": the capability check keeps it off the GPU");
        }
        this.p = p;
        this.codeNames = new CodeNames(p);
        this.g = g;
        this.ctx = ctx;
        this.scan = p.source() instanceof Source.TableScan ts ? ts : null;
        this.joinScan = p.source() instanceof Source.JoinTableScan js ? js : null;
        this.groupScan = GroupScan.scanned(p, ctx);
        this.relationScan = groupScan == null && p.source() instanceof Source.RelationScan rs ? rs : null;
        if (relationScan != null && !ctx.relationOnDevice(relationScan.relationId())) {
            throw new IllegalStateException("pipeline " + p.id() + " reads r" + relationScan.relationId()
                    + ", which no kernel leaves on the device: the capability check keeps it off the GPU");
        }
        if (relationScan != null) {
            paddedJoins.add(DeviceNulls.SOURCE_COLUMNS); // its columns may carry NULL flags
        }
        if (scan != null) {
            DeviceNulls.tableColumns(scan, paddedJoins); // its columns that hold NULLs, read with their flags
        }
        this.estimates = new Selectivity(ctx::dictionary);
        this.model = new ModelAccount(scan != null ? scan.table().rowCount() : (long) Math.ceil(
                joinScan != null ? joinScan.estimatedRows() : ((Source.RelationScan) p.source()).estimatedRows()));
        this.predicated = g.has(CudaVariantSpace.PREDICATION) && "predicated".equals(g.get(CudaVariantSpace.PREDICATION));
        this.rows = p.sink() instanceof Sink.Materialize || p.sink() instanceof Sink.Sort || p.sink() instanceof Sink.Window
                ? RowPlacement.of(g.has(CudaVariantSpace.MATERIALIZATION) ? g.get(CudaVariantSpace.MATERIALIZATION)
                        : SinkLayout.Rows.TILE_ATOMIC)
                : null;
        this.gen = new CudaExprGen(new CudaExprGen.Scope() {
            @Override
            public CValue slot(Slot slot) {
                return valueOf(slot);
            }

            @Override
            public Dictionary dictionary(String key) {
                return ctx.dictionary(key);
            }

            @Override
            public String constant(CType type, Object value) {
                KernelParam k = KernelParam.constant(constants++, "const " + type.c, value);
                params.add(k);
                return k.name();
            }

            @Override
            public String isNull(Slot slot) {
                return nullOf(slot);
            }

            @Override
            public boolean padded(int joinId) {
                return paddedJoins.contains(joinId);
            }

            @Override
            public String codeMask(int[] words) {
                int n = masks++;
                KernelParam m = new KernelParam(KernelParam.Kind.CODE_MASK, n, -1, "mask" + n,
                        "const unsigned int* __restrict__", new KernelParam.Words(words));
                params.add(m);
                return m.name();
            }

            @Override
            public String codeMap(int[] codes, String dictionaryKey, Dictionary results) {
                int n = codeMaps++;
                KernelParam m = new KernelParam(KernelParam.Kind.CODE_MAP, n, -1, "codes" + n, "const int* __restrict__",
                        new KernelParam.Codes(new KernelParam.Words(codes), dictionaryKey, results));
                params.add(m);
                return m.name();
            }
        });
    }

    /** Comment text through the one sanitizer every comment with user text in it goes through. */
    static String comment(Object o) {
        return GeneratedSource.comment(o);
    }

    /**
     * Whether {@code [min, min + size)} lies within the int range, where {@code (unsigned)(key - min) < size} in
     * 32-bit arithmetic tests a 32-bit key against both ends exactly.
     */
    static boolean intRange(long min, long size) {
        return min >= Integer.MIN_VALUE && min + size - 1 <= Integer.MAX_VALUE;
    }

    /**
     * The estimated fraction of the rows a probe of table t keeps: the table's share of its build rows, or the rest
     * (anti), or all (left).
     */
    static double keeps(Operation.Probe pr, JoinLayout t) {
        return pr.kind() == JoinKind.ANTI ? 1 - t.selectivity() : pr.kind() == JoinKind.LEFT ? 1 : t.selectivity();
    }

    /** The kernel's dynamic shared memory in 8-byte words: the sink's table, then the bitmaps. */
    long sharedWords() {
        long words = sinkSharedWords;
        for (long w : sharedBitmapWords.values()) {
            words += (w + 1) / 2;
        }
        return words;
    }

    /** Adds a kernel parameter unless one of that name is there already (a probe emitted for both passes). */
    void param(KernelParam kp) {
        if (params.stream().noneMatch(q -> q.name().equals(kp.name()))) {
            params.add(kp);
        }
    }

    /**
     * Slots read by the operations from index {@code from} on and by the sink (which payloads a probe must fetch):
     * into {@link #laterOpSlots} the operations', into {@link #laterSlots} both; the same for the slots read as
     * values into {@link #laterOpValueSlots} and {@link #laterValueSlots}.
     */
    void collectLaterSlots(int from) {
        laterSlots.clear();
        laterOpSlots.clear();
        laterValueSlots.clear();
        laterOpValueSlots.clear();
        List<Expr> ops = new ArrayList<>();
        for (int k = from; k < operations.size(); k++) {
            switch (operations.get(k)) {
                case Operation.Filter f -> ops.add(f.condition());
                case Operation.Probe pr -> ops.addAll(pr.keys());
            }
        }
        for (Expr e : ops) {
            Expr.slots(e, laterOpSlots);
            ValueReads.slots(e, laterOpValueSlots);
        }
        laterSlots.addAll(laterOpSlots);
        laterValueSlots.addAll(laterOpValueSlots);
        for (Expr e : Sink.exprs(p.sink())) {
            Expr.slots(e, laterSlots);
            ValueReads.slots(e, laterValueSlots);
        }
    }

    /** Whether e can be NULL here: it reads the payload of a left join probed before, or is NULL. */
    boolean mayBeNull(Expr e) {
        return DeviceNulls.mayBeNull(e, paddedJoins::contains);
    }

    /**
     * The code of a value device memory keeps (a key, a payload, an output), which holds no NULL: the capability
     * check keeps a value that can be NULL from here.
     */
    CValue stored(Expr e) {
        CValue v = gen.gen(e);
        if (v.nullable()) {
            throw new IllegalStateException(e + " can be NULL where device memory keeps it: the capability check excludes it");
        }
        return v;
    }

    private CValue valueOf(Slot s) {
        if (s.isSource()) {
            String reg = loadedColumns.get(s.index());
            if (reg == null) {
                throw new IllegalStateException("column " + s + " used before its load");
            }
            CType t = CType.stored(s.type());
            String v = t == CType.BOOL ? "(" + reg + "[i] != 0)" : reg + "[i]";
            String isNull = hasNullFlags(s) ? "(" + reg + "_null[i] != 0)" : null;
            return new CValue(v, t, s.dictionaryKey(), isNull);
        }
        CValue v = loadedPayload.get(s.joinId() + ":" + s.index());
        if (v == null) {
            throw new IllegalStateException("payload " + s + (payloadNulls.containsKey(s.joinId() + ":" + s.index())
                    ? " read as a value, but its probe loaded only its NULL condition" : " used before its probe"));
        }
        return v;
    }

    /** The NULL condition of a slot (null where it is never NULL), without loading a payload column's value. */
    private String nullOf(Slot s) {
        if (s.isSource()) {
            return valueOf(s).isNull();
        }
        String key = s.joinId() + ":" + s.index();
        if (!payloadNulls.containsKey(key)) {
            throw new IllegalStateException("payload " + s + " used before its probe");
        }
        return payloadNulls.get(key);
    }

    /** Emits the tile loads of the source columns an expression reads that are not in registers yet. */
    void load(Expr e, String indent) {
        load(List.of(e), indent);
    }

    /**
     * Emits the tile loads of the source columns the expressions read, after fetching the put-off payload they read
     * (all of it in one loop).
     */
    void load(List<Expr> exprs, String indent) {
        List<Slot> slots = new ArrayList<>();
        for (Expr e : exprs) {
            Expr.slots(e, slots);
        }
        List<PayloadGathers.Deferred> due = new ArrayList<>();
        for (Slot s : slots) {
            PayloadGathers.Deferred d = s.isSource() ? null : deferredGathers.remove(s.joinId());
            if (d != null) {
                due.add(d);
            }
        }
        if (!due.isEmpty()) {
            PayloadGathers.deferred(this, due, indent);
        }
        for (Slot s : slots) {
            if (!s.isSource() || loadedColumns.containsKey(s.index())) {
                continue;
            }
            if (joinScan != null) {
                MarkOps.loadPayload(this, s, indent);
                continue;
            }
            if (groupScan != null) {
                GroupScan.load(this, s, indent);
                continue;
            }
            CType t = CType.stored(s.type());
            String param = "col" + s.index();
            int width = t == CType.BOOL ? 1 : t.bytes;
            if (columnParams.add(s.index())) {
                params.add(new KernelParam(KernelParam.Kind.COLUMN, s.index(), param, "const " + t.memory() + "* __restrict__"));
                bytesRead += sourceRows() * width;
                model.column(width);
            }
            String reg = "c" + s.index();
            loadedColumns.put(s.index(), reg);
            String what = (scan != null ? "the table's column " : "r" + relationScan.relationId() + "'s column ") + s.index();
            body.append(indent).append(t.memory()).append(' ').append(reg).append("[IPT];  // ").append(comment(what))
                    .append('\n');
            tileLoad(param, reg, indent);
            if (hasNullFlags(s)) {
                // its NULL flags, and the type's zero in the value's register where it is NULL (DeviceNulls)
                params.add(new KernelParam(KernelParam.Kind.COLUMN_NULLS, s.index(), param + "_null",
                        "const unsigned char* __restrict__"));
                bytesRead += sourceRows();
                model.column(1);
                body.append(indent).append("unsigned char ").append(reg).append("_null[IPT];\n");
                tileLoad(param + "_null", reg + "_null", indent);
                body.append(indent).append("#pragma unroll\n");
                body.append(indent).append("for (int i = 0; i < IPT; ++i) if (").append(reg).append("_null[i]) ")
                        .append(reg).append("[i] = (").append(t.memory()).append(")0;\n");
            }
        }
    }

    /**
     * Whether source column s is read with its NULL flags: a relation's column that can be NULL, or a table's column
     * that holds NULLs in the snapshot ({@link DeviceNulls#tableColumns}).
     */
    private boolean hasNullFlags(Slot s) {
        return s.nullable() && (relationScan != null
                || scan != null && paddedJoins.contains(DeviceNulls.sourceColumn(s.index())));
    }

    /** A column's tile into registers: the selected items only once an operation has dropped rows. */
    private void tileLoad(String param, String reg, String indent) {
        if (narrowed && !predicated) {
            body.append(indent).append("BlockLoadSel<TPB, IPT>(").append(param).append(" + base, ").append(reg)
                    .append(", flags, tile_size);\n");
        } else {
            body.append(indent).append("BlockLoad<TPB, IPT>(").append(param).append(" + base, ").append(reg)
                    .append(", tile_size);\n");
        }
    }

    /** The rows the kernel's source has: a table's, else the planner's estimate of a relation's. */
    private long sourceRows() {
        return scan != null ? scan.table().rowCount() : (long) Math.ceil(relationScan.estimatedRows());
    }
}

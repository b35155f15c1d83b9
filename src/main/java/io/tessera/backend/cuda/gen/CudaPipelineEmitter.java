package io.tessera.backend.cuda.gen;

import io.tessera.backend.cuda.CudaSources;
import io.tessera.backend.GeneratedSource;
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
import io.tessera.storage.Column;
import io.tessera.storage.DataType;
import io.tessera.storage.Dictionary;
import io.tessera.storage.TypeKind;
import io.tessera.variant.CudaVariantSpace;
import io.tessera.variant.Genome;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Emits one pipeline (IR plus genome) as one tile-based CUDA kernel (Crystal, chapter 3): each block takes tiles of
 * TPB x IPT rows, items in registers; every FILTER and PROBE is fused, columns are loaded on first use (only the
 * rows still selected, unless predicated), and the sink ends the tile: a hash-table insert, aggregation, or
 * materialization (one atomic per tile and a block scan, or two passes over counts and their prefix sum). A kernel
 * of two passes (a cuckoo build with payload, mat=twopass or mat=bitmap) has a {@code pass} parameter and is
 * launched twice. Every choice comes from the genome.
 */
public final class CudaPipelineEmitter {

    /** What emitting needs beyond the pipeline: dictionaries, and the layouts of tables built before. */
    public interface Context {
        Dictionary dictionary(String key);

        JoinLayout join(int joinId);
    }

    private final Pipeline p;
    private final Genome g;
    private final Context ctx;
    private final Source.TableScan scan;
    private final boolean predicated;
    private final CudaExprGen gen;

    private final List<KernelParam> params = new ArrayList<>();
    /** Constants passed so far (kernel parameters k0, k1, ...). */
    private int constants;
    private final StringBuilder prologue = new StringBuilder();
    /** The tile body being emitted (with mat=bitmap, pass 1's once pass 0's is done: see {@link #firstPass}). */
    private StringBuilder body = new StringBuilder();
    /** With mat=bitmap: pass 0's tile body (operations, bitmap and counts); {@link #body} is then pass 1's. */
    private StringBuilder firstPass;
    private final StringBuilder epilogue = new StringBuilder();
    private final Map<Integer, String> loadedColumns = new HashMap<>();
    private final Map<String, CValue> loadedPayload = new HashMap<>();
    private final Set<Integer> columnParams = new HashSet<>();
    private final List<Slot> laterSlots = new ArrayList<>();
    /** As {@link #laterSlots}, without the sink's. */
    private final List<Slot> laterOpSlots = new ArrayList<>();
    /** The genome's {@code mat} of a MATERIALIZE / SORT sink, else null. */
    private final String mat;
    private boolean narrowed;
    private List<Operation> operations;
    private long bytesRead;
    private ModelAccount model;
    /** The planner's estimates of the filters' selectivities, for the model. */
    private final Selectivity estimates;
    /** Whether this kernel's perfect-table probes (pass 0) are predicated rather than branched (ppred). */
    private boolean predicatedProbes;
    private SinkLayout sink;
    /** The joins whose presence bitmaps this kernel copies into shared memory (bm=shared), and their 32-bit words. */
    private final Map<Integer, Long> sharedBitmapWords = new java.util.LinkedHashMap<>();
    /**
     * Payload gathers of perfect tables put off until a later operation or the sink reads the payload, by join:
     * the probe only tests the bitmap, and the payload is fetched for the rows that every probe and filter between
     * kept (the slot is the key minus the table's minimum, recomputed from the key still in registers).
     */
    private final Map<Integer, DeferredGather> deferredGathers = new java.util.LinkedHashMap<>();
    /** 8-byte words of shared memory the sink's table takes (agg=wglocal), before the bitmaps. */
    private long sinkSharedWords;

    /** A perfect table's payload columns still to fetch, and the key expression their slot comes from. */
    private record DeferredGather(JoinLayout table, List<Integer> columns, String key, boolean narrowSlots) {
        String j() {
            return "j" + table.joinId();
        }
    }

    /**
     * Whether a probe of table t computes its slot in 32 bits: a perfect table over 32-bit keys (whose range, from
     * 32-bit statistics, lies within the int range).
     */
    private static boolean narrowSlots(JoinLayout t) {
        return t.perfect() && t.keyType() == CType.INT && intRange(t.min(), t.perfectSlots());
    }

    /**
     * Whether {@code [min, min + size)} lies within the int range, where {@code (unsigned)(key - min) < size} in
     * 32-bit arithmetic tests a 32-bit key against both ends exactly.
     */
    private static boolean intRange(long min, long size) {
        return min >= Integer.MIN_VALUE && min + size - 1 <= Integer.MAX_VALUE;
    }

    private CudaPipelineEmitter(Pipeline p, Genome g, Context ctx) {
        this.p = p;
        this.g = g;
        this.ctx = ctx;
        if (!(p.source() instanceof Source.TableScan ts)) {
            throw new GpuUnsupported("it reads an intermediate result (" + p.source() + "); GPU pipelines scan tables");
        }
        this.scan = ts;
        this.estimates = new Selectivity(ctx::dictionary);
        this.predicated = g.has(CudaVariantSpace.PREDICATION) && "predicated".equals(g.get(CudaVariantSpace.PREDICATION));
        this.mat = p.sink() instanceof Sink.Materialize || p.sink() instanceof Sink.Sort
                ? (g.has(CudaVariantSpace.MATERIALIZATION) ? g.get(CudaVariantSpace.MATERIALIZATION) : SinkLayout.Rows.TILE_ATOMIC)
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
        });
    }

    public static String kernelName(Pipeline p) {
        return "tessera_p" + p.id();
    }

    /** The kernel of pipeline p under genome g; throws {@link GpuUnsupported} when the pipeline has no GPU code. */
    public static CudaKernelSource emit(Pipeline p, Genome g, Context ctx) {
        return new CudaPipelineEmitter(p, g, ctx).emit();
    }

    private CudaKernelSource emit() {
        model = new ModelAccount(scan.table().rowCount());
        params.add(new KernelParam(KernelParam.Kind.ROWS, -1, "n", "const long long"));
        operations = g.has(CudaVariantSpace.PROBE_ORDER) && g.get(CudaVariantSpace.PROBE_ORDER).equals("selectivity")
                ? bySelectivity(p.operations()) : p.operations();
        chooseSharedBitmaps();
        predicatedProbes = predicatesProbes();
        for (int k = 0; k < operations.size(); k++) {
            Operation op = operations.get(k);
            collectLaterSlots(k + 1);
            switch (op) {
                case Operation.Filter f -> filter(f);
                case Operation.Probe pr -> probe(pr, false);
            }
        }
        collectLaterSlots(operations.size());
        switch (p.sink()) {
            case Sink.Build b -> build(b);
            case Sink.Aggregate a -> aggregate(a.aggs(), null);
            case Sink.GroupAggregate ga -> aggregate(ga.aggs(), ga);
            case Sink.Materialize m -> materialize(m.outputs());
            case Sink.Sort s -> materialize(s.outputs());
        }
        params.add(new KernelParam(KernelParam.Kind.ERROR, -1, "error", "int*"));
        String name = kernelName(p);
        return new CudaKernelSource(p, g, name, "p" + p.id() + ".cu", assemble(name), List.copyOf(params), sink, bytesRead,
                model.bytes(), sharedWords() * 8);
    }

    /** Under bm=shared: which probed perfect tables' bitmaps fit in shared memory beside the sink's table. */
    private void chooseSharedBitmaps() {
        if (!g.has(CudaVariantSpace.BITMAPS) || !g.get(CudaVariantSpace.BITMAPS).equals("shared")) {
            return;
        }
        List<Integer> joins = new ArrayList<>();
        List<Long> bytes = new ArrayList<>();
        for (Operation op : operations) {
            if (op instanceof Operation.Probe pr && ctx.join(pr.joinId()) instanceof JoinLayout t && t.perfect()
                    && !joins.contains(pr.joinId())) {
                joins.add(pr.joinId());
                bytes.add(CudaVariantSpace.bitmapBytes(t.perfectSlots()));
            }
        }
        long sinkBytes = p.sink() instanceof Sink.GroupAggregate ga && "wglocal".equals(g.get(CudaVariantSpace.AGGREGATION))
                ? CudaVariantSpace.sharedTableBytes(p, ga) : 0;
        boolean[] shared = CudaVariantSpace.sharedBitmaps(bytes, sinkBytes,
                CudaVariantSpace.sharedBudget(Integer.parseInt(g.get(CudaVariantSpace.TPB)),
                        "full".equals(g.get(CudaVariantSpace.OCCUPANCY))));
        for (int i = 0; i < shared.length; i++) {
            if (shared[i]) {
                sharedBitmapWords.put(joins.get(i), bytes.get(i) / 4);
            }
        }
    }

    /** The kernel's dynamic shared memory in 8-byte words: the sink's table, then the bitmaps. */
    private long sharedWords() {
        long words = sinkSharedWords;
        for (long w : sharedBitmapWords.values()) {
            words += (w + 1) / 2;
        }
        return words;
    }

    /**
     * The operations reordered so that rows are dropped as early as possible: filters first, then probes from the
     * most selective table on; an operation that reads a probe's payload stays after that probe.
     */
    private List<Operation> bySelectivity(List<Operation> ops) {
        List<Operation> left = new ArrayList<>(ops);
        List<Operation> out = new ArrayList<>();
        Set<Integer> probed = new HashSet<>();
        while (!left.isEmpty()) {
            Operation best = null;
            double bestRank = Double.MAX_VALUE;
            for (Operation op : left) {
                if (!ready(op, probed)) {
                    continue;
                }
                double rank = switch (op) {
                    case Operation.Filter f -> -1;
                    case Operation.Probe pr -> {
                        JoinLayout t = ctx.join(pr.joinId());
                        yield t == null ? 1 : keeps(pr, t);
                    }
                };
                if (rank < bestRank) {
                    bestRank = rank;
                    best = op;
                }
            }
            if (best == null) {
                return ops; // a dependency the reordering does not understand: keep the plan's order
            }
            left.remove(best);
            out.add(best);
            if (best instanceof Operation.Probe pr) {
                probed.add(pr.joinId());
            }
        }
        return out;
    }

    private static boolean ready(Operation op, Set<Integer> probed) {
        List<Slot> slots = new ArrayList<>();
        switch (op) {
            case Operation.Filter f -> Expr.slots(f.condition(), slots);
            case Operation.Probe pr -> pr.keys().forEach(e -> Expr.slots(e, slots));
        }
        return slots.stream().allMatch(s -> s.isSource() || probed.contains(s.joinId()));
    }

    // ---- slots and loads ----

    /**
     * Slots read by the operations from index {@code from} on and by the sink (which payloads a probe must fetch):
     * into {@link #laterOpSlots} the operations', into {@link #laterSlots} both.
     */
    private void collectLaterSlots(int from) {
        laterSlots.clear();
        laterOpSlots.clear();
        for (int k = from; k < operations.size(); k++) {
            switch (operations.get(k)) {
                case Operation.Filter f -> Expr.slots(f.condition(), laterOpSlots);
                case Operation.Probe pr -> pr.keys().forEach(e -> Expr.slots(e, laterOpSlots));
            }
        }
        laterSlots.addAll(laterOpSlots);
        for (Expr e : sinkExprs()) {
            Expr.slots(e, laterSlots);
        }
    }

    /** Adds a kernel parameter unless one of that name is there already (a probe emitted for both passes). */
    private void param(KernelParam kp) {
        if (params.stream().noneMatch(q -> q.name().equals(kp.name()))) {
            params.add(kp);
        }
    }

    private List<Expr> sinkExprs() {
        List<Expr> out = new ArrayList<>();
        switch (p.sink()) {
            case Sink.Build b -> {
                out.addAll(b.keys());
                out.addAll(b.payload());
            }
            case Sink.Aggregate a -> aggExprs(a.aggs(), out);
            case Sink.GroupAggregate ga -> {
                out.addAll(ga.keys());
                aggExprs(ga.aggs(), out);
            }
            case Sink.Materialize m -> out.addAll(m.outputs());
            case Sink.Sort s -> out.addAll(s.outputs());
        }
        return out;
    }

    private static void aggExprs(List<AggCall> aggs, List<Expr> out) {
        for (AggCall a : aggs) {
            if (a.arg() != null) {
                out.add(a.arg());
            }
            if (a.filter() != null) {
                out.add(a.filter());
            }
        }
    }

    private CValue valueOf(Slot s) {
        if (s.nullable()) {
            throw new GpuUnsupported("column " + s + " can be NULL");
        }
        if (s.isSource()) {
            String reg = loadedColumns.get(s.index());
            if (reg == null) {
                throw new IllegalStateException("column " + s + " used before its load");
            }
            CType t = CType.stored(s.type());
            String v = t == CType.BOOL ? "(" + reg + "[i] != 0)" : reg + "[i]";
            return new CValue(v, t, s.dictionaryKey());
        }
        CValue v = loadedPayload.get(s.joinId() + ":" + s.index());
        if (v == null) {
            throw new IllegalStateException("payload " + s + " used before its probe");
        }
        return v;
    }

    /** Emits the tile loads of the source columns an expression reads that are not in registers yet. */
    private void load(Expr e, String indent) {
        load(List.of(e), indent);
    }

    /**
     * Emits the tile loads of the source columns the expressions read, after fetching the put-off payload they read
     * (all of it in one loop).
     */
    private void load(List<Expr> exprs, String indent) {
        List<Slot> slots = new ArrayList<>();
        for (Expr e : exprs) {
            Expr.slots(e, slots);
        }
        List<DeferredGather> due = new ArrayList<>();
        for (Slot s : slots) {
            DeferredGather d = s.isSource() ? null : deferredGathers.remove(s.joinId());
            if (d != null) {
                due.add(d);
            }
        }
        if (!due.isEmpty()) {
            gatherDeferred(due, indent);
        }
        for (Slot s : slots) {
            if (!s.isSource() || loadedColumns.containsKey(s.index())) {
                continue;
            }
            if (s.nullable()) {
                throw new GpuUnsupported("column " + s + " can be NULL");
            }
            Column col = scan.table().column(s.index());
            CType t = CType.stored(s.type());
            String param = "col" + s.index();
            if (columnParams.add(s.index())) {
                params.add(new KernelParam(KernelParam.Kind.COLUMN, s.index(), param, "const " + t.memory() + "* __restrict__"));
                bytesRead += col.rowCount() * (long) (t == CType.BOOL ? 1 : t.bytes);
                model.column(t == CType.BOOL ? 1 : t.bytes);
            }
            String reg = "c" + s.index();
            loadedColumns.put(s.index(), reg);
            body.append(indent).append(t.memory()).append(' ').append(reg).append("[IPT];  // ")
                    .append(comment(scan.table().name() + "." + col.name())).append('\n');
            if (narrowed && !predicated) {
                body.append(indent).append("BlockLoadSel<TPB, IPT>(").append(param).append(" + base, ").append(reg)
                        .append(", flags, tile_size);\n");
            } else {
                body.append(indent).append("BlockLoad<TPB, IPT>(").append(param).append(" + base, ").append(reg)
                        .append(", tile_size);\n");
            }
        }
    }

    // ---- operations ----

    private void filter(Operation.Filter f) {
        String in = "        ";
        body.append(in).append("// FILTER ").append(comment(f.condition())).append('\n');
        load(f.condition(), in);
        String cond = gen.condition(f.condition());
        body.append(in).append("#pragma unroll\n");
        body.append(in).append("for (int i = 0; i < IPT; ++i) {\n");
        if (predicated && !cond.contains("err")) {
            body.append(in).append("    flags[i] = flags[i] & (int)").append(cond).append(";\n");
        } else if (predicated) {
            // evaluate for every item without a branch; errors count only for rows still selected
            body.append(in).append("    int err_row = 0;\n");
            body.append(in).append("    bool hit;\n");
            body.append(in).append("    {\n");
            body.append(in).append("        int& err = err_row;\n");
            body.append(in).append("        hit = ").append(cond).append(";\n");
            body.append(in).append("    }\n");
            body.append(in).append("    err |= flags[i] ? err_row : 0;\n");
            body.append(in).append("    flags[i] = flags[i] & (int)hit;\n");
        } else {
            body.append(in).append("    if (flags[i]) flags[i] = ").append(cond).append(";\n");
        }
        body.append(in).append("}\n");
        narrowed = true;
        model.narrow(estimates.of(f.condition()));
    }

    /**
     * A PROBE. {@code again}: in pass 1 of mat=bitmap, where the bitmap already holds the selection, the probe only
     * fetches the payload of {@link #laterSlots} for the selected rows (each found its key in pass 0, in the same
     * table) and leaves the flags alone.
     */
    private void probe(Operation.Probe pr, boolean again) {
        String in = "        ";
        if (pr.keys().size() != 1) {
            throw new GpuUnsupported("a join on " + pr.keys().size() + " keys");
        }
        if (pr.kind() != JoinKind.INNER && pr.kind() != JoinKind.SEMI && pr.kind() != JoinKind.ANTI) {
            throw new GpuUnsupported("a " + pr.kind().name().toLowerCase(java.util.Locale.ROOT) + " join");
        }
        JoinLayout t = ctx.join(pr.joinId());
        if (t == null) {
            throw new GpuUnsupported("join j" + pr.joinId() + " has its table on the JVM");
        }
        Expr key = pr.keys().get(0);
        CType kt = keyType(key);
        if (kt != t.keyType()) {
            throw new GpuUnsupported("join j" + pr.joinId() + " compares keys of different types");
        }
        String j = "j" + pr.joinId();
        body.append(in).append("// PROBE ").append(j).append(' ').append(pr.kind().name().toLowerCase(java.util.Locale.ROOT))
                .append(" on ").append(comment(key)).append(" (").append(t.describe()).append(")")
                .append(sharedBitmapWords.containsKey(pr.joinId()) ? ", its bitmap in shared memory" : "")
                .append(again ? ": again, for the payload of the rows pass 0 selected" : "")
                .append(probesPredicated(t, again) ? String.format(java.util.Locale.ROOT,
                        ", predicated (an estimated %.1f%% of the rows reach it)", 100 * model.selected()) : "")
                .append('\n');
        load(key, in);
        // a perfect table is a presence bitmap (bit = key - min) beside the payload arrays: a probe reads one bit,
        // and bitmaps are small enough to stay in L1 and L2 where the key arrays would not
        param(new KernelParam(KernelParam.Kind.PROBE_KEYS, pr.joinId(), j + (t.perfect() ? "_bits" : "_keys"),
                "const " + (t.perfect() ? "unsigned int" : kt.c) + "* __restrict__"));
        if (t.perfect()) {
            param(new KernelParam(KernelParam.Kind.PROBE_MIN, pr.joinId(), j + "_min", "const long long"));
            param(new KernelParam(KernelParam.Kind.PROBE_SLOTS, pr.joinId(), j + "_slots", "const long long"));
        } else {
            param(new KernelParam(KernelParam.Kind.PROBE_LOG2, pr.joinId(), j + "_log2", "const int"));
        }
        // payload columns read later: one register array each, filled from the matched slot. With mat=bitmap, pass
        // 0 fetches only what later operations read (the outputs' payload is fetched in pass 1); with mat=twopass,
        // what only the outputs read is fetched in pass 1 alone.
        List<Slot> wanted = !again && SinkLayout.Rows.BITMAP.equals(mat) ? laterOpSlots : laterSlots;
        List<Integer> payloads = new ArrayList<>();
        List<Integer> secondPassOnly = new ArrayList<>();
        if (pr.kind() == JoinKind.INNER) {
            for (Slot s : wanted) {
                if (s.joinId() == pr.joinId() && !payloads.contains(s.index())) {
                    payloads.add(s.index());
                }
            }
            if (!again && SinkLayout.Rows.TWO_PASS.equals(mat)) {
                for (int c : payloads) {
                    if (laterOpSlots.stream().noneMatch(s -> s.joinId() == pr.joinId() && s.index() == c)) {
                        secondPassOnly.add(c);
                    }
                }
            }
        }
        for (int c : payloads) {
            CType pt = t.payloadTypes().get(c);
            param(new KernelParam(KernelParam.Kind.PROBE_PAYLOAD, pr.joinId(), c, j + "_pay" + c,
                    "const " + t.payloadMemory(c) + "* __restrict__"));
            body.append(in).append(pt.memory()).append(' ').append(j).append("_p").append(c).append("[IPT];\n");
            String v = j + "_p" + c + "[i]";
            loadedPayload.put(pr.joinId() + ":" + c, new CValue(pt == CType.BOOL ? "(" + v + " != 0)" : v, pt,
                    t.payloadDicts().get(c)));
        }
        CValue k = gen.gen(key);
        boolean narrowSlots = narrowSlots(t);
        String empty = "(" + kt.c + ")" + CudaExprGen.longLiteral(t.emptyKey());
        String find = switch (t.kind()) {
            case PERFECT -> "tessera::q::PerfectFindBit" + (narrowSlots ? "32<" : "<")
                    + sharedBitmapWords.containsKey(pr.joinId()) + ">(" + j
                    + (sharedBitmapWords.containsKey(pr.joinId()) ? "_sbits" : "_bits")
                    + (narrowSlots ? ", " : ", (long long)") + k.v() + ", " + j + "_min, " + j + "_slots"
                    + (probesPredicated(t, again) ? ", flags[i])" : ")");
            case LINEAR -> "tessera::q::LinearFind<" + t.hashStruct() + ", " + kt.c + ">(" + j + "_keys, " + k.v() + ", "
                    + empty + ", " + j + "_log2)";
            // the key is in one of its candidate slots or nowhere: the candidates are read, no run of slots is walked
            default -> "tessera::q::CuckooFind<" + t.kind().ways + ", " + t.hashStruct() + ", " + kt.c + ">(" + j
                    + "_keys, " + k.v() + ", " + empty + ", " + j + "_log2)";
        };
        // gather=late: a perfect table's payload waits for the rows that the later probes and filters keep (not in
        // the row sinks, whose passes split the payload between them)
        boolean defer = !again && mat == null && t.perfect() && pr.kind() == JoinKind.INNER && !payloads.isEmpty()
                && g.has(CudaVariantSpace.GATHER) && g.get(CudaVariantSpace.GATHER).equals("late");
        if (defer) {
            deferredGathers.put(pr.joinId(), new DeferredGather(t, List.copyOf(payloads), k.v(), narrowSlots));
        }
        List<Integer> bothPasses = new ArrayList<>(payloads);
        bothPasses.removeAll(secondPassOnly);
        if (probesPredicated(t, again)) {
            predicatedProbe(pr, find, narrowSlots, defer ? List.of() : bothPasses, defer ? List.of() : secondPassOnly, t, in);
        } else {
            branchedProbe(pr, find, narrowSlots, again, defer, payloads, bothPasses, secondPassOnly, t, in);
        }
        narrowed = true;
        if (!again) {
            model.table(tableBytes(t, pr, payloads));
            model.narrow(keeps(pr, t));
        }
    }

    /**
     * ppred=predicated: a perfect table's probe (pass 0) runs for every row of the tile, its bitmap word read only for
     * the selected ones, without a branch; the payload of the rows found is fetched with predicated loads. Under
     * ppred=estimate, the pipeline's probes are predicated when {@link #predicatesProbes} said so.
     */
    private boolean probesPredicated(JoinLayout t, boolean again) {
        return t.perfect() && !again && predicatedProbes;
    }

    /**
     * Whether the genome predicates the pipeline's perfect-table probes: always, never, or (ppred=estimate) when the
     * estimated share of the rows that reach its last one is {@link CudaVariantSpace#PREDICATED_PROBE_SHARE} or more.
     */
    private boolean predicatesProbes() {
        if (!g.has(CudaVariantSpace.PROBE_PREDICATION)) {
            return false;
        }
        return switch (g.get(CudaVariantSpace.PROBE_PREDICATION)) {
            case "predicated" -> true;
            case "estimate" -> shareAtLastPerfectProbe() >= CudaVariantSpace.PREDICATED_PROBE_SHARE;
            default -> false;
        };
    }

    /** The estimated share of the scanned rows still selected where the pipeline probes its last perfect table. */
    private double shareAtLastPerfectProbe() {
        ModelAccount walk = new ModelAccount(0); // narrows as the kernel's own account will, ahead of it
        double atLast = 1;
        for (Operation op : operations) {
            switch (op) {
                case Operation.Filter f -> walk.narrow(estimates.of(f.condition()));
                case Operation.Probe pr -> {
                    JoinLayout t = ctx.join(pr.joinId());
                    if (t != null) {
                        if (t.perfect()) {
                            atLast = walk.selected();
                        }
                        walk.narrow(keeps(pr, t));
                    }
                }
            }
        }
        return atLast;
    }

    private void predicatedProbe(Operation.Probe pr, String find, boolean narrowSlots, List<Integer> bothPasses,
                                 List<Integer> secondPassOnly, JoinLayout t, String in) {
        body.append(in).append("#pragma unroll\n");
        body.append(in).append("for (int i = 0; i < IPT; ++i) {\n");
        body.append(in).append("    const ").append(narrowSlots ? "int" : "long long").append(" slot = ").append(find).append(";  // -1 for a row not selected\n");
        body.append(in).append(pr.kind() == JoinKind.ANTI ? "    flags[i] = flags[i] && slot < 0;\n" : "    flags[i] = slot >= 0;\n");
        if (!bothPasses.isEmpty() || !secondPassOnly.isEmpty()) {
            body.append(in).append("    if (flags[i]) {\n");
            passGathers(t, bothPasses, secondPassOnly, in + "        ");
            body.append(in).append("    }\n");
        }
        body.append(in).append("}\n");
    }

    /** A probe under a branch per row: rows no longer selected skip it (the whole warp, when none of its rows is). */
    private void branchedProbe(Operation.Probe pr, String find, boolean narrowSlots, boolean again, boolean defer,
                               List<Integer> payloads, List<Integer> bothPasses, List<Integer> secondPassOnly,
                               JoinLayout t, String in) {
        body.append(in).append("#pragma unroll\n");
        body.append(in).append("for (int i = 0; i < IPT; ++i) {\n");
        body.append(in).append("    if (flags[i]) {\n");
        body.append(in).append("        const ").append(narrowSlots ? "int" : "long long").append(" slot = ").append(find).append(";\n");
        if (again) {
            body.append(in).append("        if (slot >= 0) {\n");
            gathers(t, payloads, in + "            ");
            body.append(in).append("        }\n");
        } else {
            switch (pr.kind()) {
                case SEMI -> body.append(in).append("        flags[i] = slot >= 0;\n");
                case ANTI -> body.append(in).append("        flags[i] = slot < 0;\n");
                default -> {
                    if (payloads.isEmpty() || defer) {
                        body.append(in).append("        if (slot < 0) flags[i] = 0;\n");
                    } else {
                        body.append(in).append("        if (slot < 0) {\n");
                        body.append(in).append("            flags[i] = 0;\n");
                        body.append(in).append("        } else {\n");
                        passGathers(t, bothPasses, secondPassOnly, in + "            ");
                        body.append(in).append("        }\n");
                    }
                }
            }
        }
        body.append(in).append("    }\n");
        body.append(in).append("}\n");
    }

    /** Fetches the payload both passes read, then, under mat=twopass, what only the outputs of pass 1 read. */
    private void passGathers(JoinLayout t, List<Integer> bothPasses, List<Integer> secondPassOnly, String in) {
        gathers(t, bothPasses, in);
        if (!secondPassOnly.isEmpty()) {
            body.append(in).append("if (pass == 1) {  // only the outputs read these\n");
            gathers(t, secondPassOnly, in + "    ");
            body.append(in).append("}\n");
        }
    }

    /** The estimated fraction of the rows a probe of table t keeps: the table's share of its build rows, or the rest. */
    private static double keeps(Operation.Probe pr, JoinLayout t) {
        return pr.kind() == JoinKind.ANTI ? 1 - t.selectivity() : t.selectivity();
    }

    /**
     * The bytes of a join table that probes read: a perfect table's bitmap and the payload arrays fetched; a hashed
     * table's keys and those payloads at half load, from the build's estimated rows.
     */
    private static double tableBytes(JoinLayout t, Operation.Probe pr, List<Integer> payloads) {
        double entry = 0;
        for (int c : payloads) {
            entry += t.payloadBytes(c);
        }
        if (t.perfect()) {
            return t.perfectSlots() / 8.0 + t.perfectSlots() * entry;
        }
        return 2 * pr.build().estimatedRows() * t.selectivity() * (t.keyType().bytes + entry);
    }

    /**
     * Fetches perfect tables' payload for the rows still selected, at the first operation that reads it: one loop
     * for all the tables that operation needs, so that their loads are in flight together.
     */
    private void gatherDeferred(List<DeferredGather> due, String in) {
        body.append(in).append("// PROBE ").append(due.stream().map(DeferredGather::j).collect(java.util.stream.Collectors.joining(", ")))
                .append(": payload for the rows the probes and filters since kept\n");
        body.append(in).append("#pragma unroll\n");
        body.append(in).append("for (int i = 0; i < IPT; ++i) {\n");
        body.append(in).append("    if (flags[i]) {\n");
        for (DeferredGather d : due) {
            body.append(in).append("        {\n");
            body.append(in).append(d.narrowSlots()
                    ? "            const int slot = (int)((unsigned int)" + d.key() + " - (unsigned int)" + d.j() + "_min);\n"
                    : "            const long long slot = (long long)" + d.key() + " - " + d.j() + "_min;\n");
            gathers(d.table(), d.columns(), in + "            ");
            body.append(in).append("        }\n");
        }
        body.append(in).append("    }\n");
        body.append(in).append("}\n");
    }

    private void gathers(JoinLayout t, List<Integer> payloads, String in) {
        String j = "j" + t.joinId();
        for (int c : payloads) {
            String stored = j + "_pay" + c + "[slot]";
            KeyRange r = t.payloadRanges().get(c);
            body.append(in).append(j).append("_p").append(c).append("[i] = ");
            if (r == null) {
                body.append(stored).append(";\n");
            } else if (t.payloadTypes().get(c) == CType.INT) {
                body.append("(int)((unsigned int)").append(stored).append(" + (unsigned int)")
                        .append(CudaExprGen.longLiteral(r.min())).append(");  // stored narrow, as value - min\n");
            } else {
                body.append("(long long)").append(stored).append(" + ").append(CudaExprGen.longLiteral(r.min()))
                        .append(";  // stored narrow, as value - min\n");
            }
        }
    }

    private static CType keyType(Expr key) {
        TypeKind k = key.type().kind();
        if (k == TypeKind.INTEGER || k == TypeKind.DATE) {
            return CType.INT;
        }
        if (k == TypeKind.BIGINT || k == TypeKind.DECIMAL) {
            return CType.LONG;
        }
        throw new GpuUnsupported("a join key of type " + key.type());
    }

    // ---- sinks ----

    private void build(Sink.Build b) {
        String in = "        ";
        if (b.keys().size() != 1) {
            throw new GpuUnsupported("a join on " + b.keys().size() + " keys");
        }
        if (b.commonKeyTypes().get(0) != null) {
            throw new GpuUnsupported("join keys of different types");
        }
        if (!b.uniqueKeys() && !b.payload().isEmpty()) {
            throw new GpuUnsupported("a join whose build keys may repeat");
        }
        Expr key = b.keys().get(0);
        CType kt = keyType(key);
        JoinLayout.Kind kind = JoinLayout.Kind.of(g.get(CudaVariantSpace.HASH_TABLE));
        boolean perfect = kind == JoinLayout.Kind.PERFECT;
        boolean murmur = "murmur".equals(g.get(CudaVariantSpace.HASH));
        KeyRange r = b.range();
        if (perfect && (r == null || r.min() == (kt == CType.INT ? Integer.MIN_VALUE : Long.MIN_VALUE))) {
            throw new GpuUnsupported("a perfect table without a usable key range");
        }
        List<CType> payloadTypes = new ArrayList<>();
        List<String> payloadDicts = new ArrayList<>();
        List<KeyRange> payloadRanges = new ArrayList<>();
        boolean narrow = g.has(CudaVariantSpace.PAYLOAD) && "narrow".equals(g.get(CudaVariantSpace.PAYLOAD));
        for (Expr e : b.payload()) {
            payloadRanges.add(narrow ? CudaVariantSpace.narrowPayloadRange(e) : null);
            if (e.type().kind() == TypeKind.VARCHAR && !(e instanceof Expr.Ref)) {
                throw new GpuUnsupported("a computed string in a join payload");
            }
            payloadTypes.add(CType.stored(e.type()));
            payloadDicts.add(e instanceof Expr.Ref ref ? ref.slot().dictionaryKey() : null);
        }
        JoinLayout layout = new JoinLayout(b.joinId(), kind, murmur, kt, payloadTypes, payloadDicts, payloadRanges,
                perfect ? r.min() : 0, perfect ? r.size() : 0, model.selected());
        model.written(kt.bytes);
        for (int c = 0; c < payloadTypes.size(); c++) {
            model.written(layout.payloadBytes(c));
        }
        sink = new SinkLayout.Build(layout);
        body.append(in).append(String.format(java.util.Locale.ROOT, "// estimated to hold %.4f of the table's rows%n",
                layout.selectivity()));
        body.append(in).append("// BUILD j").append(b.joinId()).append(" keys ").append(comment(key)).append(" payload ")
                .append(comment(b.payloadNames())).append(" (").append(layout.describe()).append(")\n");
        load(key, in);
        params.add(new KernelParam(KernelParam.Kind.BUILD_KEYS, b.joinId(), perfect ? "build_bits" : "build_keys",
                (perfect ? "unsigned int" : kt.c) + "* __restrict__"));
        for (int c = 0; c < payloadTypes.size(); c++) {
            params.add(new KernelParam(KernelParam.Kind.BUILD_PAYLOAD, b.joinId(), c, "build_pay" + c, layout.payloadMemory(c) + "* __restrict__"));
        }
        if (perfect) {
            params.add(new KernelParam(KernelParam.Kind.BUILD_MIN, b.joinId(), "build_min", "const long long"));
            params.add(new KernelParam(KernelParam.Kind.BUILD_SLOTS, b.joinId(), "build_slots", "const long long"));
        } else {
            params.add(new KernelParam(KernelParam.Kind.BUILD_LOG2, b.joinId(), "build_log2", "const int"));
        }
        if (kind.cuckoo()) {
            cuckooBuild(b, layout, in);
            return;
        }
        load(b.payload(), in);
        body.append(in).append("#pragma unroll\n");
        body.append(in).append("for (int i = 0; i < IPT; ++i) {\n");
        body.append(in).append("    if (flags[i]) {\n");
        body.append(in).append("        const ").append(kt.c).append(" key = ").append(gen.gen(key).v()).append(";\n");
        if (perfect) {
            body.append(in).append("        long long slot = (long long)key - build_min;\n");
            body.append(in).append("        if (slot < 0 || slot >= build_slots) {\n");
            body.append(in).append("            err |= TESSERA_ERR_TABLE_FULL;  // a key outside the range the statistics gave\n");
            body.append(in).append("            slot = -1;\n");
            body.append(in).append("        } else {\n");
            body.append(in).append("            atomicOr(&build_bits[slot >> 5], 1u << (slot & 31));\n");
            body.append(in).append("        }\n");
        } else {
            body.append(in).append("        const long long slot = tessera::q::LinearInsert<").append(layout.hashStruct())
                    .append(">(build_keys, key, build_log2, err);\n");
        }
        if (!payloadTypes.isEmpty()) {
            body.append(in).append("        if (slot >= 0) {\n");
            buildPayload(b, layout, in + "            ");
            body.append(in).append("        }\n");
        }
        body.append(in).append("    }\n");
        body.append(in).append("}\n");
    }

    private void buildPayload(Sink.Build b, JoinLayout t, String in) {
        for (int c = 0; c < b.payload().size(); c++) {
            CValue v = gen.gen(b.payload().get(c));
            KeyRange r = t.payloadRanges().get(c);
            if (r == null) {
                body.append(in).append("build_pay").append(c).append("[slot] = ").append(v.v()).append(";\n");
                continue;
            }
            // pay=narrow: the offset from the statistics' minimum; a value outside their range fails the pipeline
            String u = t.payloadTypes().get(c) == CType.INT ? "unsigned int" : "unsigned long long";
            body.append(in).append("{\n");
            body.append(in).append("    const ").append(u).append(" off = (").append(u).append(')').append(v.v())
                    .append(" - (").append(u).append(')').append(CudaExprGen.longLiteral(r.min())).append(";\n");
            body.append(in).append("    if (off < ").append(r.size()).append("u) {\n");
            body.append(in).append("        build_pay").append(c).append("[slot] = (").append(t.payloadMemory(c))
                    .append(")off;\n");
            body.append(in).append("    } else {\n");
            body.append(in).append("        err |= TESSERA_ERR_TABLE_FULL;  // a payload value outside the range the statistics gave\n");
            body.append(in).append("    }\n");
            body.append(in).append("}\n");
        }
    }

    /**
     * A cuckoo table: keys inserted with eviction chains (CuckooInsert). An insert moves keys that other threads
     * placed, so no slot is final before every insert has returned, and a payload written beside its key could be
     * left behind when the key moves on. A table with payload therefore takes two launches of this kernel: pass 0
     * inserts the keys, pass 1 (every key sitting still) finds each key and writes its payload to that slot; the
     * build keys of a table with payload are unique, so each slot has one writer.
     */
    private void cuckooBuild(Sink.Build b, JoinLayout t, String in) {
        String kt = t.keyType().c;
        String empty = "(" + kt + ")" + CudaExprGen.longLiteral(t.emptyKey());
        String fns = t.kind().ways + ", " + t.hashStruct();
        String key = gen.gen(b.keys().get(0)).v();
        boolean payload = !b.payload().isEmpty();
        String pad = in;
        if (payload) {
            params.add(new KernelParam(KernelParam.Kind.PASS, -1, "pass", "const int"));
            body.append(in).append("if (pass == 0) {\n");
            body.append(in).append("    // pass 0: the keys; a slot is final only once every insert has returned\n");
            pad = in + "    ";
        }
        body.append(pad).append("#pragma unroll\n");
        body.append(pad).append("for (int i = 0; i < IPT; ++i) {\n");
        body.append(pad).append("    if (flags[i]) {\n");
        body.append(pad).append("        const ").append(kt).append(" key = ").append(key).append(";\n");
        body.append(pad).append("        tessera::q::CuckooInsert<").append(fns).append(">(build_keys, key, ").append(empty)
                .append(", build_log2, err);\n");
        body.append(pad).append("    }\n");
        body.append(pad).append("}\n");
        if (!payload) {
            return;
        }
        body.append(in).append("} else {\n");
        body.append(pad).append("// pass 1: the keys sit still; each row's payload goes to the slot of its key\n");
        for (Expr e : b.payload()) {
            load(e, pad);
        }
        body.append(pad).append("#pragma unroll\n");
        body.append(pad).append("for (int i = 0; i < IPT; ++i) {\n");
        body.append(pad).append("    if (flags[i]) {\n");
        body.append(pad).append("        const ").append(kt).append(" key = ").append(key).append(";\n");
        body.append(pad).append("        const long long slot = tessera::q::CuckooFind<").append(fns).append(", ").append(kt)
                .append(">(build_keys, key, ").append(empty).append(", build_log2);\n");
        body.append(pad).append("        if (slot >= 0) {\n");
        buildPayload(b, t, pad + "            ");
        body.append(pad).append("        }\n");
        body.append(pad).append("    }\n");
        body.append(pad).append("}\n");
        body.append(in).append("}\n");
    }

    private void aggregate(List<AggCall> calls, Sink.GroupAggregate ga) {
        String in = "        ";
        List<SinkLayout.Agg> aggs = new ArrayList<>();
        for (AggCall a : calls) {
            CType vt = switch (a.function()) {
                case COUNT_STAR, COUNT -> null;
                case SUM, SUM0, AVG, MIN, MAX -> {
                    CType t = CType.stored(a.arg().type());
                    if (t == CType.BOOL) {
                        throw new GpuUnsupported(a.function() + " of a BOOLEAN");
                    }
                    yield t == CType.DOUBLE ? CType.DOUBLE : CType.LONG;
                }
                default -> throw new GpuUnsupported(a.toString());
            };
            aggs.add(new SinkLayout.Agg(a.function(), vt, a.filter() != null));
        }
        String mode = ga == null ? "single" : g.get(CudaVariantSpace.AGGREGATION);
        body.append(in).append("// ").append(comment(ga == null ? "AGGREGATE " + calls : "GROUP_AGGREGATE by " + ga.keys()
                + " " + calls + " (" + describe(mode) + ")")).append('\n');
        load(sinkExprs(), in);
        params.add(new KernelParam(KernelParam.Kind.GROUP_ROWS, -1, "g_rows", "unsigned long long* __restrict__"));
        for (int a = 0; a < aggs.size(); a++) {
            SinkLayout.Agg s = aggs.get(a);
            if (s.valueType() != null) {
                params.add(new KernelParam(KernelParam.Kind.AGG_VALUE, a, "g_v" + a, s.valueType().c + "* __restrict__"));
            }
            if (s.ownCount()) {
                params.add(new KernelParam(KernelParam.Kind.AGG_COUNT, a, "g_n" + a, "unsigned long long* __restrict__"));
            }
        }
        if (ga == null) {
            single(calls, aggs);
            sink = new SinkLayout.Aggregate(mode, aggs, new long[0], new long[0], 1, 0);
            return;
        }
        // the model's result table in device memory, whichever table the genome keeps
        model.groupUpdates();
        int nk = ga.keys().size();
        long[] mins = new long[nk];
        long[] sizes = new long[nk];
        List<CValue> keys = new ArrayList<>();
        for (Expr e : ga.keys()) {
            CValue k = gen.gen(e);
            if (k.type() == CType.DOUBLE) {
                throw new GpuUnsupported("a DOUBLE group key");
            }
            keys.add(k);
        }
        if (mode.equals("shared")) {
            params.add(new KernelParam(KernelParam.Kind.GROUP_KEYS, -1, "g_keys", "long long* __restrict__"));
            params.add(new KernelParam(KernelParam.Kind.GROUP_STATE, -1, "g_state", "int* __restrict__"));
            params.add(new KernelParam(KernelParam.Kind.GROUP_LOG2, -1, "g_log2", "const int"));
            String hash = "murmur".equals(g.get(CudaVariantSpace.HASH)) ? "tessera::HashMurmur" : "tessera::HashMultiplyShift";
            body.append(in).append("#pragma unroll\n");
            body.append(in).append("for (int i = 0; i < IPT; ++i) {\n");
            body.append(in).append("    if (flags[i]) {\n");
            body.append(in).append("        const long long key[").append(nk).append("] = {");
            for (int k = 0; k < nk; k++) {
                body.append(k == 0 ? "" : ", ").append(asKeyWord(keys.get(k)));
            }
            body.append("};\n");
            body.append(in).append("        const long long grp = tessera::q::GroupFind<").append(nk).append(", ").append(hash)
                    .append(">(key, g_keys, g_state, g_log2, err);\n");
            body.append(in).append("        if (grp >= 0) {\n");
            updates(calls, aggs, in + "            ", "grp", "g_rows", "g_v", "g_n");
            body.append(in).append("        }\n");
            body.append(in).append("    }\n");
            body.append(in).append("}\n");
            sink = new SinkLayout.Aggregate(mode, aggs, mins, sizes, 0, nk);
            return;
        }
        long slots = 1;
        for (int k = 0; k < nk; k++) {
            KeyRange r = ga.ranges().get(k);
            if (r == null) {
                throw new GpuUnsupported("a dense group table without the range of key " + ga.keyNames().get(k));
            }
            mins[k] = r.min();
            sizes[k] = r.size(); // keys on the GPU are never NULL: no NULL slot
            slots = Math.multiplyExact(slots, sizes[k]);
        }
        StringBuilder idx = new StringBuilder();
        StringBuilder inRange = new StringBuilder();
        // 32-bit keys over 32-bit ranges: the offsets and the slot in 32-bit arithmetic, as the probes compute theirs
        boolean narrowIndex = slots <= Integer.MAX_VALUE;
        for (int k = 0; k < nk; k++) {
            narrowIndex &= keys.get(k).type() == CType.INT && intRange(mins[k], sizes[k]);
        }
        long stride = 1;
        for (int k = nk - 1; k >= 0; k--) {
            if (narrowIndex) {
                String off = "((unsigned int)" + keys.get(k).v() + " - (unsigned int)" + CudaExprGen.longLiteral(mins[k]) + ")";
                inRange.append(inRange.length() == 0 ? "" : " && ").append(off).append(" < ").append(sizes[k]).append("u");
                idx.insert(0, (k == 0 ? "" : " + ") + (stride == 1 ? off : off + " * " + stride + "u"));
            } else {
                String off = "(" + asKeyWord(keys.get(k)) + " - " + CudaExprGen.longLiteral(mins[k]) + ")";
                inRange.append(inRange.length() == 0 ? "" : " && ").append("(unsigned long long)").append(off).append(" < ")
                        .append(sizes[k]).append("ull");
                idx.insert(0, (k == 0 ? "" : " + ") + (stride == 1 ? off : off + " * " + stride + "LL"));
            }
            stride *= sizes[k];
        }
        boolean local = mode.equals("wglocal");
        boolean independent = mode.equals("independent");
        if (local) {
            prologue.append("    // WORKGROUPLOCAL: this block's groups in dynamic shared memory, merged into the global arrays at its end\n");
            long words = 0;
            for (int a = 0; a < aggs.size(); a++) {
                SinkLayout.Agg s = aggs.get(a);
                if (s.valueType() != null) {
                    prologue.append("    ").append(s.valueType().c).append("* const s_v").append(a).append(" = reinterpret_cast<")
                            .append(s.valueType().c).append("*>(tessera_smem + ").append(words).append(");\n");
                    words += slots;
                }
                if (s.ownCount()) {
                    prologue.append("    unsigned long long* const s_n").append(a).append(" = tessera_smem + ").append(words).append(";\n");
                    words += slots;
                }
            }
            // row counts last: 32 bits when no block can count more (native shared atomics; 64-bit ones loop)
            boolean narrow = CudaVariantSpace.narrowRowCounts(p);
            String countType = narrow ? "unsigned int" : "unsigned long long";
            prologue.append("    ").append(countType).append("* const s_rows = reinterpret_cast<").append(countType)
                    .append("*>(tessera_smem + ").append(words).append(");\n");
            words += narrow ? (slots + 1) / 2 : slots;
            sinkSharedWords = words;
            initTable(aggs, "s", slots, "threadIdx.x", "TPB");
            prologue.append("    __syncthreads();\n");
        } else if (independent) {
            // INDEPENDENT: every thread its own table of the few groups, in registers or local memory
            prologue.append("    // INDEPENDENT: this thread's groups, merged into the global arrays at the kernel's end\n");
            prologue.append("    unsigned long long t_rows[").append(slots).append("];\n");
            for (int a = 0; a < aggs.size(); a++) {
                SinkLayout.Agg s = aggs.get(a);
                if (s.valueType() != null) {
                    prologue.append("    ").append(s.valueType().c).append(" t_v").append(a).append('[').append(slots).append("];\n");
                }
                if (s.ownCount()) {
                    prologue.append("    unsigned long long t_n").append(a).append('[').append(slots).append("];\n");
                }
            }
            initTable(aggs, "t", slots, "0", "1");
        }
        body.append(in).append("#pragma unroll\n");
        body.append(in).append("for (int i = 0; i < IPT; ++i) {\n");
        body.append(in).append("    if (flags[i]) {\n");
        body.append(in).append("        if (!(").append(inRange).append(")) {\n");
        body.append(in).append("            err |= TESSERA_ERR_TABLE_FULL;  // a group key outside the range the statistics gave\n");
        body.append(in).append("        } else {\n");
        body.append(in).append(narrowIndex ? "            const int grp = (int)(" + idx + ");\n"
                : "            const long long grp = " + idx + ";\n");
        String t = local ? "s" : independent ? "t" : "g";
        if (independent) {
            plainUpdates(calls, aggs, in + "            ", "grp");
        } else {
            updates(calls, aggs, in + "            ", "grp", t + "_rows", t + "_v", t + "_n");
        }
        body.append(in).append("        }\n");
        body.append(in).append("    }\n");
        body.append(in).append("}\n");
        if (local) {
            epilogue.append("    __syncthreads();\n");
            mergeTable(aggs, "s", slots, "threadIdx.x", "TPB");
        } else if (independent) {
            mergeTable(aggs, "t", slots, "0", "1");
        }
        sink = new SinkLayout.Aggregate(mode, aggs, mins, sizes, slots, nk);
    }

    /** Sets every slot of a block's or thread's table ({@code prefix}_rows, _v, _n) to its identity. */
    private void initTable(List<SinkLayout.Agg> aggs, String prefix, long slots, String first, String step) {
        prologue.append("    for (int s = ").append(first).append("; s < ").append(slots).append("; s += ").append(step).append(") {\n");
        prologue.append("        ").append(prefix).append("_rows[s] = 0;\n");
        for (int a = 0; a < aggs.size(); a++) {
            SinkLayout.Agg s = aggs.get(a);
            if (s.valueType() != null) {
                prologue.append("        ").append(prefix).append("_v").append(a).append("[s] = ").append(identity(s)).append(";\n");
            }
            if (s.ownCount()) {
                prologue.append("        ").append(prefix).append("_n").append(a).append("[s] = 0;\n");
            }
        }
        prologue.append("    }\n");
    }

    /** Merges the non-empty slots of a block's or thread's table into the global arrays with atomics. */
    private void mergeTable(List<SinkLayout.Agg> aggs, String prefix, long slots, String first, String step) {
        epilogue.append("    for (int s = ").append(first).append("; s < ").append(slots).append("; s += ").append(step).append(") {\n");
        epilogue.append("        if (").append(prefix).append("_rows[s] == 0) continue;\n");
        epilogue.append("        tessera::q::AtomicAddCount(&g_rows[s], ").append(prefix).append("_rows[s]);\n");
        for (int a = 0; a < aggs.size(); a++) {
            SinkLayout.Agg s = aggs.get(a);
            if (s.valueType() != null) {
                epilogue.append("        ").append(merge(s, "&g_v" + a + "[s]", prefix + "_v" + a + "[s]")).append('\n');
            }
            if (s.ownCount()) {
                epilogue.append("        tessera::q::AtomicAddCount(&g_n").append(a).append("[s], ").append(prefix).append("_n")
                        .append(a).append("[s]);\n");
            }
        }
        epilogue.append("    }\n");
    }

    /** Per-row updates of group {@code grp} of the thread's own table: plain (checked) arithmetic, no atomics. */
    private void plainUpdates(List<AggCall> calls, List<SinkLayout.Agg> aggs, String in, String grp) {
        body.append(in).append("++t_rows[").append(grp).append("];\n");
        for (int a = 0; a < aggs.size(); a++) {
            AggCall call = calls.get(a);
            SinkLayout.Agg s = aggs.get(a);
            String pad = in;
            if (call.filter() != null) {
                body.append(in).append("if (").append(gen.condition(call.filter())).append(") {\n");
                pad = in + "    ";
                body.append(pad).append("++t_n").append(a).append('[').append(grp).append("];\n");
            }
            if (s.valueType() != null) {
                body.append(pad).append(accumulate(s, "t_v" + a + "[" + grp + "]", value(call, s))).append('\n');
            }
            if (call.filter() != null) {
                body.append(in).append("}\n");
            }
        }
    }

    /** {@code acc} combined with {@code x} in a thread's own accumulator: min, max, or a (checked) sum. */
    private static String accumulate(SinkLayout.Agg s, String acc, String x) {
        return switch (s.function()) {
            case MIN -> acc + " = " + x + " < " + acc + " ? " + x + " : " + acc + ";";
            case MAX -> acc + " = " + x + " > " + acc + " ? " + x + " : " + acc + ";";
            default -> s.valueType() == CType.DOUBLE ? acc + " += " + x + ";"
                    : acc + " = tessera::q::AddChecked(" + acc + ", " + x + ", err);";
        };
    }

    private static String describe(String mode) {
        return switch (mode) {
            case "dense" -> "dense global array, atomics";
            case "wglocal" -> "dense array in shared memory per block";
            case "independent" -> "dense array per thread";
            case "shared" -> "global hash table, atomics";
            default -> mode;
        };
    }

    private static String asKeyWord(CValue k) {
        if (k.type() == CType.BOOL) {
            return "(" + k.v() + " ? 1LL : 0LL)";
        }
        return k.type() == CType.LONG ? k.v() : "(long long)" + k.v();
    }

    private static String identity(SinkLayout.Agg s) {
        boolean dbl = s.valueType() == CType.DOUBLE;
        return switch (s.function()) {
            case MIN -> dbl ? "__longlong_as_double(0x7ff0000000000000LL)" : "9223372036854775807LL";
            case MAX -> dbl ? "__longlong_as_double((long long)0xfff0000000000000ULL)" : "(-9223372036854775807LL - 1)";
            default -> dbl ? "0.0" : "0LL";
        };
    }

    /** Combines a partial value into a global one with the aggregate's atomic. */
    private static String merge(SinkLayout.Agg s, String target, String value) {
        boolean dbl = s.valueType() == CType.DOUBLE;
        return switch (s.function()) {
            case MIN -> (dbl ? "tessera::q::AtomicMinDouble(" : "tessera::q::AtomicMin64(") + target + ", " + value + ");";
            case MAX -> (dbl ? "tessera::q::AtomicMaxDouble(" : "tessera::q::AtomicMax64(") + target + ", " + value + ");";
            default -> dbl ? "tessera::q::AtomicAddDouble(" + target + ", " + value + ");"
                    : "tessera::q::AtomicAddChecked(" + target + ", " + value + ", err);";
        };
    }

    /** Per-row updates of group {@code grp}: its row count, and each aggregate's value (and count, when filtered). */
    private void updates(List<AggCall> calls, List<SinkLayout.Agg> aggs, String in, String grp, String rows, String v, String n) {
        body.append(in).append("tessera::q::AtomicAddCount(&").append(rows).append('[').append(grp).append("], 1u);\n");
        for (int a = 0; a < aggs.size(); a++) {
            AggCall call = calls.get(a);
            SinkLayout.Agg s = aggs.get(a);
            String guard = call.filter() == null ? null : gen.condition(call.filter());
            String pad = in;
            if (guard != null) {
                body.append(in).append("if (").append(guard).append(") {\n");
                pad = in + "    ";
                body.append(pad).append("tessera::q::AtomicAddCount(&").append(n).append(a).append('[').append(grp).append("], 1ull);\n");
            }
            if (s.valueType() != null) {
                String target = "&" + v + a + "[" + grp + "]";
                CValue arg = call.arg() == null ? null : gen.gen(call.arg());
                if (v.equals("s_v") && arg != null && arg.type() == CType.INT && s.valueType() == CType.LONG
                        && s.function() != AggFunction.MIN && s.function() != AggFunction.MAX
                        && CudaVariantSpace.narrowRowCounts(p)) {
                    // a block's sum of 32-bit values in shared memory: two native 32-bit atomics at most, where a
                    // 64-bit one is a compare-and-swap loop; fewer than 2^31 rows of 32 bits cannot overflow 64 bits
                    body.append(pad).append("tessera::q::SharedAddInt(").append(target).append(", ").append(arg.v()).append(");\n");
                } else {
                    body.append(pad).append(merge(s, target, value(call, s))).append('\n');
                }
            }
            if (guard != null) {
                body.append(in).append("}\n");
            }
        }
    }

    private String value(AggCall call, SinkLayout.Agg s) {
        CValue x = gen.gen(call.arg());
        return s.valueType() == CType.DOUBLE ? "(double)" + x.v() : "(long long)" + x.v();
    }

    /** AGGREGATE without grouping: per-thread accumulators, then one atomic per warp at the kernel's end. */
    private void single(List<AggCall> calls, List<SinkLayout.Agg> aggs) {
        String in = "        ";
        prologue.append("    unsigned long long acc_rows = 0;\n");
        for (int a = 0; a < aggs.size(); a++) {
            SinkLayout.Agg s = aggs.get(a);
            if (s.valueType() != null) {
                prologue.append("    ").append(s.valueType().c).append(" acc_v").append(a).append(" = ").append(identity(s)).append(";\n");
            }
            if (s.ownCount()) {
                prologue.append("    unsigned long long acc_n").append(a).append(" = 0;\n");
            }
        }
        body.append(in).append("#pragma unroll\n");
        body.append(in).append("for (int i = 0; i < IPT; ++i) {\n");
        body.append(in).append("    if (flags[i]) {\n");
        body.append(in).append("        ++acc_rows;\n");
        for (int a = 0; a < aggs.size(); a++) {
            AggCall call = calls.get(a);
            SinkLayout.Agg s = aggs.get(a);
            String pad = in + "        ";
            if (call.filter() != null) {
                body.append(pad).append("if (").append(gen.condition(call.filter())).append(") {\n");
                pad += "    ";
                body.append(pad).append("++acc_n").append(a).append(";\n");
            }
            if (s.valueType() != null) {
                String x = value(call, s);
                body.append(pad).append(accumulate(s, "acc_v" + a, x)).append('\n');
            }
            if (call.filter() != null) {
                body.append(in).append("        }\n");
            }
        }
        body.append(in).append("    }\n");
        body.append(in).append("}\n");
        epilogue.append("    // one atomic per warp and aggregate\n");
        epilogue.append("    acc_rows = tessera::q::WarpSum(acc_rows);\n");
        for (int a = 0; a < aggs.size(); a++) {
            SinkLayout.Agg s = aggs.get(a);
            if (s.valueType() != null) {
                String acc = "acc_v" + a;
                String red = switch (s.function()) {
                    case MIN -> "tessera::q::WarpMin(" + acc + ")";
                    case MAX -> "tessera::q::WarpMax(" + acc + ")";
                    default -> s.valueType() == CType.DOUBLE ? "tessera::q::WarpSum(" + acc + ")"
                            : "tessera::q::WarpSumChecked(" + acc + ", err)";
                };
                epilogue.append("    ").append(acc).append(" = ").append(red).append(";\n");
            }
            if (s.ownCount()) {
                epilogue.append("    acc_n").append(a).append(" = tessera::q::WarpSum(acc_n").append(a).append(");\n");
            }
        }
        epilogue.append("    if ((threadIdx.x & 31) == 0 && acc_rows > 0) {\n");
        epilogue.append("        tessera::q::AtomicAddCount(g_rows, acc_rows);\n");
        for (int a = 0; a < aggs.size(); a++) {
            SinkLayout.Agg s = aggs.get(a);
            if (s.valueType() != null) {
                epilogue.append("        ").append(merge(s, "g_v" + a, "acc_v" + a)).append('\n');
            }
            if (s.ownCount()) {
                epilogue.append("        tessera::q::AtomicAddCount(g_n").append(a).append(", acc_n").append(a).append(");\n");
            }
        }
        epilogue.append("    }\n");
    }

    /**
     * MATERIALIZE / SORT, as the genome's {@code mat} says (Crystal's chapter 3 and Hawk's parallelization
     * strategies):
     * <ul>
     * <li>tile-atomic: one launch; one atomic per tile reserves the tile's output rows, a block scan gives each row
     * its place. The tiles' order in the output follows the atomics' order, which changes from run to run.</li>
     * <li>twopass: pass 0 runs the operations and writes each tile's count of selected rows; the executor turns the
     * counts into their exclusive prefix sums; pass 1 runs the operations again and writes each tile's rows from
     * its offset on, placed by a block scan. No atomics, and the output order is the same on every run (tile by
     * tile; within a tile, thread by thread).</li>
     * <li>bitmap: pass 0 runs the operations and writes the selection as a bitmap (bit i * TPB + t of a tile for
     * item i of thread t, one 32-bit word per warp and item from __ballot_sync) and each tile's count; pass 1 skips
     * the tiles without rows, takes the flags from the bitmap instead of evaluating the filters and probes again,
     * probes again only where the outputs read a payload, and writes the rows as twopass does (same order).</li>
     * </ul>
     * Tile numbers are base / TILE, so a persistent grid (a block looping over tiles) counts per tile too.
     */
    private void materialize(List<Expr> outputs) {
        String in = "        ";
        String what = switch (mat) {
            case SinkLayout.Rows.TWO_PASS -> "two passes: tile counts, their prefix sum, then the rows at their tile's offset";
            case SinkLayout.Rows.BITMAP -> "two passes: selection bitmap and tile counts, their prefix sum, then the rows";
            default -> "tile atomic + block scan";
        };
        body.append(in).append("// MATERIALIZE ").append(comment(outputs)).append(" (").append(what).append(")\n");
        List<CType> types = new ArrayList<>();
        if (mat.equals(SinkLayout.Rows.TILE_ATOMIC)) {
            for (Expr e : outputs) {
                load(e, in);
            }
        }
        for (int c = 0; c < outputs.size(); c++) {
            CType t = CType.stored(outputs.get(c).type());
            types.add(t);
            model.written(t.bytes);
            params.add(new KernelParam(KernelParam.Kind.OUT_COLUMN, c, "out" + c, t.memory() + "* __restrict__"));
        }
        sink = new SinkLayout.Rows(types, mat);
        if (mat.equals(SinkLayout.Rows.TILE_ATOMIC)) {
            params.add(new KernelParam(KernelParam.Kind.OUT_CURSOR, -1, "out_cursor", "unsigned long long* __restrict__"));
            writeRows(outputs, types, in, "BlockReserve<TPB>(out_cursor, selected)");
            return;
        }
        params.add(new KernelParam(KernelParam.Kind.PASS, -1, "pass", "const int"));
        params.add(new KernelParam(KernelParam.Kind.TILE_ROWS, -1, "tile_rows", "unsigned long long* __restrict__"));
        if (mat.equals(SinkLayout.Rows.TWO_PASS)) {
            body.append(in).append("if (pass == 0) {\n");
            countTile(in + "    ", null);
            body.append(in).append("} else {\n");
            body.append(in).append("    // pass 1: the tile's rows from its offset on (the exclusive prefix sum of the counts)\n");
            writeRows(outputs, types, in + "    ", "tile_rows[base / TILE]");
            body.append(in).append("}\n");
            return;
        }
        // bitmap: pass 0 ends here; pass 1 is a tile body of its own
        params.add(new KernelParam(KernelParam.Kind.SEL_BITS, -1, "sel_bits", "unsigned int* __restrict__"));
        countTile(in, "sel_bits");
        firstPass = body;
        body = new StringBuilder();
        loadedColumns.clear();
        loadedPayload.clear();
        narrowed = true;
        body.append(in).append("// pass 1: only the tiles with rows; the selection from the bitmap\n");
        body.append(in).append("const unsigned long long first = tile_rows[base / TILE];\n");
        body.append(in).append("if (tile_rows[base / TILE + 1] == first) return;  // the same for the whole block\n");
        body.append(in).append("const long long word = base / 32 + threadIdx.x / 32;\n");
        body.append(in).append("#pragma unroll\n");
        body.append(in).append("for (int i = 0; i < IPT; ++i) {\n");
        body.append(in).append("    flags[i] = (int)((sel_bits[word + i * (TPB / 32)] >> (threadIdx.x & 31)) & 1u);\n");
        body.append(in).append("}\n");
        // the probes whose payload the outputs read, directly or through the key of another such probe
        List<Slot> needed = new ArrayList<>();
        for (Expr e : outputs) {
            Expr.slots(e, needed);
        }
        List<Operation.Probe> again = new ArrayList<>();
        for (int k = operations.size() - 1; k >= 0; k--) {
            if (operations.get(k) instanceof Operation.Probe pr && pr.kind() == JoinKind.INNER
                    && needed.stream().anyMatch(sl -> sl.joinId() == pr.joinId())) {
                again.add(0, pr);
                pr.keys().forEach(e -> Expr.slots(e, needed));
            }
        }
        laterSlots.clear();
        laterSlots.addAll(needed);
        for (Operation.Probe pr : again) {
            probe(pr, true);
        }
        body.append(in).append("// MATERIALIZE ").append(comment(outputs)).append(" (pass 1: the rows)\n");
        writeRows(outputs, types, in, "first");
    }

    /**
     * Pass 0 of a two-pass materialization: the tile's count of selected rows to tile_rows[tile], and with
     * {@code bits} the selection bitmap.
     */
    private void countTile(String in, String bits) {
        body.append(in).append("// pass 0: the tile's count of selected rows").append(bits == null ? "" : ", and the selection "
                + "as a bitmap: bit i * TPB + t of the tile for item i of thread t, a word per warp and item").append('\n');
        if (bits != null) {
            body.append(in).append("const long long word = base / 32 + threadIdx.x / 32;\n");
        }
        body.append(in).append("int tile_count = 0;\n");
        body.append(in).append("#pragma unroll\n");
        body.append(in).append("for (int i = 0; i < IPT; ++i) {\n");
        if (bits != null) {
            body.append(in).append("    const unsigned int ballot = __ballot_sync(TESSERA_FULL_MASK, flags[i]);\n");
            body.append(in).append("    if ((threadIdx.x & 31) == 0) ").append(bits).append("[word + i * (TPB / 32)] = ballot;\n");
        }
        body.append(in).append("    tile_count += flags[i] ? 1 : 0;\n");
        body.append(in).append("}\n");
        body.append(in).append("tile_count = BlockSum<TPB>(tile_count);  // the block's sum, in thread 0\n");
        body.append(in).append("if (threadIdx.x == 0) tile_rows[base / TILE] = (unsigned long long)tile_count;\n");
    }

    /** Loads the outputs' columns, places the selected rows with a block scan from {@code first} on, writes them. */
    private void writeRows(List<Expr> outputs, List<CType> types, String in, String first) {
        for (Expr e : outputs) {
            load(e, in);
        }
        body.append(in).append("int offsets[IPT];\n");
        body.append(in).append("int selected;\n");
        body.append(in).append("BlockScanFlags<TPB, IPT>(flags, offsets, selected);\n");
        if (!first.equals("first")) {
            body.append(in).append("const unsigned long long first = ").append(first).append(";\n");
        }
        body.append(in).append("#pragma unroll\n");
        body.append(in).append("for (int i = 0; i < IPT; ++i) {\n");
        body.append(in).append("    if (flags[i]) {\n");
        body.append(in).append("        const unsigned long long row = first + (unsigned long long)offsets[i];\n");
        for (int c = 0; c < outputs.size(); c++) {
            CValue v = gen.gen(outputs.get(c));
            String val = types.get(c) == CType.BOOL ? "(unsigned char)(" + v.v() + " ? 1 : 0)" : v.v();
            body.append(in).append("        out").append(c).append("[row] = ").append(val).append(";\n");
        }
        body.append(in).append("    }\n");
        body.append(in).append("}\n");
    }

    // ---- assembly ----

    /**
     * bm=shared: each chosen bitmap copied from the join table into this block's shared memory (after the sink's
     * table), before the first tile.
     */
    private void sharedBitmapCopies(StringBuilder sb) {
        if (sharedBitmapWords.isEmpty()) {
            return;
        }
        long offset = sinkSharedWords;
        for (Map.Entry<Integer, Long> e : sharedBitmapWords.entrySet()) {
            String j = "j" + e.getKey();
            long words32 = e.getValue();
            sb.append("    // bm=shared: ").append(j).append("'s presence bitmap, ").append(words32 * 4)
                    .append(" bytes, read from shared memory by the probes\n");
            sb.append("    unsigned int* const ").append(j).append("_sbits = reinterpret_cast<unsigned int*>(tessera_smem + ")
                    .append(offset).append(");\n");
            sb.append("    for (int w = threadIdx.x; w < ").append(words32).append("; w += TPB) ").append(j)
                    .append("_sbits[w] = __ldg(&").append(j).append("_bits[w]);\n");
            offset += (words32 + 1) / 2;
        }
        sb.append("    __syncthreads();\n");
    }

    /** Appends a block of lines four spaces deeper. */
    private static void indent(StringBuilder sb, CharSequence block) {
        for (String line : block.toString().split("\n", -1)) {
            if (!line.isEmpty()) {
                sb.append("    ").append(line).append('\n');
            }
        }
    }

    /** Comment text through the one sanitizer every comment with user text in it goes through. */
    private static String comment(Object o) {
        return GeneratedSource.comment(o);
    }

    private String assemble(String name) {
        StringBuilder sb = new StringBuilder();
        sb.append("// Generated by Tessera's CUDA backend.\n");
        // the grid is chosen at launch: variants that differ only in it share one source, one compile
        sb.append("// genome: ").append(comment(g.without(CudaVariantSpace.GRID))).append('\n');
        for (String l : p.toString().split("\n")) {
            sb.append("// ").append(comment(l)).append('\n');
        }
        sb.append("// The query's constants are the parameters k0, k1, ..., bound at launch.\n");
        sb.append("#include \"").append(CudaSources.CRYSTAL_HEADER).append("\"\n");
        sb.append("#include \"").append(CudaSources.QUERY_HEADER).append("\"\n\n");
        sb.append("#define TPB ").append(g.get(CudaVariantSpace.TPB)).append('\n');
        sb.append("#define IPT ").append(g.get(CudaVariantSpace.IPT)).append('\n');
        sb.append("#define TILE (TPB * IPT)\n\n");
        boolean fullOccupancy = g.has(CudaVariantSpace.OCCUPANCY) && g.get(CudaVariantSpace.OCCUPANCY).equals("full");
        if (fullOccupancy) {
            // occ=full: registers for 2048 threads per SM (at most 32 per thread; a block of 32 threads asks for the
            // 32 blocks an SM holds at most)
            sb.append("#define MIN_BLOCKS_PER_SM (2048 / TPB < 32 ? 2048 / TPB : 32)\n\n");
        }
        sb.append("using namespace tessera;\n\n");
        sb.append("extern \"C\" __global__ void __launch_bounds__(").append(fullOccupancy ? "TPB, MIN_BLOCKS_PER_SM" : "TPB")
                .append(") ").append(name).append("(\n");
        for (int k = 0; k < params.size(); k++) {
            KernelParam kp = params.get(k);
            sb.append("        ").append(kp.cType()).append(' ').append(kp.name()).append(k + 1 < params.size() ? ",\n" : ") {\n");
        }
        sb.append("    int err = 0;\n");
        if (sharedWords() > 0) {
            // dynamic shared memory, so that more than 48 KB can be opted in to (the launch says how much)
            sb.append("    extern __shared__ __align__(16) unsigned long long tessera_smem[];\n");
        }
        sb.append(prologue);
        sharedBitmapCopies(sb);
        // the tile body is a lambda called with the constant TILE for full tiles and the row count for the tail, so
        // that the compiler drops the tail's bounds checks and the choice of arrangement from the full tiles' copy
        sb.append("    // ").append(comment(p.source())).append(": one tile of TILE rows (the last one of fewer)\n");
        sb.append("    auto tile = [&](const long long base, const int tile_size) {\n");
        sb.append("        int flags[IPT];\n");
        if (firstPass == null) {
            sb.append("        BlockInitFlags<TPB, IPT>(flags, tile_size);\n");
            sb.append(body);
        } else {
            // mat=bitmap: two tile bodies, one per pass (pass is the same in the whole grid: no divergence)
            sb.append("        if (pass == 0) {\n");
            sb.append("            BlockInitFlags<TPB, IPT>(flags, tile_size);\n");
            indent(sb, firstPass);
            sb.append("        } else {\n");
            indent(sb, body);
            sb.append("        }\n");
        }
        sb.append("    };\n");
        sb.append("    // a persistent grid loops over the tiles\n");
        sb.append("    for (long long base = (long long)blockIdx.x * TILE; base < n; base += (long long)gridDim.x * TILE) {\n");
        sb.append("        if (n - base >= TILE) {\n");
        sb.append("            tile(base, TILE);\n");
        sb.append("        } else {\n");
        sb.append("            tile(base, (int)(n - base));\n");
        sb.append("        }\n");
        sb.append("    }\n");
        sb.append(epilogue);
        sb.append("    if (err) atomicOr(error, err);\n");
        sb.append("}\n");
        return sb.toString();
    }
}

package io.tessera.variant;

import io.tessera.plan.AggCall;
import io.tessera.plan.AggFunction;
import io.tessera.plan.KeyRange;
import io.tessera.plan.Operation;
import io.tessera.plan.Pipeline;
import io.tessera.plan.QueryPlan;
import io.tessera.plan.Sink;
import io.tessera.storage.TypeKind;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The CUDA backend's variant dimensions and their constraints. A pipeline is one kernel that works tile by tile:
 * {@code tpb} threads per block, {@code ipt} items per thread, a grid of one tile per block ({@code grid=tile}) or a
 * persistent grid of k blocks per SM ({@code grid=pk}) looping over tiles; filters branched or predicated; a BUILD
 * sink's table ({@code ht}) perfect (a presence bitmap over the key range), linear probing, or cuckoo with 2, 3 or 4
 * hash functions (a probe reads that many slots; the build inserts with eviction chains, and a table with payload
 * takes a second launch that writes each key's payload once the keys stopped moving), the hashed tables with the
 * multiply-shift or murmur hash ({@code hash}); a GROUP_AGGREGATE sink's groups in a dense global array with
 * atomics, a dense array in (dynamic) shared memory per block merged at the block's end (WORKGROUPLOCAL), a dense
 * array per thread merged at the kernel's end (INDEPENDENT, for a few groups), or a global hash table with atomics
 * (SHARED); a MATERIALIZE or SORT sink's rows ({@code mat}) placed with one atomic per tile and
 * a block scan (tile-atomic, Crystal), or in two launches (Hawk's multi-pass strategy): pass 0 counts the rows of each
 * tile, a prefix sum over the counts gives each tile its offset, pass 1 writes them there, computing the tile again
 * (twopass) or taking the selection from a bitmap that pass 0 wrote and skipping the empty tiles (bitmap); both give
 * the rows in the same order on every run. The presence bitmaps of the perfect tables a pipeline probes ({@code bm})
 * are read through L1 and L2 ({@code global}) or copied into shared memory at each block's start ({@code shared}),
 * as many as fit beside the sink's shared table, smallest first: a warp's random lookups then cost bank conflicts
 * instead of L1 lines, and the copies take L1 capacity and occupancy from the rest of the kernel. A perfect
 * table's payload ({@code gather}) is fetched by the probe ({@code early}) or where it is first read ({@code late}).
 * {@code occ=full} asks the compiler for registers that let an SM hold 2048 threads.
 */
public final class CudaVariantSpace implements VariantSpace {

    public static final String BACKEND = "cuda";
    public static final String TPB = "tpb";
    public static final String IPT = "ipt";
    public static final String GRID = "grid";
    public static final String PREDICATION = "pred";
    public static final String HASH_TABLE = "ht";
    public static final String HASH = "hash";
    public static final String AGGREGATION = "agg";
    public static final String MATERIALIZATION = "mat";
    /** Order of a pipeline's probes: most selective first (estimated), or as the plan wrote them. */
    public static final String PROBE_ORDER = "order";
    /**
     * Registers: {@code free} leaves them to the compiler; {@code full} asks it (launch bounds) for few enough that an
     * SM holds 2048 threads, at most 32 per thread, spilling what does not fit. A probing kernel of 40 registers
     * in blocks of 1024 threads otherwise runs one block per SM, and half the warps that hide the probes' latency.
     */
    public static final String OCCUPANCY = "occ";
    /**
     * When a perfect table's payload is fetched: {@code early}, by the probe that finds the row; {@code late}, at the
     * first operation that reads it, for the rows that the probes and filters between kept (aggregation and build
     * sinks; the row sinks' passes split the payload their own way).
     */
    public static final String GATHER = "gather";
    /** Where a pipeline's probes read the perfect tables' presence bitmaps: global (L1/L2) or shared memory. */
    public static final String BITMAPS = "bm";

    /** Largest perfect join table, in slots. */
    public static final long MAX_PERFECT_SLOTS = 1L << 26;
    /** Largest dense aggregation array, in slots (global memory). */
    public static final long MAX_DENSE_SLOTS = 1L << 24;
    /**
     * Shared memory a WORKGROUPLOCAL table may take per block: what the A100 lets a kernel opt in to (163 KB; the
     * H100 and H200 allow 227 KB). Tables over 48 KB need the opt-in, which the launch makes.
     */
    public static final long MAX_SHARED_BYTES = 160 * 1024;
    /**
     * The largest table the default genome puts in shared memory (with blocks of 1024 threads, two per SM). Larger
     * tables cost occupancy and L1, which the scan and the probes need (measured: an 86 KB table, two blocks per
     * SM, ran q3.1 and q4.2 slower than the dense global array).
     */
    public static final long DEFAULT_SHARED_BYTES = 56 * 1024;
    /** The most shared memory per block for which the default genome reads the bitmaps from shared memory. */
    public static final long DEFAULT_SHARED_BITMAP_BYTES = 48 * 1024;
    /** Local memory an INDEPENDENT table may take per thread. */
    public static final long MAX_INDEPENDENT_BYTES = 2 * 1024;

    public static final CudaVariantSpace INSTANCE = new CudaVariantSpace();

    public static String probeTable(int joinId) {
        return HASH_TABLE + ".j" + joinId;
    }

    public static String probeHash(int joinId) {
        return HASH + ".j" + joinId;
    }

    @Override
    public String backend() {
        return BACKEND;
    }

    @Override
    public List<Dimension> dimensions(QueryPlan plan, Pipeline p) {
        List<Dimension> d = new ArrayList<>();
        switch (p.sink()) {
            case Sink.GroupAggregate ga -> d.add(Dimension.of(AGGREGATION, "dense", "wglocal", "independent", "shared"));
            case Sink.Build b -> d.add(Dimension.of(HASH_TABLE, "perfect", "linear", "cuckoo2", "cuckoo3", "cuckoo4"));
            default -> {
            }
        }
        d.add(Dimension.of(IPT, "1", "2", "4", "8", "16"));
        d.add(Dimension.of(TPB, "32", "64", "128", "256", "512", "1024"));
        d.add(Dimension.of(GRID, "tile", "p1", "p2", "p4", "p8", "p16"));
        d.add(Dimension.of(OCCUPANCY, "free", "full"));
        if (p.operations().stream().anyMatch(o -> o instanceof Operation.Filter)) {
            d.add(Dimension.of(PREDICATION, "branch", "predicated"));
        }
        if (p.sink() instanceof Sink.Build || p.sink() instanceof Sink.GroupAggregate) {
            d.add(Dimension.of(HASH, "mulshift", "murmur"));
        }
        if (probes(p) >= 2) {
            d.add(Dimension.of(PROBE_ORDER, "selectivity", "written"));
        }
        if (probes(p) >= 1) {
            d.add(Dimension.of(BITMAPS, "global", "shared"));
            if (!rowSink(p)) {
                d.add(Dimension.of(GATHER, "early", "late"));
            }
        }
        if (p.sink() instanceof Sink.Materialize || p.sink() instanceof Sink.Sort) {
            d.add(Dimension.of(MATERIALIZATION, "tile-atomic", "twopass", "bitmap"));
        }
        return d;
    }

    @Override
    public boolean valid(QueryPlan plan, Pipeline p, Genome g) {
        for (Dimension d : dimensions(plan, p)) {
            if (!g.has(d.name()) || !d.values().contains(g.get(d.name()))) {
                return false;
            }
        }
        switch (p.sink()) {
            case Sink.Build b -> {
                boolean perfect = "perfect".equals(g.get(HASH_TABLE));
                if (perfect && !perfectAllowed(b)) {
                    return false;
                }
                // the hash function means nothing to a perfect table: one variant, not two equal ones
                if (perfect && !"mulshift".equals(g.get(HASH))) {
                    return false;
                }
            }
            case Sink.GroupAggregate ga -> {
                String agg = g.get(AGGREGATION);
                if (agg.equals("dense") && denseSlots(ga) > MAX_DENSE_SLOTS) {
                    return false;
                }
                if (agg.equals("wglocal") && !fitsShared(p, ga)) {
                    return false;
                }
                if (agg.equals("independent") && tableBytes(p, ga) > MAX_INDEPENDENT_BYTES) {
                    return false;
                }
                if (!agg.equals("shared") && !"mulshift".equals(g.get(HASH))) {
                    return false;
                }
            }
            default -> {
            }
        }
        return true;
    }

    @Override
    public Genome defaultGenome(QueryPlan plan, Pipeline p) {
        Map<String, String> m = new LinkedHashMap<>();
        // measured on the H200 over SSB SF 20 (docs/PERFORMANCE.md); profiles replace it per device
        m.put(TPB, "512");
        m.put(IPT, "4");
        m.put(GRID, "p4");
        m.put(OCCUPANCY, "full");
        if (p.operations().stream().anyMatch(o -> o instanceof Operation.Filter)) {
            m.put(PREDICATION, "branch");
        }
        if (probes(p) >= 2) {
            m.put(PROBE_ORDER, "selectivity");
        }
        if (probes(p) >= 1) {
            // measured on the H200 (docs/PERFORMANCE.md, SSB SF 20): bitmaps in shared memory sped q1.1-q1.3 up by
            // 10%, where they take little; larger ones cost the L1 (and the occupancy) the probes' payload needs, and
            // q2.1, q3.1 and q4.2 ran 15-30% slower
            m.put(BITMAPS, defaultSharedBytes(p) <= DEFAULT_SHARED_BITMAP_BYTES ? "shared" : "global");
            if (!rowSink(p)) {
                m.put(GATHER, "late");
            }
        }
        switch (p.sink()) {
            case Sink.Build b -> {
                m.put(HASH_TABLE, perfectAllowed(b) ? "perfect" : "linear");
                m.put(HASH, "mulshift");
            }
            case Sink.GroupAggregate ga -> {
                long slots = denseSlots(ga);
                boolean local = tableBytes(p, ga) <= DEFAULT_SHARED_BYTES;
                m.put(AGGREGATION, local ? "wglocal" : slots <= MAX_DENSE_SLOTS ? "dense" : "shared");
                m.put(HASH, "mulshift");
                if (local) {
                    // two blocks of 1024 threads per SM keep two tables in shared memory where four blocks of 512
                    // keep four: the rest of the SM's 256 KB is the L1 that holds the probes' bitmaps and payload
                    // (H200, SSB SF 20: q3.1 from 34% to 50% of the model, q4.2 from 70% to 82%)
                    m.put(TPB, "1024");
                }
            }
            case Sink.Materialize mat -> m.put(MATERIALIZATION, "tile-atomic");
            case Sink.Sort s -> m.put(MATERIALIZATION, "tile-atomic");
            default -> {
            }
        }
        return Genome.of(BACKEND, m);
    }

    @Override
    public Genome complete(QueryPlan plan, Pipeline p, Genome g, Map<Integer, Genome> genomesByPipeline) {
        Genome out = g;
        for (Operation op : p.operations()) {
            if (op instanceof Operation.Probe probe) {
                Genome build = buildGenome(plan, probe.joinId(), genomesByPipeline);
                if (build != null) {
                    out = out.with(probeTable(probe.joinId()), build.get(HASH_TABLE)).with(probeHash(probe.joinId()), build.get(HASH));
                }
            }
        }
        return out;
    }

    /** The default genome of every pipeline of a plan, probes completed from their builds. */
    public Map<Integer, Genome> defaults(QueryPlan plan) {
        Map<Integer, Genome> free = new HashMap<>();
        for (Pipeline p : plan.pipelines()) {
            free.put(p.id(), defaultGenome(plan, p));
        }
        return completeAll(plan, free);
    }

    /** Adds the derived probe dimensions to every genome of a plan. */
    public Map<Integer, Genome> completeAll(QueryPlan plan, Map<Integer, Genome> free) {
        Map<Integer, Genome> out = new HashMap<>();
        for (Pipeline p : plan.pipelines()) {
            out.put(p.id(), complete(plan, p, free.get(p.id()), free));
        }
        return out;
    }

    /** Bytes of a perfect table's presence bitmap over {@code slots} keys, as the device holds it (32-bit words). */
    public static long bitmapBytes(long slots) {
        return (slots + 31) / 32 * 4;
    }

    /**
     * Which of a pipeline's perfect-table bitmaps (their bytes, in any order) go to shared memory under bm=shared:
     * smallest first, while they fit in {@link #MAX_SHARED_BYTES} beside the sink's {@code sinkBytes}. Returns one
     * flag per bitmap, in the order given.
     */
    public static boolean[] sharedBitmaps(List<Long> bitmapBytes, long sinkBytes) {
        Integer[] order = new Integer[bitmapBytes.size()];
        for (int i = 0; i < order.length; i++) {
            order[i] = i;
        }
        java.util.Arrays.sort(order, java.util.Comparator.comparingLong(bitmapBytes::get));
        boolean[] shared = new boolean[order.length];
        long used = sinkBytes;
        for (int i : order) {
            if (used + bitmapBytes.get(i) <= MAX_SHARED_BYTES) {
                used += bitmapBytes.get(i);
                shared[i] = true;
            }
        }
        return shared;
    }

    /**
     * Shared bytes a block of the default genome takes under bm=shared, its sink's table (agg=wglocal) included, or
     * MAX_VALUE when not every bitmap the pipeline probes would move there: one left in global memory competes for
     * the L1 that the shared copies take (SSB SF 100, q2.x: the 33 KB of supplier and date bitmaps in shared memory,
     * the 175 KB part bitmap through L1, ran 30% slower than with all three through L1).
     */
    private static long defaultSharedBytes(Pipeline p) {
        List<Long> bytes = new ArrayList<>();
        for (Operation op : p.operations()) {
            if (op instanceof Operation.Probe probe) {
                if (!perfectAllowed(probe.build())) {
                    return Long.MAX_VALUE;
                }
                bytes.add(bitmapBytes(probe.build().range().size()));
            }
        }
        long sink = p.sink() instanceof Sink.GroupAggregate ga && tableBytes(p, ga) <= DEFAULT_SHARED_BYTES
                ? sharedTableBytes(p, ga) : 0;
        boolean[] shared = sharedBitmaps(bytes, sink);
        long total = sink;
        for (int i = 0; i < shared.length; i++) {
            if (!shared[i]) {
                return Long.MAX_VALUE;
            }
            total += bytes.get(i);
        }
        return total;
    }

    private static boolean rowSink(Pipeline p) {
        return p.sink() instanceof Sink.Materialize || p.sink() instanceof Sink.Sort;
    }

    private static long probes(Pipeline p) {
        return p.operations().stream().filter(o -> o instanceof Operation.Probe).count();
    }

    private static Genome buildGenome(QueryPlan plan, int joinId, Map<Integer, Genome> genomes) {
        for (Pipeline q : plan.pipelines()) {
            if (q.sink() instanceof Sink.Build b && b.joinId() == joinId) {
                return genomes.get(q.id());
            }
        }
        return null;
    }

    /** Constraint of ht=perfect: one integer-valued key whose range is known and not too large. */
    public static boolean perfectAllowed(Sink.Build b) {
        if (b.keys().size() != 1 || b.range() == null || b.range().size() > MAX_PERFECT_SLOTS) {
            return false;
        }
        TypeKind k = b.keys().get(0).type().kind();
        return k == TypeKind.INTEGER || k == TypeKind.DATE || k == TypeKind.BIGINT;
    }

    /** Slots of a dense table over the group keys (the product of their ranges), or MAX_VALUE when unknown. */
    public static long denseSlots(Sink.GroupAggregate ga) {
        long slots = 1;
        for (int i = 0; i < ga.keys().size(); i++) {
            KeyRange r = ga.ranges().get(i);
            TypeKind k = ga.keys().get(i).type().kind();
            if (r == null || k == TypeKind.DOUBLE || k == TypeKind.DECIMAL) {
                return Long.MAX_VALUE;
            }
            slots *= r.size(); // keys on the GPU are never NULL: no NULL slot
            if (slots > MAX_DENSE_SLOTS * 16) {
                return Long.MAX_VALUE;
            }
        }
        return slots;
    }

    /** Constraint of agg=wglocal: the block's dense table fits in shared memory. */
    public static boolean fitsShared(Pipeline p, Sink.GroupAggregate ga) {
        return tableBytes(p, ga) <= MAX_SHARED_BYTES;
    }

    /**
     * Bytes of one dense table over the group keys (a block's or a thread's copy): per group a row count (32 bits
     * when the scanned table has fewer than 2^31 rows, else 64) and per aggregate a 64-bit value (none for counts)
     * and a count of its own (aggregates with a FILTER); MAX_VALUE when the keys have no dense range.
     */
    public static long tableBytes(Pipeline p, Sink.GroupAggregate ga) {
        long slots = denseSlots(ga);
        if (slots > MAX_DENSE_SLOTS) {
            return Long.MAX_VALUE;
        }
        long bytes = narrowRowCounts(p) ? 4 : 8;
        for (AggCall a : ga.aggs()) {
            boolean counts = a.function() == AggFunction.COUNT_STAR || a.function() == AggFunction.COUNT;
            bytes += (counts ? 0 : 8) + (a.filter() != null ? 8 : 0);
        }
        return slots * bytes;
    }

    /** Shared bytes a block's table takes under agg=wglocal: {@link #tableBytes} in whole 8-byte words. */
    public static long sharedTableBytes(Pipeline p, Sink.GroupAggregate ga) {
        return (tableBytes(p, ga) + 7) / 8 * 8;
    }

    /**
     * Whether a block's row counts fit in 32 bits: a block never sees more rows than the table has. 32-bit shared
     * atomics are native, 64-bit ones compare-and-swap loops.
     */
    public static boolean narrowRowCounts(Pipeline p) {
        return p.source() instanceof io.tessera.plan.Source.TableScan ts && ts.table().rowCount() < Integer.MAX_VALUE;
    }
}

package io.tessera.variant;

import io.tessera.plan.AggCall;
import io.tessera.plan.AggFunction;
import io.tessera.plan.Expr;
import io.tessera.plan.KeyRange;
import io.tessera.plan.Operation;
import io.tessera.plan.Pipeline;
import io.tessera.plan.QueryPlan;
import io.tessera.plan.Sink;
import io.tessera.plan.Source;
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
 * takes a second launch that writes each key's payload once the keys stopped moving), or the build's keys sorted on
 * the device after the build, each probe a search of them for the range of its key (the sorted-search join:
 * {@code sorted-binary}, a binary search per lookup, or {@code sorted-pary}, a p-ary search of a group of lanes
 * per lookup over an index of cache lines), the hashed tables with the
 * multiply-shift or murmur hash ({@code hash}); a GROUP_AGGREGATE sink's groups in a dense global array with
 * atomics, a dense array in (dynamic) shared memory per block merged at the block's end (WORKGROUPLOCAL), a dense
 * array per thread merged at the kernel's end (INDEPENDENT, for a few groups), or a global hash table with atomics
 * (SHARED); a MATERIALIZE or SORT sink's rows ({@code mat}) placed with one atomic per tile and
 * a block scan (tile-atomic, Crystal), or in two launches (Hawk's multi-pass strategy): pass 0 counts the rows of each
 * tile, a prefix sum over the counts gives each tile its offset, pass 1 writes them there, computing the tile again
 * (twopass) or taking the selection from a bitmap that pass 0 wrote and skipping the empty tiles (bitmap); both give
 * the rows in the same order on every run. The presence bitmaps of the perfect tables a pipeline probes ({@code bm})
 * are read through L1 and L2 ({@code global}) or copied into shared memory at each block's start ({@code shared}),
 * as many as fit beside the sink's shared table, smallest first, and under occ=full no more than lets 2048 threads
 * stay on an SM: a warp's random lookups then cost bank conflicts instead of L1 lines, and the copies take L1
 * capacity from the rest of the kernel (launches ask the driver for no larger a shared carve-out than the resident
 * blocks take, so that the rest stays L1). A perfect
 * table's payload ({@code gather}) is fetched by the probe ({@code early}) or where it is first read ({@code late}).
 * Perfect tables are probed under a branch per row, predicated, or either as the estimated share of rows reaching
 * the last of them suggests ({@code ppred}).
 * A join table's integer payload columns of small known range are stored as they are ({@code pay=wide}) or as one- or
 * two-byte offsets from their minimum ({@code pay=narrow}); the probes read what their build wrote.
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
    /** The {@link #HASH_TABLE} values of the sorted tables: the build's keys sorted, each probe a binary search. */
    public static final String SORTED_BINARY = "sorted-binary";
    /** The other sorted table: each probe a p-ary search over an index of cache lines (a group of lanes a lookup). */
    public static final String SORTED_PARY = "sorted-pary";
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
    /**
     * How a pipeline probes its perfect tables: {@code branch}, under a branch per row, so that rows no longer selected
     * skip the probe (a warp skips it when none of its rows is selected); {@code predicated}, for every row without a
     * branch, the bitmap word and the payload read with predicated loads for the selected rows only: a few
     * instructions per row whatever the selection, where the branched probe costs several times that in every warp
     * with one selected row; {@code estimate}, predicated when an estimated {@link #PREDICATED_PROBE_SHARE} of the rows
     * or more reach the pipeline's last perfect-table probe, else branched.
     */
    public static final String PROBE_PREDICATION = "ppred";
    /**
     * Under ppred=estimate, the estimated share of the scanned rows reaching a pipeline's last perfect-table probe
     * from which its probes are predicated. Measured on the H200 (SSB SF 20 and 100, the whole pipeline predicated
     * against branched): faster where that share is 3.7% or more (q1.1-q1.3 by 5-7%, q3.1 by 4-5%), slower where it
     * is 1.1% or less (q2.1-q2.3, q3.2-q3.4, q4.2, q4.3 by 1-30%), within 3% either way at 1.6% (q4.1). A probe
     * reached by few rows is skipped by most warps when branched, where a predicated one costs every warp.
     */
    public static final double PREDICATED_PROBE_SHARE = 1.0 / 40;
    /** Where a pipeline's probes read the perfect tables' presence bitmaps: global (L1/L2) or shared memory. */
    public static final String BITMAPS = "bm";
    /**
     * How a join table stores its payload columns: {@code wide}, as their type; {@code narrow}, each integer column
     * whose known range spans at most 2^16 values as its offset from the range's minimum in one or two bytes, so
     * that the arrays the probes read at random take a half to an eighth of the cache.
     */
    public static final String PAYLOAD = "pay";
    /**
     * How the GPU cuts an ORDER BY ... LIMIT of a relation on the device (a GPU aggregation's groups) to its LIMIT:
     * {@code bitonic}, the bitonic top-k of the Crystal thesis where one key word orders the rows; {@code sort}, the
     * whole sort and its first rows. For a LIMIT (offset plus fetch) of at most {@link #MAX_TOP_K} rows.
     */
    public static final String TOP_K = "topk";
    /** The largest LIMIT the bitonic top-k takes (backend.cuda.SortMethod.MAX_TOP_K, the same number). */
    public static final int MAX_TOP_K = 1024;
    /** The most values a payload column narrowed to two bytes can hold (one byte: 256). */
    public static final long NARROW_PAYLOAD_VALUES = 1L << 16;

    /** Largest perfect join table, in slots. */
    public static final long MAX_PERFECT_SLOTS = 1L << 26;
    /** Largest dense aggregation array, in slots (global memory). */
    public static final long MAX_DENSE_SLOTS = 1L << 28;
    /** Largest dense aggregation array, in bytes: its slots are cleared and read back whole in every run. */
    public static final long MAX_DENSE_BYTES = 4L << 30;
    /** Largest dense aggregation array the default genome takes whatever its groups' estimate (the SSB's). */
    public static final long DEFAULT_DENSE_SLOTS = 1L << 24;
    /**
     * Above {@link #DEFAULT_DENSE_SLOTS}, the most slots per estimated group for which the default genome takes a
     * dense array: a key range filled this densely is cheaper to clear and scan than a hash table's random atomics are
     * to probe (TPC-H Q18 at SF 10 on the H200: l_orderkey's 60 M slots for 15 M groups, kernel 2.3 ms against
     * 25.8 ms in a hash table; lineitem comes in order-key order, so the dense updates are near one another too).
     */
    public static final long DENSE_SLOTS_PER_GROUP = 16;
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

    /**
     * The most slots an agg=independent table keeps in registers (a row's update visits each slot with a constant
     * index); a larger one is indexed by the key in local memory.
     */
    public static final long REGISTER_TABLE_SLOTS = 16;

    /**
     * The largest group table the default genome keeps in each thread's registers (agg=independent, blocks of 128
     * threads without the full-occupancy register cap): 64 words, about 128 of a thread's 255 registers. H200, TPC-H
     * SF 10 Q1 (6 slots, 360 bytes): 1.30 ms of kernel against 12.7 under agg=wglocal's shared-memory atomics on
     * four hot slots (docs/PERFORMANCE.md).
     */
    public static final long REGISTER_TABLE_BYTES = 512;
    /**
     * The most registers the default genome lets gather=late spend on keys held until the payload is fetched (one
     * per item per table with payload, four items per thread). Beyond, the default fetches early: with three tables
     * the late kernel spilled under occ=full's 32 registers, and ran slower (H200, SSB SF 20: q3.1 0.865 ms late
     * against 0.736 early, q4.3 0.583 against 0.521; with two, late won: q2.1 0.819 against 0.921).
     */
    public static final int LATE_GATHER_KEY_REGISTERS = 8;
    /** Shared memory of one SM on the H100 and H200, {@link #SHARED_RESERVED_PER_BLOCK} of it per resident block. */
    public static final long SHARED_PER_SM = 228 * 1024;
    /** Shared memory the system reserves for each resident block (H100, H200). */
    public static final long SHARED_RESERVED_PER_BLOCK = 1024;
    /** L1 and shared memory of one SM together (H100, H200): the L1 is what the shared memory leaves. */
    public static final long L1_AND_SHARED_PER_SM = 256 * 1024;
    /** L1 the column loads and the late payload gathers want for themselves, besides the bitmaps read through it. */
    public static final long L1_STREAMING_BYTES = 32 * 1024;
    /** Local memory an INDEPENDENT table may take per thread. */
    public static final long MAX_INDEPENDENT_BYTES = 2 * 1024;

    public static final CudaVariantSpace INSTANCE = new CudaVariantSpace();

    public static String probeTable(int joinId) {
        return HASH_TABLE + ".j" + joinId;
    }

    public static String probeHash(int joinId) {
        return HASH + ".j" + joinId;
    }

    public static String probePayload(int joinId) {
        return PAYLOAD + ".j" + joinId;
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
            case Sink.Build b -> {
                d.add(Dimension.of(HASH_TABLE, "perfect", "linear", "cuckoo2", "cuckoo3", "cuckoo4", SORTED_BINARY,
                        SORTED_PARY));
                if (narrowablePayload(b)) {
                    d.add(Dimension.of(PAYLOAD, "wide", "narrow"));
                }
            }
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
        if (probesPerfectTable(p)) {
            d.add(Dimension.of(PROBE_PREDICATION, "branch", "predicated", "estimate"));
        }
        if (probes(p) >= 1) {
            d.add(Dimension.of(BITMAPS, "global", "shared"));
            if (!rowSink(p)) {
                d.add(Dimension.of(GATHER, "early", "late"));
            }
        }
        if (rowSink(p)) {
            d.add(Dimension.of(MATERIALIZATION, "tile-atomic", "twopass", "bitmap"));
        }
        if (cutsRelation(p)) {
            d.add(Dimension.of(TOP_K, "bitonic", "sort"));
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
                boolean sorted = sortedTable(g.get(HASH_TABLE));
                if (sorted && !sortedAllowed(plan, b)) {
                    return false;
                }
                // the hash function means nothing to a perfect or sorted table: one variant, not two equal ones
                if ((perfect || sorted) && !"mulshift".equals(g.get(HASH))) {
                    return false;
                }
            }
            case Sink.GroupAggregate ga -> {
                String agg = g.get(AGGREGATION);
                if (agg.equals("dense") && (denseSlots(ga) > MAX_DENSE_SLOTS || tableBytes(p, ga) > MAX_DENSE_BYTES)) {
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
        // two blocks of 1024 threads per SM keep two group tables in shared memory where four blocks of 512 keep
        // four: the rest of the SM's 256 KB is the L1 that holds the probes' bitmaps and payload (H200, SSB SF 20:
        // q3.1 from 34% to 50% of the model, q4.2 from 70% to 82%)
        boolean localTable = p.sink() instanceof Sink.GroupAggregate ga && tableBytes(p, ga) <= DEFAULT_SHARED_BYTES;
        // a scan's few groups (no probe) in each thread's registers: every row of the block would otherwise hit the
        // same few shared slots with atomics
        boolean registerTable = p.sink() instanceof Sink.GroupAggregate ga && probes(p) == 0
                && denseSlots(ga) <= REGISTER_TABLE_SLOTS && tableBytes(p, ga) <= REGISTER_TABLE_BYTES;
        int tpb = registerTable ? 128 : localTable ? 1024 : 512;
        // measured on the H200 over SSB SF 20 (docs/PERFORMANCE.md); profiles replace it per device
        m.put(TPB, Integer.toString(tpb));
        int ipt = 4;
        m.put(IPT, Integer.toString(ipt));
        m.put(GRID, "p4");
        m.put(OCCUPANCY, registerTable ? "free" : "full");
        if (p.operations().stream().anyMatch(o -> o instanceof Operation.Filter)) {
            m.put(PREDICATION, "branch");
        }
        if (probes(p) >= 2) {
            m.put(PROBE_ORDER, "selectivity");
        }
        if (probesPerfectTable(p)) {
            m.put(PROBE_PREDICATION, "estimate");
        }
        if (probes(p) >= 1) {
            m.put(BITMAPS, defaultSharedBitmaps(p, tpb) ? "shared" : "global");
            if (!rowSink(p)) {
                m.put(GATHER, payloadTables(p) * ipt <= LATE_GATHER_KEY_REGISTERS ? "late" : "early");
            }
        }
        switch (p.sink()) {
            case Sink.Build b -> {
                m.put(HASH_TABLE, perfectAllowed(b) ? "perfect" : "linear");
                m.put(HASH, "mulshift");
                if (narrowablePayload(b)) {
                    m.put(PAYLOAD, "wide");
                }
            }
            case Sink.GroupAggregate ga -> {
                m.put(AGGREGATION, registerTable ? "independent" : localTable ? "wglocal"
                        : defaultDense(p, ga) ? "dense" : "shared");
                m.put(HASH, "mulshift");
            }
            case Sink.Materialize mat -> m.put(MATERIALIZATION, "tile-atomic");
            case Sink.Window w -> m.put(MATERIALIZATION, "tile-atomic");
            case Sink.Sort s -> {
                m.put(MATERIALIZATION, "tile-atomic");
                if (cutsRelation(p)) {
                    m.put(TOP_K, "bitonic");
                }
            }
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
                    if (build.has(PAYLOAD)) {
                        out = out.with(probePayload(probe.joinId()), build.get(PAYLOAD));
                    }
                }
            }
        }
        return out;
    }

    /** The default genome of every pipeline of a plan, probes completed from their builds. */
    public Map<Integer, Genome> defaults(QueryPlan plan) {
        return completeAll(plan, defaultsWith(plan, Map.of()));
    }

    /**
     * The default genome of every pipeline of a plan with the values given wherever the pipeline has that dimension
     * and the value is valid there (not yet completed from the builds).
     */
    public Map<Integer, Genome> defaultsWith(QueryPlan plan, Map<String, String> values) {
        Map<Integer, Genome> out = new HashMap<>();
        for (Pipeline p : plan.pipelines()) {
            Genome g = defaultGenome(plan, p);
            for (Map.Entry<String, String> v : values.entrySet()) {
                if (g.has(v.getKey()) && valid(plan, p, g.with(v.getKey(), v.getValue()))) {
                    g = g.with(v.getKey(), v.getValue());
                }
            }
            out.put(p.id(), g);
        }
        return out;
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
     * smallest first, while they fit in {@code budget} bytes beside the sink's {@code sinkBytes}. Returns one flag per
     * bitmap, in the order given.
     */
    public static boolean[] sharedBitmaps(List<Long> bitmapBytes, long sinkBytes, long budget) {
        Integer[] order = new Integer[bitmapBytes.size()];
        for (int i = 0; i < order.length; i++) {
            order[i] = i;
        }
        java.util.Arrays.sort(order, java.util.Comparator.comparingLong(bitmapBytes::get));
        boolean[] shared = new boolean[order.length];
        long used = sinkBytes;
        for (int i : order) {
            if (used + bitmapBytes.get(i) <= budget) {
                used += bitmapBytes.get(i);
                shared[i] = true;
            }
        }
        return shared;
    }

    /**
     * The shared memory a block may take for its sink's table and bitmaps: under occ=full what still lets 2048
     * threads run on an SM (blocks of 1024 threads: 113 KB; 512: 56 KB), since a bitmap in shared memory that halves
     * the blocks per SM costs more than it saves (H200, SSB SF 20: q3.1 with all three bitmaps there, one block per
     * SM, 1.051 against 0.938 ms); under occ=free {@link #MAX_SHARED_BYTES}.
     */
    public static long sharedBudget(int tpb, boolean fullOccupancy) {
        if (!fullOccupancy) {
            return MAX_SHARED_BYTES;
        }
        long blocks = blocksPerSm(tpb);
        return Math.min(MAX_SHARED_BYTES, SHARED_PER_SM / blocks - SHARED_RESERVED_PER_BLOCK);
    }

    /** Blocks of {@code tpb} threads per SM at full occupancy (2048 threads, at most 32 blocks). */
    public static long blocksPerSm(int tpb) {
        return Math.max(1, Math.min(32, 2048 / tpb));
    }

    /** The perfect tables' bitmaps a pipeline probes, in bytes, in the order of its probes; null if one is hashed. */
    private static List<Long> probedBitmapBytes(Pipeline p) {
        List<Long> bytes = new ArrayList<>();
        for (Operation op : p.operations()) {
            if (op instanceof Operation.Probe probe) {
                if (!perfectAllowed(probe.build())) {
                    return null;
                }
                bytes.add(bitmapBytes(probe.build().range().size()));
            }
        }
        return bytes;
    }

    /**
     * Whether the default genome reads the bitmaps from shared memory: when some move there and the ones left in
     * global memory either still fit in the L1 the shared memory leaves, or would not fit in L1 even without the
     * shared copies. A random probe of a bitmap in L1 costs the warp one L1 wavefront per distinct 128-byte line
     * (up to 32); in shared memory a few bank conflicts (H200, SSB SF 20: q1.1-q1.3 10% faster). But one bitmap
     * that fit in L1 and no longer does costs more than the copies save (SF 100, q2.1: the 33 KB of supplier and
     * date bitmaps in shared memory pushed the 175 KB part bitmap out of L1, 4.4 ms against 2.5 ms).
     */
    private static boolean defaultSharedBitmaps(Pipeline p, int tpb) {
        List<Long> bytes = probedBitmapBytes(p);
        long sink = p.sink() instanceof Sink.GroupAggregate ga && tableBytes(p, ga) <= DEFAULT_SHARED_BYTES
                ? sharedTableBytes(p, ga) : 0;
        return bytes != null && defaultSharedBitmaps(bytes, sink, tpb);
    }

    /** {@link #defaultSharedBitmaps(Pipeline, int)} for bitmaps of the bytes given beside a sink's shared table. */
    public static boolean defaultSharedBitmaps(List<Long> bytes, long sink, int tpb) {
        boolean[] shared = sharedBitmaps(bytes, sink, sharedBudget(tpb, true));
        long inShared = 0;
        long inGlobal = 0;
        for (int i = 0; i < shared.length; i++) {
            if (shared[i]) {
                inShared += bytes.get(i);
            } else {
                inGlobal += bytes.get(i);
            }
        }
        if (inShared == 0) {
            return false;
        }
        long blocks = blocksPerSm(tpb);
        boolean fitsWith = inGlobal <= l1Left(blocks * (sink + inShared));
        boolean fitsWithout = inGlobal <= l1Left(blocks * sink);
        return fitsWith || !fitsWithout;
    }

    /** The L1 left for bitmaps on an SM whose blocks take {@code sharedPerSm} bytes of shared memory. */
    private static long l1Left(long sharedPerSm) {
        return L1_AND_SHARED_PER_SM - sharedPerSm - L1_STREAMING_BYTES;
    }

    /** The probed tables that carry payload besides their key (a perfect table's payload is what gather places). */
    private static long payloadTables(Pipeline p) {
        return p.operations().stream()
                .filter(o -> o instanceof Operation.Probe pr
                        && pr.build().payload().stream().anyMatch(e -> !pr.build().keys().contains(e)))
                .count();
    }

    /**
     * Whether a pipeline only sorts a relation and keeps at most {@link #MAX_TOP_K} rows: the shape of a sort the GPU
     * runs on a device relation (backend.cuda.exec.DeviceSort), where {@link #TOP_K} chooses how it cuts.
     */
    public static boolean cutsRelation(Pipeline p) {
        return p.source() instanceof Source.RelationScan && p.operations().isEmpty() && p.sink() instanceof Sink.Sort s
                && s.isTopK() && s.offset() + s.fetch() <= MAX_TOP_K;
    }

    private static boolean rowSink(Pipeline p) {
        return p.sink() instanceof Sink.Materialize || p.sink() instanceof Sink.Sort || p.sink() instanceof Sink.Window;
    }

    /** Whether a pipeline probes a table that may be perfect (ppred means something to it). */
    private static boolean probesPerfectTable(Pipeline p) {
        return p.operations().stream().anyMatch(o -> o instanceof Operation.Probe pr && perfectAllowed(pr.build()));
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

    /**
     * Whether a build's payload has a column that pay=narrow stores in fewer bytes: an integer column (INTEGER, DATE,
     * BIGINT, or a dictionary code) whose known range spans at most {@link #NARROW_PAYLOAD_VALUES} values.
     */
    public static boolean narrowablePayload(Sink.Build b) {
        return b.payload().stream().anyMatch(e -> narrowPayloadRange(e) != null);
    }

    /** The range a payload column is stored over under pay=narrow, or null when it stays wide. */
    public static KeyRange narrowPayloadRange(Expr e) {
        TypeKind k = e.type().kind();
        if (k != TypeKind.INTEGER && k != TypeKind.DATE && k != TypeKind.BIGINT && k != TypeKind.VARCHAR) {
            return null;
        }
        KeyRange r = KeyRange.of(e);
        return r != null && r.size() > 0 && r.size() <= NARROW_PAYLOAD_VALUES ? r : null;
    }

    /** Whether an {@link #HASH_TABLE} value is a sorted table ({@link #SORTED_BINARY}, {@link #SORTED_PARY}). */
    public static boolean sortedTable(String ht) {
        return SORTED_BINARY.equals(ht) || SORTED_PARY.equals(ht);
    }

    /**
     * Constraint of the sorted tables: one integer-valued key (INTEGER, DATE, BIGINT) that is a column or an
     * expression rather than a constant, a table that keeps no row with a NULL key, and no marks on its rows (no
     * marking or MARK probe, no scan of its marked or unmarked rows): a sorted table has no slot to keep a mark in.
     */
    public static boolean sortedAllowed(QueryPlan plan, Sink.Build b) {
        if (b.keys().size() != 1 || b.keepsNullKeys() || b.keys().get(0) instanceof Expr.Literal) {
            return false;
        }
        TypeKind k = b.keys().get(0).type().kind();
        if (k != TypeKind.INTEGER && k != TypeKind.DATE && k != TypeKind.BIGINT) {
            return false;
        }
        for (Pipeline q : plan.pipelines()) {
            if (q.source() instanceof Source.JoinTableScan js && js.joinId() == b.joinId()
                    || q.sink() instanceof Sink.Marks m && m.joinId() == b.joinId()) {
                return false;
            }
            for (Operation op : q.operations()) {
                if (op instanceof Operation.Probe pr && pr.joinId() == b.joinId() && pr.setsMarks()) {
                    return false;
                }
            }
        }
        return true;
    }

    /** Constraint of ht=perfect: one integer-valued key whose range is known and not too large. */
    public static boolean perfectAllowed(Sink.Build b) {
        if (b.keys().size() != 1 || b.range() == null || b.range().size() > MAX_PERFECT_SLOTS) {
            return false;
        }
        TypeKind k = b.keys().get(0).type().kind();
        return k == TypeKind.INTEGER || k == TypeKind.DATE || k == TypeKind.BIGINT;
    }

    /**
     * Whether the default genome keeps a GROUP_AGGREGATE's groups in a dense global array: a small key range, or a
     * large one that the estimated groups fill densely enough ({@link #DENSE_SLOTS_PER_GROUP}) within
     * {@link #MAX_DENSE_BYTES}.
     */
    static boolean defaultDense(Pipeline p, Sink.GroupAggregate ga) {
        long slots = denseSlots(ga);
        return slots <= DEFAULT_DENSE_SLOTS || slots <= MAX_DENSE_SLOTS && tableBytes(p, ga) <= MAX_DENSE_BYTES
                && slots <= DENSE_SLOTS_PER_GROUP * Math.max(1.0, ga.estimatedGroups());
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

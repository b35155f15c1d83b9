package io.tessera.backend.cuda.gen;

import io.tessera.data.ssb.SmallSsb;
import io.tessera.backend.cuda.exec.GpuPlan;
import io.tessera.exec.Device;
import io.tessera.exec.QueryEngine;
import io.tessera.plan.Pipeline;
import io.tessera.plan.QueryPlan;
import io.tessera.plan.Sink;
import io.tessera.variant.CudaVariantSpace;
import io.tessera.variant.Dimension;
import io.tessera.variant.Genome;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The CUDA a genome's values produce, checked in the source text (nvcc compiles it in {@link CudaQueryCompileTest},
 * and GpuSelfTest runs it on a GPU against the JVM backend): cuckoo join tables and their probes, and the three
 * materializations of a scan's rows.
 */
class CudaPipelineEmitterTest extends SmallSsb {

    /** A star join whose date table carries a payload (the year grouped by). */
    static final String PAYLOAD_JOIN = "select d_year, sum(lo_revenue) from lineorder, ddate "
            + "where lo_orderdate = d_datekey and lo_discount < 3 group by d_year";
    /** A star join whose date table is only probed for presence. */
    static final String KEY_JOIN = "select count(*) from lineorder, ddate where lo_orderdate = d_datekey and d_year = 1993";

    /** Rows out of a scan with a join whose payload both a filter and the outputs read. */
    static final String ROWS_JOIN = io.tessera.bench.GpuSelfTest.SSB_ROWS.get(1).sql();

    static QueryPlan plan(String sql) {
        return new QueryEngine(db).plan(sql, Device.GPU);
    }

    static Pipeline pipeline(QueryPlan plan, Predicate<Pipeline> which) {
        return plan.pipelines().stream().filter(which).findFirst().orElseThrow();
    }

    static boolean builds(Pipeline p) {
        return p.sink() instanceof Sink.Build;
    }

    static boolean scansLineorder(Pipeline p) {
        return p.source().toString().contains("lineorder");
    }

    /** The plan placed with its default genomes, pipeline {@code id}'s genome changed as given, probes completed. */
    static GpuPlacement place(QueryPlan plan, int id, Map<String, String> changes) {
        Map<Integer, Genome> free = new HashMap<>();
        for (Pipeline p : plan.pipelines()) {
            free.put(p.id(), CudaVariantSpace.INSTANCE.defaultGenome(plan, p));
        }
        Genome g = free.get(id);
        for (Map.Entry<String, String> c : changes.entrySet()) {
            g = g.with(c.getKey(), c.getValue());
        }
        Pipeline p = plan.pipelines().stream().filter(q -> q.id() == id).findFirst().orElseThrow();
        assertTrue(CudaVariantSpace.INSTANCE.valid(plan, p, g), g.toString());
        free.put(id, g);
        GpuPlacement placed = GpuPlacement.place(plan, CudaVariantSpace.INSTANCE.completeAll(plan, free),
                key -> GpuPlan.dictionary(db, key));
        assertTrue(placed.onGpu(id), placed.jvmReasons().toString());
        return placed;
    }

    /** The kernel of the lineorder pipeline of {@code sql}, its default genome changed as given. */
    static CudaKernelSource factKernel(String sql, Map<String, String> changes) {
        QueryPlan plan = plan(sql);
        Pipeline fact = pipeline(plan, CudaPipelineEmitterTest::scansLineorder);
        return place(plan, fact.id(), changes).kernels().get(fact.id());
    }

    static boolean hasParam(CudaKernelSource k, KernelParam.Kind kind) {
        return k.params().stream().anyMatch(p -> p.kind() == kind);
    }

    @Test
    void buildsOfferCuckooTablesOfTwoToFourFunctionsBesidePerfectAndLinear() {
        QueryPlan plan = plan(PAYLOAD_JOIN);
        Pipeline build = pipeline(plan, CudaPipelineEmitterTest::builds);
        List<String> ht = CudaVariantSpace.INSTANCE.dimensions(plan, build).stream()
                .filter(d -> d.name().equals(CudaVariantSpace.HASH_TABLE)).findFirst().map(Dimension::values).orElseThrow();
        assertEquals(List.of("perfect", "linear", "cuckoo2", "cuckoo3", "cuckoo4", "sorted-binary", "sorted-pary"), ht);
        Genome def = CudaVariantSpace.INSTANCE.defaultGenome(plan, build);
        assertEquals("perfect", def.get(CudaVariantSpace.HASH_TABLE), "the default stays the perfect table");
        for (String hash : List.of("mulshift", "murmur")) {
            assertTrue(CudaVariantSpace.INSTANCE.valid(plan, build,
                    def.with(CudaVariantSpace.HASH_TABLE, "cuckoo4").with(CudaVariantSpace.HASH, hash)), hash);
        }
        // the probes take the table kind and hash of their build
        Pipeline fact = pipeline(plan, CudaPipelineEmitterTest::scansLineorder);
        Map<Integer, Genome> free = new HashMap<>(CudaVariantSpace.INSTANCE.defaults(plan));
        free.put(build.id(), def.with(CudaVariantSpace.HASH_TABLE, "cuckoo3").with(CudaVariantSpace.HASH, "murmur"));
        Genome probe = CudaVariantSpace.INSTANCE.completeAll(plan, free).get(fact.id());
        int join = ((Sink.Build) build.sink()).joinId();
        assertEquals("cuckoo3", probe.get(CudaVariantSpace.probeTable(join)));
        assertEquals("murmur", probe.get(CudaVariantSpace.probeHash(join)));
    }

    @Test
    void cuckooBuildWithPayloadInsertsKeysThenWritesPayloadInASecondPass() {
        QueryPlan plan = plan(PAYLOAD_JOIN);
        Pipeline build = pipeline(plan, CudaPipelineEmitterTest::builds);
        Pipeline fact = pipeline(plan, CudaPipelineEmitterTest::scansLineorder);
        for (int ways = 2; ways <= 4; ways++) {
            for (String hash : List.of("mulshift", "murmur")) {
                String fn = hash.equals("murmur") ? "tessera::HashMurmur" : "tessera::HashMultiplyShift";
                GpuPlacement placed = place(plan, build.id(), Map.of(CudaVariantSpace.HASH_TABLE, "cuckoo" + ways,
                        CudaVariantSpace.HASH, hash));
                CudaKernelSource b = placed.kernels().get(build.id());
                String src = b.source();
                String what = "cuckoo" + ways + " " + hash + ":\n" + src;
                JoinLayout t = ((SinkLayout.Build) b.sink()).table();
                assertEquals(JoinLayout.Kind.of("cuckoo" + ways), t.kind());
                assertEquals(ways, t.kind().ways);
                assertFalse(t.payloadTypes().isEmpty(), what);
                assertEquals(2, b.passes(), what);
                assertEquals("j" + t.joinId() + ": cuckoo, " + ways + " " + (hash.equals("murmur") ? "murmur" : "multiply-shift")
                        + " functions; two launches: keys, then payload", b.sink().describe(), "EXPLAIN's words");
                assertTrue(hasParam(b, KernelParam.Kind.PASS), what);
                assertTrue(src.contains("const int pass"), what);
                assertTrue(src.contains("(cuckoo, " + ways + " "), what);
                int p0 = src.indexOf("if (pass == 0) {");
                int insert = src.indexOf("tessera::q::CuckooInsert<" + ways + ", " + fn + ">(build_keys, key, ");
                int p1 = src.indexOf("} else {", insert);
                int find = src.indexOf("tessera::q::CuckooFind<" + ways + ", " + fn + ", int>(build_keys, key, ");
                int pay = src.indexOf("build_pay0[slot] = ");
                assertTrue(p0 >= 0 && p0 < insert && insert < p1 && p1 < find && find < pay, what);
                assertEquals(1, count(src, "build_pay0[slot] = "), "payload written once, in pass 1: " + what);
                assertFalse(src.contains("LinearInsert"), what);

                String probe = placed.kernels().get(fact.id()).source();
                assertTrue(probe.contains("tessera::q::CuckooFind<" + ways + ", " + fn + ", int>(j"), probe);
                assertTrue(probe.contains("(cuckoo, " + ways + " " + (hash.equals("murmur") ? "murmur" : "multiply-shift")
                        + " functions)"), probe);
                assertFalse(probe.contains("LinearFind"), probe);
                assertFalse(probe.contains("const int pass"), "a probe is one launch: " + probe);
                assertEquals(1, placed.kernels().get(fact.id()).passes());
            }
        }
    }

    @Test
    void cuckooBuildWithoutPayloadIsOneLaunchAndAcceptsRepeatedKeys() {
        // the planner gives every build a payload (its key at least); a key-only table with keys that repeat (as
        // a semi or anti join may build) is made here from the star join's date build
        QueryPlan plan = plan(KEY_JOIN);
        Pipeline build = pipeline(plan, CudaPipelineEmitterTest::builds);
        Sink.Build b = (Sink.Build) build.sink();
        Pipeline keysOnly = new Pipeline(build.id(), build.source(), build.operations(), new Sink.Build(b.joinId(), b.keys(),
                List.of(), List.of(), false, b.range(), b.estimatedRows(), b.commonKeyTypes()));
        Genome g = CudaVariantSpace.INSTANCE.defaultGenome(plan, build).with(CudaVariantSpace.HASH_TABLE, "cuckoo2");
        CudaKernelSource k = CudaPipelineEmitter.emit(keysOnly, g, new CudaPipelineEmitter.Context() {
            @Override
            public io.tessera.storage.Dictionary dictionary(String key) {
                return GpuPlan.dictionary(db, key);
            }

            @Override
            public JoinLayout join(int joinId) {
                return null;
            }
        });
        assertEquals(1, k.passes());
        assertFalse(hasParam(k, KernelParam.Kind.PASS), k.source());
        assertFalse(k.source().contains("pass =="), k.source());
        assertTrue(k.source().contains("tessera::q::CuckooInsert<2, tessera::HashMultiplyShift>(build_keys, key, (int)"),
                k.source());
    }

    @Test
    void linearAndPerfectBuildsStayAsTheyWere() {
        QueryPlan plan = plan(PAYLOAD_JOIN);
        Pipeline build = pipeline(plan, CudaPipelineEmitterTest::builds);
        CudaKernelSource linear = place(plan, build.id(), Map.of(CudaVariantSpace.HASH_TABLE, "linear")).kernels().get(build.id());
        assertEquals(1, linear.passes());
        assertTrue(linear.source().contains("tessera::q::LinearInsert<tessera::HashMultiplyShift>(build_keys, key, build_log2, err)"));
        assertFalse(linear.source().contains("Cuckoo"));
        CudaKernelSource perfect = place(plan, build.id(), Map.of()).kernels().get(build.id());
        assertNotNull(perfect);
        assertEquals(1, perfect.passes());
        assertTrue(perfect.source().contains("atomicOr(&build_bits[slot >> 5]"));
    }

    @Test
    void rowSinksOfferThreeMaterializations() {
        QueryPlan plan = plan(ROWS_JOIN);
        Pipeline fact = pipeline(plan, CudaPipelineEmitterTest::scansLineorder);
        List<String> mat = CudaVariantSpace.INSTANCE.dimensions(plan, fact).stream()
                .filter(d -> d.name().equals(CudaVariantSpace.MATERIALIZATION)).findFirst().map(Dimension::values).orElseThrow();
        assertEquals(List.of("tile-atomic", "twopass", "bitmap"), mat);
        assertEquals("tile-atomic", CudaVariantSpace.INSTANCE.defaultGenome(plan, fact).get(CudaVariantSpace.MATERIALIZATION));
    }

    @Test
    void tileAtomicReservesRowsWithOneAtomicPerTileInOneLaunch() {
        CudaKernelSource k = factKernel(ROWS_JOIN, Map.of());
        String src = k.source();
        assertEquals(new SinkLayout.Rows(((SinkLayout.Rows) k.sink()).types(), "tile-atomic"), k.sink());
        assertEquals(1, k.passes());
        assertTrue(src.contains("const unsigned long long first = BlockReserve<TPB>(out_cursor, selected);"), src);
        assertTrue(hasParam(k, KernelParam.Kind.OUT_CURSOR));
        assertFalse(src.contains("pass"), src);
    }

    @Test
    void twopassCountsTilesThenRecomputesThemAndWritesAtTheirOffsets() {
        CudaKernelSource k = factKernel(ROWS_JOIN, Map.of(CudaVariantSpace.MATERIALIZATION, "twopass"));
        String src = k.source();
        assertEquals("twopass", ((SinkLayout.Rows) k.sink()).mode());
        assertEquals(2, k.passes());
        assertTrue(hasParam(k, KernelParam.Kind.PASS) && hasParam(k, KernelParam.Kind.TILE_ROWS), src);
        assertFalse(hasParam(k, KernelParam.Kind.OUT_CURSOR) || hasParam(k, KernelParam.Kind.SEL_BITS), src);
        assertFalse(src.contains("BlockReserve"), "no atomic reserves rows: " + src);
        // one tile body for both passes: the operations, then the sink split by pass
        assertEquals(1, count(src, "BlockInitFlags<TPB, IPT>(flags, tile_size);"), src);
        int split = src.indexOf("if (pass == 0) {\n", src.indexOf("// MATERIALIZE"));
        int counted = src.indexOf("if (threadIdx.x == 0) tile_rows[base / TILE] = (unsigned long long)tile_count;");
        int second = src.indexOf("} else {", counted);
        int offset = src.indexOf("const unsigned long long first = tile_rows[base / TILE];");
        int written = src.indexOf("out0[row] = ");
        assertTrue(split > 0 && split < counted && counted < second && second < offset && offset < written, src);
        assertTrue(src.contains("tile_count = BlockSum<TPB>(tile_count);"), src);
        // the year feeds a filter, so both passes fetch it; the month only the outputs read, so pass 1 alone does
        assertTrue(src.contains("if (pass == 1) {  // only the outputs read these"), src);
    }

    @Test
    void bitmapWritesTheSelectionThenReadsItInsteadOfFilteringAgain() {
        CudaKernelSource k = factKernel(ROWS_JOIN, Map.of(CudaVariantSpace.MATERIALIZATION, "bitmap"));
        String src = k.source();
        assertEquals("bitmap", ((SinkLayout.Rows) k.sink()).mode());
        assertEquals("rows: two launches (selection bitmap and tile counts, then the selected rows)", k.sink().describe());
        assertEquals(2, k.passes());
        assertTrue(hasParam(k, KernelParam.Kind.PASS) && hasParam(k, KernelParam.Kind.TILE_ROWS)
                && hasParam(k, KernelParam.Kind.SEL_BITS), src);
        int pass0 = src.indexOf("        if (pass == 0) {\n            BlockInitFlags<TPB, IPT>(flags, tile_size);");
        int ballot = src.indexOf("const unsigned int ballot = __ballot_sync(TESSERA_FULL_MASK, flags[i]);");
        int pass1 = src.indexOf("        } else {\n            // pass 1: only the tiles with rows");
        int skip = src.indexOf("if (tile_rows[base / TILE + 1] == first) return;");
        int fromBits = src.indexOf("flags[i] = (int)((sel_bits[word + i * (TPB / 32)] >> (threadIdx.x & 31)) & 1u);");
        int again = src.indexOf("again, for the payload of the rows pass 0 selected");
        int written = src.indexOf("out0[row] = ");
        assertTrue(pass0 > 0 && pass0 < ballot && ballot < pass1 && pass1 < skip && skip < fromBits && fromBits < again
                && again < written, src);
        // the filters run in pass 0 only; the probe runs again in pass 1 for the payload the outputs read
        assertEquals(2, count(src, "// FILTER "), src);
        assertTrue(src.lastIndexOf("// FILTER ") < pass1, src);
        assertEquals(2, count(src, "// PROBE j"), src);
        String first = src.substring(pass0, pass1);
        String second = src.substring(pass1);
        assertEquals(1, count(first, "_pay"), "pass 0 fetches only the year, which a filter reads: " + first);
        assertEquals(2, count(second, "_pay"), "pass 1 fetches the year and the month: " + second);
    }

    @Test
    void theThesisModelChargesTheStarJoinsColumnsTablesAndGroupUpdates() {
        QueryPlan plan = plan(io.tessera.bench.Queries.ssb().stream().filter(q -> q.name().equals("q3.1")).findFirst()
                .orElseThrow().sql());
        Pipeline fact = pipeline(plan, CudaPipelineEmitterTest::scansLineorder);
        GpuPlacement placed = place(plan, fact.id(), Map.of());
        CudaKernelSource k = placed.kernels().get(fact.id());
        long rows = ((io.tessera.plan.Source.TableScan) fact.source()).table().rowCount();
        Map<Integer, JoinLayout> joins = new HashMap<>();
        for (CudaKernelSource b : placed.kernels().values()) {
            if (b.sink() instanceof SinkLayout.Build sb) {
                joins.put(sb.table().joinId(), sb.table());
            }
        }
        double selected = 1;
        long tables = 0;
        for (io.tessera.plan.Operation op : fact.operations()) {
            JoinLayout t = joins.get(((io.tessera.plan.Operation.Probe) op).joinId());
            selected *= t.selectivity();
            assertTrue(t.perfect(), t.toString());
            // the bitmap and the one payload column fetched (a nation or a year, four bytes under the default pay=wide)
            assertEquals(4, t.payloadBytes(1), t.toString());
            tables += t.perfectSlots() / 8 + t.perfectSlots() * 4L;
        }
        ModelBytes m = k.model();
        // ASIA customers and suppliers (1/5 each), 1992 to 1997: a few per cent of the rows reach the groups
        assertTrue(selected > 0.01 && selected < 0.1, "selected " + selected);
        assertEquals(rows * selected * 256, m.results(), rows * 0.001);
        assertEquals(tables, m.tables(), tables * 0.01 + 16);
        // four int columns, none behind a probe selective enough to read fewer lines than the whole column
        assertEquals(k.bytesRead(), m.columns());
        assertEquals(4 * 4 * rows, k.bytesRead());
    }

    @Test
    void narrowPayloadIsStoredAsOffsetsFromTheStatisticsMinimumAndWidenedByTheProbe() {
        QueryPlan plan = plan(PAYLOAD_JOIN);
        int build = buildId(PAYLOAD_JOIN);
        Pipeline fact = pipeline(plan, CudaPipelineEmitterTest::scansLineorder);
        assertEquals("wide", CudaVariantSpace.INSTANCE.defaultGenome(plan, pipeline(plan, CudaPipelineEmitterTest::builds))
                .get(CudaVariantSpace.PAYLOAD));
        for (String pay : List.of("narrow", "wide")) {
            GpuPlacement placed = place(plan, build, Map.of(CudaVariantSpace.PAYLOAD, pay));
            String b = placed.kernels().get(build).source();
            String probe = placed.kernels().get(fact.id()).source();
            assertTrue(probe.contains("pay.j"), probe);
            if (pay.equals("narrow")) {
                // d_year over 1992..1998 fits a byte; the build checks each value against the statistics' range
                assertTrue(b.contains("unsigned char* __restrict__ build_pay1"), b);
                assertTrue(b.contains("(unsigned int)1992LL;") && b.contains("if (off < 7u)"), b);
                assertTrue(b.contains("err |= TESSERA_ERR_TABLE_FULL;  // a payload value outside"), b);
                assertTrue(probe.contains("const unsigned char* __restrict__ j0_pay1"), probe);
                assertTrue(probe.contains("(int)((unsigned int)j0_pay1[slot] + (unsigned int)1992LL)"), probe);
            } else {
                assertTrue(b.contains("int* __restrict__ build_pay1") && !b.contains("off <"), b);
                assertTrue(probe.contains("const int* __restrict__ j0_pay1") && probe.contains("= j0_pay1[slot];"), probe);
            }
        }
    }

    @Test
    void predicatedProbesRunForEveryRowWithoutABranchAndBranchedOnesOnlyForSelectedRows() {
        String predicated = factKernel(PAYLOAD_JOIN, Map.of(CudaVariantSpace.PROBE_PREDICATION, "predicated",
                CudaVariantSpace.GATHER, "early")).source();
        assertTrue(predicated.contains("_slots, flags[i]);  // -1 for a row not selected\n"), predicated);
        assertTrue(predicated.contains("    flags[i] = slot >= 0;\n"), predicated);
        assertFalse(predicated.contains("if (slot < 0)"), predicated);
        String branched = factKernel(PAYLOAD_JOIN, Map.of(CudaVariantSpace.PROBE_PREDICATION, "branch",
                CudaVariantSpace.GATHER, "early")).source();
        assertTrue(branched.contains("_slots);\n") && branched.contains("if (slot < 0) {"), branched);
        assertFalse(branched.contains("flags[i]);  // -1 for a row not selected"), branched);
        // both call the tile body with the constant TILE for full tiles, so that the tail's checks fold away there
        assertTrue(predicated.contains("tile(base, TILE);") && predicated.contains("tile(base, (int)(n - base));"), predicated);
    }

    @Test
    void probesArePredicatedByEstimateWhenEnoughRowsReachTheLastOne() {
        // q1.1: an estimated 9.8% of the rows reach its one probe, after the filters on discount and quantity
        String q11 = factKernel(io.tessera.bench.Queries.sql("ssb", "q1.1"), Map.of()).source();
        assertTrue(q11.contains("ppred=estimate"), q11);
        assertTrue(q11.contains(", predicated (an estimated 9.8% of the rows reach it)"), q11);
        assertTrue(q11.contains("flags[i] = slot >= 0;"), q11);
        // q2.1: the part probe keeps 1/25 and the supplier probe 1/5, so under 1% reach the date probe: all branched
        String q21 = factKernel(io.tessera.bench.Queries.sql("ssb", "q2.1"), Map.of()).source();
        assertFalse(q21.contains("predicated (an estimated"), q21);
        assertTrue(count(q21, "if (slot < 0)") >= 3, q21);
        // an explicit value wins over the estimate
        String q21p = factKernel(io.tessera.bench.Queries.sql("ssb", "q2.1"),
                Map.of(CudaVariantSpace.PROBE_PREDICATION, "predicated")).source();
        assertEquals(3, count(q21p, "// -1 for a row not selected"), q21p);
    }

    @Test
    void smallBitmapsAreCopiedToSharedMemoryAndProbedThere() {
        CudaKernelSource shared = factKernel(PAYLOAD_JOIN, Map.of(CudaVariantSpace.BITMAPS, "shared",
                CudaVariantSpace.AGGREGATION, "dense"));
        String src = shared.source();
        int join = shared.params().stream().filter(p -> p.kind() == KernelParam.Kind.PROBE_KEYS).findFirst().orElseThrow().index();
        String j = "j" + join;
        int copy = src.indexOf("_sbits[w] = __ldg(&" + j + "_bits[w]);");
        int sync = src.indexOf("__syncthreads();", copy);
        int loop = src.indexOf("auto tile = [&]");
        int probe = src.indexOf("tessera::q::PerfectFindBit32<true>(" + j + "_sbits, ");
        assertTrue(copy > 0 && copy < sync && sync < loop && loop < probe, src);
        assertTrue(src.contains("extern __shared__"), src);
        // the date table's bitmap (about 2,600 days of keys) and nothing else in this kernel's shared memory
        long words = (((SinkLayout.Build) place(plan(PAYLOAD_JOIN), buildId(PAYLOAD_JOIN), Map.of()).kernels()
                .get(buildId(PAYLOAD_JOIN)).sink()).table().perfectSlots() + 31) / 32;
        assertEquals((words + 1) / 2 * 8, shared.sharedBytes(), src);

        CudaKernelSource global = factKernel(PAYLOAD_JOIN, Map.of(CudaVariantSpace.BITMAPS, "global",
                CudaVariantSpace.AGGREGATION, "dense"));
        assertFalse(global.source().contains("_sbits"), global.source());
        assertTrue(global.source().contains("tessera::q::PerfectFindBit32<false>(" + j + "_bits, "), global.source());
        assertEquals(0, global.sharedBytes());
    }

    @Test
    void sharedBitmapsGoSmallestFirstWhileTheyFitBesideTheSinksTable() {
        long max = CudaVariantSpace.MAX_SHARED_BYTES;
        boolean[] chosen = CudaVariantSpace.sharedBitmaps(List.of(100_000L, 8_000L, 60_000L, 30_000L), 20_000, max);
        // 20 KB of sink, then 8 KB, 30 KB and 60 KB fit in 160 KB; the 100 KB bitmap would not
        assertEquals(List.of(false, true, true, true), List.of(chosen[0], chosen[1], chosen[2], chosen[3]));
        boolean[] none = CudaVariantSpace.sharedBitmaps(List.of(max), 1, max);
        assertFalse(none[0]);
        // a budget for two blocks of 1024 threads per SM leaves the 60 KB bitmap out as well
        boolean[] full = CudaVariantSpace.sharedBitmaps(List.of(100_000L, 8_000L, 60_000L, 30_000L), 20_000,
                CudaVariantSpace.sharedBudget(1024, true));
        assertEquals(List.of(false, true, false, true), List.of(full[0], full[1], full[2], full[3]));
        assertEquals(4, CudaVariantSpace.bitmapBytes(1));
        assertEquals(8, CudaVariantSpace.bitmapBytes(33));
    }

    @Test
    void underFullOccupancyABlocksSharedMemoryLetsTheSmHold2048Threads() {
        for (int tpb : List.of(32, 64, 128, 256, 512, 1024)) {
            long budget = CudaVariantSpace.sharedBudget(tpb, true);
            long blocks = CudaVariantSpace.blocksPerSm(tpb);
            assertTrue(blocks * (budget + 1024) <= CudaVariantSpace.SHARED_PER_SM, tpb + " threads: " + budget);
            assertTrue(blocks * tpb >= Math.min(2048, 32 * tpb), tpb + " threads: " + blocks + " blocks");
        }
        assertEquals(113 * 1024, CudaVariantSpace.sharedBudget(1024, true));
        assertEquals(CudaVariantSpace.MAX_SHARED_BYTES, CudaVariantSpace.sharedBudget(1024, false));
    }

    @Test
    void theDefaultReadsBitmapsFromSharedMemoryUnlessThatPushesAnotherOutOfL1() {
        long kb = 1024;
        // q3.1 at SF 20: date and supplier beside a 52 KB group table, the 75 KB customer bitmap stays in L1
        assertTrue(CudaVariantSpace.defaultSharedBitmaps(List.of(5 * kb, kb / 2, 75 * kb), 52 * kb, 1024));
        // q3.1 at SF 100: the 375 KB customer bitmap misses L1 either way
        assertTrue(CudaVariantSpace.defaultSharedBitmaps(List.of(25 * kb, kb / 2, 375 * kb), 52 * kb, 1024));
        // q2.1 at SF 100, blocks of 512: supplier and date in shared memory would leave 175 KB of part bitmap an L1
        // too small for it
        assertFalse(CudaVariantSpace.defaultSharedBitmaps(List.of(175 * kb, 25 * kb, kb / 2), 0, 512));
        // nothing fits: no shared copies
        assertFalse(CudaVariantSpace.defaultSharedBitmaps(List.of(200 * kb), 0, 1024));
        // everything fits
        assertTrue(CudaVariantSpace.defaultSharedBitmaps(List.of(kb / 2), 2 * kb, 1024));
    }

    @Test
    void theDefaultFetchesPayloadLateUnlessThreeTablesWouldHoldTheirKeysInRegisters() {
        QueryPlan one = plan(PAYLOAD_JOIN);
        assertEquals("late", CudaVariantSpace.INSTANCE.defaultGenome(one, pipeline(one, CudaPipelineEmitterTest::scansLineorder))
                .get(CudaVariantSpace.GATHER));
        QueryPlan two = plan(io.tessera.bench.Queries.sql("ssb", "q2.1")); // part and date carry payload
        assertEquals("late", CudaVariantSpace.INSTANCE.defaultGenome(two, pipeline(two, CudaPipelineEmitterTest::scansLineorder))
                .get(CudaVariantSpace.GATHER));
        QueryPlan three = plan(io.tessera.bench.Queries.sql("ssb", "q3.1")); // customer, supplier and date do
        assertEquals("early", CudaVariantSpace.INSTANCE.defaultGenome(three, pipeline(three, CudaPipelineEmitterTest::scansLineorder))
                .get(CudaVariantSpace.GATHER));
    }

    @Test
    void aPerfectTablesPayloadIsFetchedWhereItIsFirstReadForTheRowsStillSelected() {
        CudaKernelSource k = factKernel(PAYLOAD_JOIN, Map.of(CudaVariantSpace.PROBE_PREDICATION, "branch"));
        String src = k.source();
        int probe = src.indexOf("// PROBE j");
        int filter = src.indexOf("// FILTER ");
        int sink = src.indexOf("// GROUP_AGGREGATE");
        int gather = src.indexOf("payload for the rows the probes and filters since kept");
        int read = src.indexOf("_pay1[slot]");
        // the filter on the discount runs before the probe (filters first); the payload waits for the sink
        assertTrue(filter < probe && probe < sink && sink < gather && gather < read, src);
        assertEquals(1, count(src, "_pay1[slot]"), src);
        String probeLoop = src.substring(probe, src.indexOf("}\n", src.indexOf("flags[i] = 0;", probe)));
        assertFalse(probeLoop.contains("_pay"), "the probe tests the bitmap only: " + probeLoop);
        // in 32-bit arithmetic: the keys are ints over an int range
        assertTrue(src.contains("const int slot = (int)((unsigned int)"), src);
        assertTrue(src.contains("const int grp = (int)("), src);
    }

    @Test
    void aBlocksSumsOfIntsInSharedMemoryTakeNative32BitAtomics() {
        CudaKernelSource k = factKernel(PAYLOAD_JOIN, Map.of(CudaVariantSpace.AGGREGATION, "wglocal"));
        assertTrue(k.source().contains("tessera::q::SharedAddInt(&s_v0[grp], "), k.source());
        assertFalse(k.source().contains("AtomicAddChecked(&s_v0"), k.source());
        // merged into the global table with the overflow check
        assertTrue(k.source().contains("tessera::q::AtomicAddChecked(&g_v0[s], s_v0[s], err);"), k.source());
        CudaKernelSource dense = factKernel(PAYLOAD_JOIN, Map.of(CudaVariantSpace.AGGREGATION, "dense"));
        assertTrue(dense.source().contains("tessera::q::AtomicAddChecked(&g_v0[grp], "), dense.source());
    }

    @Test
    void fullOccupancyAsksTheCompilerForRegistersFor2048ThreadsPerSm() {
        String full = factKernel(PAYLOAD_JOIN, Map.of(CudaVariantSpace.OCCUPANCY, "full")).source();
        assertTrue(full.contains("__launch_bounds__(TPB, MIN_BLOCKS_PER_SM)"), full);
        assertTrue(full.contains("#define MIN_BLOCKS_PER_SM (2048 / TPB < 32 ? 2048 / TPB : 32)"), full);
        String free = factKernel(PAYLOAD_JOIN, Map.of(CudaVariantSpace.OCCUPANCY, "free")).source();
        assertTrue(free.contains("__launch_bounds__(TPB) "), free);
        assertFalse(free.contains("MIN_BLOCKS_PER_SM"), free);
    }

    static int buildId(String sql) {
        return pipeline(plan(sql), CudaPipelineEmitterTest::builds).id();
    }

    static int count(String s, String part) {
        int n = 0;
        for (int i = s.indexOf(part); i >= 0; i = s.indexOf(part, i + 1)) {
            n++;
        }
        return n;
    }
}

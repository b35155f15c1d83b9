package io.tessera.backend.cuda.gen;

import io.tessera.backend.cuda.exec.GpuPlan;
import io.tessera.bench.GpuSelfTest;
import io.tessera.exec.Device;
import io.tessera.exec.QueryEngine;
import io.tessera.plan.Operation;
import io.tessera.plan.Pipeline;
import io.tessera.plan.QueryPlan;
import io.tessera.plan.Sink;
import io.tessera.plan.Source;
import io.tessera.storage.Database;
import io.tessera.variant.CudaVariantSpace;
import io.tessera.variant.Dimension;
import io.tessera.variant.Genome;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The sorted join tables (ht=sorted-binary, ht=sorted-pary) on {@link ExpandedBuildTest}'s three tables, whose
 * join keys repeat: which builds may take them, the BUILD that writes key words and payload at places from a
 * counter, the probes that search each row's range of keys (the p-ary search outside any branch on a row's flag, so
 * that the whole warp runs it), the fan-out over a range, and the selftest's covering set that runs both values on
 * the GPU machine. {@link CudaQueryCompileTest} compiles these kernels with nvcc.
 */
class SortedJoinTableTest {

    static final List<String> SORTED = List.of(CudaVariantSpace.SORTED_BINARY, CudaVariantSpace.SORTED_PARY);
    /** A semi join: the probe asks only whether a's (repeating) keys hold the row's. */
    static final String SEMI = "select count(*), sum(c.y) from c where c.j in (select k from a)";
    /** A join on two keys, which the sorted tables do not take. */
    /** A join on two keys neither of which is unique alone on the build side (one that is keys the table alone). */
    static final String TWO_KEYS = "select count(*) from b b1, b b2 where b1.k = b2.k and b1.j = b2.j";

    @TempDir
    static Path dir;
    static Database db;

    @BeforeAll
    static void setUp() {
        db = ExpandedBuildTest.write(dir);
    }

    @AfterAll
    static void tearDown() {
        db.close();
    }

    static QueryPlan plan(Database db, String sql) {
        return new QueryEngine(db).plan(sql, Device.GPU);
    }

    /** The plan placed with its default genomes, every build that allows it given table kind {@code ht}. */
    static GpuPlacement place(Database db, QueryPlan plan, String ht) {
        Map<Integer, Genome> free = CudaVariantSpace.INSTANCE.defaultsWith(plan, Map.of(CudaVariantSpace.HASH_TABLE, ht));
        return GpuPlacement.place(plan, CudaVariantSpace.INSTANCE.completeAll(plan, free), key -> GpuPlan.dictionary(db, key));
    }

    /** Every kernel of the chain query and of the semi join under both sorted tables, by a name for its file. */
    static Map<String, CudaKernelSource> kernels(Database db) {
        Map<String, CudaKernelSource> out = new LinkedHashMap<>();
        for (String ht : SORTED) {
            for (String sql : List.of(ExpandedBuildTest.SQL, SEMI)) {
                place(db, plan(db, sql), ht).kernels().values()
                        .forEach(k -> out.putIfAbsent("sorted_" + Integer.toHexString(k.source().hashCode()) + ".cu", k));
            }
        }
        return out;
    }

    private static List<Pipeline> builds(QueryPlan plan) {
        return plan.pipelines().stream().filter(p -> p.sink() instanceof Sink.Build).toList();
    }

    @Test
    void buildsOfOneIntegerKeyOfferBothSortedTablesUnderTheMultiplyShiftHashOnly() {
        QueryPlan plan = plan(db, ExpandedBuildTest.SQL);
        for (Pipeline build : builds(plan)) {
            List<String> ht = CudaVariantSpace.INSTANCE.dimensions(plan, build).stream()
                    .filter(d -> d.name().equals(CudaVariantSpace.HASH_TABLE)).findFirst().map(Dimension::values)
                    .orElseThrow();
            assertTrue(ht.containsAll(SORTED), ht.toString());
            Genome def = CudaVariantSpace.INSTANCE.defaultGenome(plan, build);
            assertFalse(CudaVariantSpace.sortedTable(def.get(CudaVariantSpace.HASH_TABLE)), "the default stays a hash table");
            for (String sorted : SORTED) {
                Genome g = def.with(CudaVariantSpace.HASH_TABLE, sorted);
                assertTrue(CudaVariantSpace.INSTANCE.valid(plan, build, g), sorted);
                // a sorted table does not hash: one variant, not two equal ones
                assertFalse(CudaVariantSpace.INSTANCE.valid(plan, build, g.with(CudaVariantSpace.HASH, "murmur")), sorted);
            }
        }
    }

    @Test
    void aJoinOnTwoKeysKeepsTheHashTables() {
        QueryPlan plan = plan(db, TWO_KEYS);
        Pipeline build = builds(plan).getFirst();
        assertEquals(2, ((Sink.Build) build.sink()).keys().size());
        Genome def = CudaVariantSpace.INSTANCE.defaultGenome(plan, build);
        for (String sorted : SORTED) {
            assertFalse(CudaVariantSpace.INSTANCE.valid(plan, build, def.with(CudaVariantSpace.HASH_TABLE, sorted)), sorted);
        }
    }

    @Test
    void everyBuildOfTheChainSortsItsKeysAndEveryPipelineRunsOnTheGpu() {
        QueryPlan plan = plan(db, ExpandedBuildTest.SQL);
        Pipeline expanding = ExpandedBuildTest.expanding(plan);
        for (String ht : SORTED) {
            GpuPlacement placed = place(db, plan, ht);
            for (Pipeline p : plan.pipelines()) {
                if (p.source() instanceof Source.TableScan) {
                    assertTrue(placed.onGpu(p.id()), ht + " pipeline " + p.id() + ": " + placed.jvmReasons().get(p.id()));
                }
            }
            for (Pipeline build : builds(plan)) {
                CudaKernelSource k = placed.kernels().get(build.id());
                SinkLayout.Build sb = (SinkLayout.Build) k.sink();
                assertEquals(ht, sb.table().kind().value());
                assertTrue(sb.table().sorted() && sb.table().chained(), "a's and b's keys repeat: " + sb.table());
                // the build after a probe of keys that repeat may make more rows than its input: the executor sizes it so
                assertEquals(build.id() == expanding.id(), sb.expanded(), ht + " pipeline " + build.id());
                String src = k.source();
                assertTrue(src.contains("BlockReserve<TPB>(build_cursor, build_selected)"), src);
                assertTrue(src.contains("build_keys[row] = tessera::search::KeyWord((long long)key);"), src);
                // NVRTC compiles each kernel on its own: the build names the search's KeyWord, so it includes it
                assertTrue(src.contains("#define TESSERA_SEARCH_DEVICE_ONLY\n#include \"tessera_search.cuh\""), src);
                assertTrue(src.contains("err |= TESSERA_ERR_TABLE_FULL;  // more rows than places"), src);
                assertFalse(src.contains("build_heads") || src.contains("build_log2"), "no slots, no chains: " + src);
                assertTrue(k.params().stream()
                        .anyMatch(p -> p.kind() == KernelParam.Kind.BUILD_ROWS), src);
            }
            // the last pipeline probes j1 (keys that repeat): each row's range, then its matches one per round
            Pipeline probing = plan.pipelines().stream().filter(p -> p.sink() instanceof Sink.GroupAggregate).findFirst()
                    .orElseThrow();
            String src = placed.kernels().get(probing.id()).source();
            assertTrue(src.contains("#define TESSERA_SEARCH_DEVICE_ONLY\n#include \"tessera_search.cuh\""), src);
            assertTrue(src.contains(ht.equals(CudaVariantSpace.SORTED_PARY) ? "tessera::search::JoinIndexBounds<4>(j1_keys, "
                    + "j1_rows, j1_index, j1_levels, q, flags[i] != 0, true, j1_lo[i], j1_hi[i]);"
                    : "tessera::search::JoinBinaryBounds(j1_keys, j1_rows, q, flags[i] != 0, true, j1_lo[i], j1_hi[i]);"), src);
            assertTrue(src.contains("const long long row = j1_order[j1_at[i]];  // the match's place"), src);
            assertTrue(src.contains("j1_at[i] = j1_at[i] + 1 < j1_hi[i] ? j1_at[i] + 1 : -1;"), src);
            assertTrue(src.contains("__syncthreads_or(j1_any)"), src);
        }
    }

    @Test
    void theSearchRunsOutsideAnyBranchOnTheRowsFlag() {
        QueryPlan plan = plan(db, ExpandedBuildTest.SQL);
        Pipeline probing = plan.pipelines().stream().filter(p -> p.sink() instanceof Sink.GroupAggregate).findFirst()
                .orElseThrow();
        String src = place(db, plan, CudaVariantSpace.SORTED_PARY).kernels().get(probing.id()).source();
        int search = src.indexOf("tessera::search::JoinIndexBounds<4>(j1_keys");
        int loop = src.lastIndexOf("for (int i = 0; i < IPT; ++i) {", search);
        String between = src.substring(loop, search);
        assertFalse(between.contains("if ("), "the p-ary search needs every lane of the warp: " + between);
        assertTrue(between.contains("const unsigned long long q = flags[i] ? tessera::search::KeyWord((long long)("),
                between);
    }

    @Test
    void aSemiJoinAsksForOnePlaceAtMost() {
        QueryPlan plan = plan(db, SEMI);
        Pipeline probing = plan.pipelines().stream()
                .filter(p -> p.operations().stream().anyMatch(o -> o instanceof Operation.Probe)).findFirst().orElseThrow();
        for (String ht : SORTED) {
            GpuPlacement placed = place(db, plan, ht);
            assertTrue(placed.onGpu(probing.id()), ht + ": " + placed.jvmReasons());
            String src = placed.kernels().get(probing.id()).source();
            assertTrue(src.contains("q, flags[i] != 0, false, j"), "no upper bound for a probe that asks for presence: " + src);
            assertFalse(src.contains("_round < "), "no rounds: " + src);
        }
    }

    /**
     * TPC-H Q4 and Q21 mark the rows of tables they build (EXISTS and NOT EXISTS with the preserved side built): a
     * sorted table has no slot for a mark, so those builds keep their hash tables, the other builds sort, and every
     * pipeline stays on the GPU.
     */
    @Test
    void tablesWhoseRowsAreMarkedKeepTheHashTables() {
        Database tpch = Database.openOrCreate(dir.resolve("tpch"));
        try {
            new io.tessera.data.tpch.TpchGenerator(0.01).generate(tpch, io.tessera.data.Progress.silent());
            for (io.tessera.bench.Queries.Query q : io.tessera.bench.Queries.tpch()) {
                if (!q.name().equals("q4") && !q.name().equals("q21")) {
                    continue;
                }
                QueryPlan plan = plan(tpch, q.sql());
                java.util.Set<Integer> marked = new java.util.HashSet<>();
                for (Pipeline p : plan.pipelines()) {
                    if (p.source() instanceof Source.JoinTableScan js) {
                        marked.add(js.joinId());
                    }
                    p.operations().forEach(o -> {
                        if (o instanceof Operation.Probe pr && pr.setsMarks()) {
                            marked.add(pr.joinId());
                        }
                    });
                }
                assertFalse(marked.isEmpty(), q.name() + " marks no table");
                for (String ht : SORTED) {
                    GpuPlacement placed = place(tpch, plan, ht);
                    for (Pipeline p : plan.pipelines()) {
                        if (!(p.sink() instanceof Sink.Build b)) {
                            continue;
                        }
                        Genome g = CudaVariantSpace.INSTANCE.defaultGenome(plan, p).with(CudaVariantSpace.HASH_TABLE, ht);
                        assertEquals(!marked.contains(b.joinId()), CudaVariantSpace.INSTANCE.valid(plan, p, g),
                                q.name() + " j" + b.joinId());
                        if (placed.onGpu(p.id())) {
                            SinkLayout.Build sb = (SinkLayout.Build) placed.kernels().get(p.id()).sink();
                            assertEquals(!marked.contains(b.joinId()), sb.table().sorted(), q.name() + " j" + b.joinId());
                        }
                    }
                    for (Pipeline p : plan.pipelines()) {
                        if (p.source() instanceof Source.TableScan) {
                            assertTrue(placed.onGpu(p.id()), q.name() + " " + ht + " pipeline " + p.id() + ": "
                                    + placed.jvmReasons().get(p.id()));
                        }
                    }
                }
            }
        } finally {
            tpch.close();
        }
    }

    @Test
    void theDefaultKernelsDoNotIncludeTheSearch() {
        QueryPlan plan = plan(db, ExpandedBuildTest.SQL);
        GpuPlacement placed = GpuPlacement.place(plan, CudaVariantSpace.INSTANCE.defaults(plan),
                key -> GpuPlan.dictionary(db, key));
        for (CudaKernelSource k : placed.kernels().values()) {
            assertFalse(k.source().contains("tessera_search.cuh"), k.source());
            if (k.sink() instanceof SinkLayout.Build sb) {
                assertFalse(sb.table().sorted(), sb.table().toString());
            }
        }
    }

    @Test
    void theSelftestRunsBothSortedTablesOnEveryBuildThatTakesThem() {
        QueryPlan plan = plan(db, ExpandedBuildTest.SQL);
        Map<String, Map<Integer, Genome>> variants = GpuSelfTest.coveringVariants(plan);
        for (String ht : SORTED) {
            Map<Integer, Genome> v = variants.get(CudaVariantSpace.HASH_TABLE + "=" + ht);
            assertTrue(v != null, variants.keySet().toString());
            for (Pipeline build : builds(plan)) {
                assertEquals(ht, v.get(build.id()).get(CudaVariantSpace.HASH_TABLE));
            }
            Map<Integer, Genome> completed = CudaVariantSpace.INSTANCE.completeAll(plan, v);
            Pipeline probing = plan.pipelines().stream().filter(p -> p.sink() instanceof Sink.GroupAggregate).findFirst()
                    .orElseThrow();
            assertEquals(ht, completed.get(probing.id()).get(CudaVariantSpace.probeTable(1)), "the probe reads its build's kind");
        }
        assertNotEquals(variants.get("ht=sorted-binary"), variants.get("ht=sorted-pary"));
    }
}

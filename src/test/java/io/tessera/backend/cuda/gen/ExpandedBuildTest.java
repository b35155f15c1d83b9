package io.tessera.backend.cuda.gen;

import io.tessera.backend.cuda.exec.GpuPlan;
import io.tessera.exec.Device;
import io.tessera.exec.QueryEngine;
import io.tessera.exec.TinyTables;
import io.tessera.plan.Operation;
import io.tessera.plan.Pipeline;
import io.tessera.plan.QueryPlan;
import io.tessera.plan.Sink;
import io.tessera.plan.Source;
import io.tessera.storage.Database;
import io.tessera.variant.CudaVariantSpace;
import io.tessera.variant.Genome;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A join table whose keys may repeat, built by a pipeline that first probes such a table (TPC-H Q9's shape, here on
 * three tiny tables joined in a chain on keys that repeat): the building pipeline's rows take places from a counter
 * ({@link SinkLayout.Build#expanded}) under every table kind, the other chained builds keep their input's row
 * numbers, and with the switch off the build stays on the JVM with the reason it had before. {@link
 * CudaQueryCompileTest} compiles these kernels with nvcc; {@code gpu_expanded_builds.test} checks the rows.
 */
class ExpandedBuildTest {

    /** a's keys repeat, b probes a's table and builds one on b.j (whose keys repeat), c probes it into groups. */
    static final String SQL = "select a.x, b.w % 3, sum(c.y), count(*) from a, b, c where a.k = b.k and b.j = c.j "
            + "group by a.x, b.w % 3";

    @TempDir
    static Path dir;
    static Database db;

    @BeforeAll
    static void setUp() {
        db = write(dir);
    }

    @AfterAll
    static void tearDown() {
        db.close();
    }

    /** The three tables of {@code gpu_expanded_builds.test}, written into {@code dir} and opened. */
    static Database write(Path dir) {
        TinyTables.write(dir, "a", "k INTEGER NOT NULL, x INTEGER NOT NULL",
                rows(1, 10, 1, 11, 2, 20, 3, 30, 3, 31, 3, 32, 5, 50));
        TinyTables.write(dir, "b", "k INTEGER NOT NULL, j INTEGER NOT NULL, w INTEGER NOT NULL",
                new Object[] {1, 0, 1}, new Object[] {1, 1, 2}, new Object[] {1, 0, 3}, new Object[] {2, 2, 4},
                new Object[] {2, 1, 5}, new Object[] {3, 0, 6}, new Object[] {3, 3, 7}, new Object[] {3, 3, 8},
                new Object[] {4, 2, 9}, new Object[] {1, 2, 10}, new Object[] {3, 1, 11}, new Object[] {6, 0, 12});
        int[] c = new int[60];
        for (int i = 0; i < 30; i++) {
            c[2 * i] = i * 7 % 10;
            c[2 * i + 1] = 100 + i;
        }
        TinyTables.write(dir, "c", "j INTEGER NOT NULL, y INTEGER NOT NULL", rows(c));
        return Database.open(dir);
    }

    private static Object[][] rows(int... pairs) {
        Object[][] rows = new Object[pairs.length / 2][];
        for (int i = 0; i < rows.length; i++) {
            rows[i] = new Object[] {pairs[2 * i], pairs[2 * i + 1]};
        }
        return rows;
    }

    static QueryPlan plan(Database db) {
        return new QueryEngine(db).plan(SQL, Device.GPU);
    }

    /** The pipeline that probes a table and builds one: the expanded build. */
    static Pipeline expanding(QueryPlan plan) {
        return plan.pipelines().stream().filter(p -> p.sink() instanceof Sink.Build
                && p.operations().stream().anyMatch(op -> op instanceof Operation.Probe)).findFirst().orElseThrow();
    }

    /** The plan placed with its default genomes, the expanded build's table of kind {@code ht}. */
    static GpuPlacement place(Database db, QueryPlan plan, String ht) {
        Map<Integer, Genome> free = new HashMap<>();
        for (Pipeline p : plan.pipelines()) {
            free.put(p.id(), CudaVariantSpace.INSTANCE.defaultGenome(plan, p));
        }
        Pipeline build = expanding(plan);
        free.put(build.id(), free.get(build.id()).with(CudaVariantSpace.HASH_TABLE, ht));
        return GpuPlacement.place(plan, CudaVariantSpace.INSTANCE.completeAll(plan, free),
                key -> GpuPlan.dictionary(db, key));
    }

    /** Every kernel of the query under each table kind of its expanded build, by a name for its file. */
    static Map<String, CudaKernelSource> kernels(Database db) {
        QueryPlan plan = plan(db);
        Map<String, CudaKernelSource> out = new LinkedHashMap<>();
        for (String ht : List.of("perfect", "linear", "cuckoo2", "cuckoo3", "cuckoo4")) {
            place(db, plan, ht).kernels().values().forEach(k -> out.put("expanded_" + ht + "_" + k.fileName(), k));
        }
        return out;
    }

    private static boolean hasParam(CudaKernelSource k, KernelParam.Kind kind) {
        return k.params().stream().anyMatch(p -> p.kind() == kind);
    }

    @Test
    void theBuildAfterAChainedProbeRunsOnTheGpuItsRowsPlacedByACounter() {
        QueryPlan plan = plan(db);
        Pipeline build = expanding(plan);
        Sink.Build b = (Sink.Build) build.sink();
        assertFalse(b.uniqueKeys(), "b.j repeats: the table chains its rows");
        GpuPlacement placed = place(db, plan, "perfect");
        for (Pipeline p : plan.pipelines()) {
            if (p.source() instanceof Source.TableScan) {
                assertTrue(placed.onGpu(p.id()), "pipeline " + p.id() + ": " + placed.jvmReasons().get(p.id()));
            }
        }
        CudaKernelSource k = placed.kernels().get(build.id());
        assertTrue(k.sink() instanceof SinkLayout.Build sb && sb.expanded() && sb.table().chained(), k.sink().toString());
        assertTrue(hasParam(k, KernelParam.Kind.BUILD_CURSOR) && hasParam(k, KernelParam.Kind.BUILD_ROWS), k.source());
        String src = k.source();
        int round = src.indexOf("__syncthreads_or(");
        int reserve = src.indexOf("BlockReserve<TPB>(build_cursor, build_selected)");
        assertTrue(round > 0 && reserve > round, "the places are reserved inside the probe's rounds: " + src);
        assertTrue(src.contains("if (row < build_rows) {") && src.contains("err |= TESSERA_ERR_TABLE_FULL;  // more rows"),
                src);
        assertFalse(src.contains("TileRow<TPB, IPT>(i, tile_size);  // its place"), src);
        // the first build chains a's rows by their numbers in its input, as every chained build before
        Pipeline first = plan.pipelines().stream().filter(p -> p.sink() instanceof Sink.Build && p.operations().isEmpty())
                .findFirst().orElseThrow();
        CudaKernelSource f = placed.kernels().get(first.id());
        assertTrue(f.sink() instanceof SinkLayout.Build fb && !fb.expanded() && fb.table().chained(), f.sink().toString());
        assertFalse(hasParam(f, KernelParam.Kind.BUILD_CURSOR), f.source());
        assertTrue(f.source().contains("const long long row = base + TileRow<TPB, IPT>(i, tile_size);"), f.source());
    }

    @Test
    void everyTableKindPlacesTheExpandedRowsByTheCounter() {
        QueryPlan plan = plan(db);
        Pipeline build = expanding(plan);
        for (String ht : List.of("linear", "cuckoo2", "cuckoo3", "cuckoo4")) {
            GpuPlacement placed = place(db, plan, ht);
            assertTrue(placed.onGpu(build.id()), ht + ": " + placed.jvmReasons());
            CudaKernelSource k = placed.kernels().get(build.id());
            String src = k.source();
            assertTrue(((SinkLayout.Build) k.sink()).expanded(), ht);
            assertEquals(1, src.split("BlockReserve<TPB>\\(build_cursor", -1).length - 1, ht + ": one reservation " + src);
            if (ht.startsWith("cuckoo")) {
                // pass 0 inserts the keys only; pass 1, which places the rows, reserves their places
                assertEquals(2, k.passes(), ht);
                assertTrue(src.indexOf("BlockReserve<TPB>(build_cursor") > src.indexOf("// pass 1:"), ht + ": " + src);
            }
        }
    }

    @Test
    void withTheSwitchOffTheBuildStaysOnTheJvmWithItsReason() {
        QueryPlan plan = plan(db);
        Pipeline build = expanding(plan);
        System.setProperty(GpuJoinSwitches.EXPANDED_PROPERTY, "false");
        try {
            GpuPlacement placed = place(db, plan, "perfect");
            assertFalse(placed.onGpu(build.id()));
            assertEquals("a table whose keys may repeat built from a probe whose build keys may repeat",
                    placed.jvmReasons().get(build.id()));
        } finally {
            System.clearProperty(GpuJoinSwitches.EXPANDED_PROPERTY);
        }
    }
}

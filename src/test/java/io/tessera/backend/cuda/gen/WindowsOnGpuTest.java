package io.tessera.backend.cuda.gen;

import io.tessera.backend.cuda.exec.GpuPlan;
import io.tessera.backend.cuda.ops.WindowScan;
import io.tessera.data.Progress;
import io.tessera.data.tpch.TpchGenerator;
import io.tessera.exec.Device;
import io.tessera.exec.QueryEngine;
import io.tessera.plan.Pipeline;
import io.tessera.plan.QueryPlan;
import io.tessera.plan.Sink;
import io.tessera.storage.Database;
import io.tessera.variant.CudaVariantSpace;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Window functions on the GPU: a WINDOW pipeline whose functions the device computes as the JVM does is placed there
 * (ranks, counts, integer and decimal sums, averages, minima and maxima over the whole partition or from its start),
 * with the plan of scans {@link GpuWindow} makes; any other function keeps it on the JVM with a reason naming it.
 */
class WindowsOnGpuTest {

    @TempDir
    static Path dir;
    static Database tpch;

    @BeforeAll
    static void setUp() {
        tpch = Database.openOrCreate(dir.resolve("tpch"));
        new TpchGenerator(0.01).generate(tpch, Progress.silent());
    }

    @AfterAll
    static void tearDown() {
        tpch.close();
    }

    static final String EXAMPLE = "select o_custkey, o_orderdate, o_totalprice, "
            + "row_number() over (partition by o_custkey order by o_orderdate) rn, "
            + "rank() over (partition by o_custkey order by o_orderdate) rk, "
            + "dense_rank() over (partition by o_custkey order by o_orderdate) dr, "
            + "sum(o_totalprice) over (partition by o_custkey) total, "
            + "count(*) over (partition by o_custkey order by o_orderdate) running "
            + "from orders where o_orderdate < date '1993-01-01'";

    /** The WINDOW pipeline of a query planned for the GPU, and why it stays on the JVM (null: it runs on the GPU). */
    private static String reason(String sql) {
        QueryPlan plan = new QueryEngine(tpch).plan(sql, Device.GPU);
        GpuPlacement placed = GpuPlacement.place(plan, CudaVariantSpace.INSTANCE.defaults(plan),
                key -> GpuPlan.dictionary(tpch, key));
        Pipeline window = window(plan);
        return placed.onGpu(window.id()) ? null : placed.jvmReasons().get(window.id());
    }

    private static Pipeline window(QueryPlan plan) {
        return plan.pipelines().stream().filter(p -> p.sink() instanceof Sink.Window).findFirst()
                .orElseThrow(() -> new AssertionError("no WINDOW in " + plan.explain()));
    }

    @Test
    void theExampleRunsWhollyOnTheGpu() {
        QueryPlan plan = new QueryEngine(tpch).plan(EXAMPLE, Device.GPU);
        GpuPlacement placed = GpuPlacement.place(plan, CudaVariantSpace.INSTANCE.defaults(plan),
                key -> GpuPlan.dictionary(tpch, key));
        assertEquals(plan.pipelines().size(), placed.kernels().size(), placed.jvmReasons().toString());
        Sink.Window w = (Sink.Window) window(plan).sink();
        GpuWindow g = GpuWindow.of(w);
        assertEquals(1, g.partition().size());
        assertEquals(1, g.order().size());
        List<WindowScan.Result> results = g.steps().stream().map(GpuWindow.Step::result).toList();
        assertEquals(List.of(WindowScan.Result.ROW_NUMBER, WindowScan.Result.RANK, WindowScan.Result.SCANNED,
                WindowScan.Result.COUNT_STAR, WindowScan.Result.SUM_OR_NULL), results, w.toString());
        // the sum over the whole partition, the count up to the row's last peer
        assertEquals(WindowScan.Frame.PEERS, g.steps().get(3).frame());
        assertTrue(g.steps().get(3).peers());
        assertEquals(WindowScan.Frame.PARTITION, g.steps().get(4).frame());
    }

    @Test
    void partitionsOfEverySizeAndTheFramesFromTheStartRunOnTheGpu() {
        for (String sql : List.of(
                "select o_orderkey, count(*) over (), sum(o_totalprice) over (), avg(o_totalprice) over (), "
                        + "min(o_orderdate) over (), max(o_orderkey) over () from orders",
                "select o_orderkey, o_orderpriority, rank() over (partition by o_orderpriority order by o_totalprice desc), "
                        + "avg(o_shippriority) over (partition by o_orderpriority order by o_totalprice desc) "
                        + "from orders where o_orderkey < 5000",
                "select l_orderkey, l_linenumber, sum(l_quantity) over (partition by l_orderkey order by l_linenumber "
                        + "rows between unbounded preceding and current row), count(l_quantity) over (partition by "
                        + "l_orderkey order by l_linenumber rows unbounded preceding), max(l_shipdate) over (partition by "
                        + "l_orderkey order by l_linenumber) from lineitem where l_orderkey < 1000",
                "select c_nationkey, c_custkey, dense_rank() over (order by c_nationkey), "
                        + "sum(c_custkey) over (order by c_nationkey range between unbounded preceding and unbounded "
                        + "following) from customer")) {
            assertNull(reason(sql), sql);
        }
    }

    @Test
    void theSelftestsWindowQueriesRunTheirWindowsOnTheGpu() {
        int windows = 0;
        for (io.tessera.bench.Queries.Query q : io.tessera.bench.GpuSelfTest.TPCH_ROWS) {
            if (q.name().startsWith("window-")) {
                assertNull(reason(q.sql()), q.name());
                windows++;
            }
        }
        assertEquals(5, windows);
    }

    @Test
    void whatTheGpuCannotComputeStaysOnTheJvmWithTheFunctionNamed() {
        String lag = reason("select o_orderkey, lag(o_totalprice) over (partition by o_custkey order by o_orderdate) "
                + "from orders");
        assertNotNull(lag);
        assertTrue(lag.contains("LAG"), lag);
        String dbl = reason("select o_orderkey, sum(cast(o_totalprice as double)) over (partition by o_custkey) "
                + "from orders");
        assertTrue(dbl != null && dbl.contains("SUM") && dbl.contains("DOUBLE"), dbl);
        String frame = reason("select o_orderkey, sum(o_totalprice) over (partition by o_custkey order by o_orderdate "
                + "rows between 1 preceding and current row) from orders");
        assertTrue(frame != null && frame.contains("frame"), frame);
        String partitions = reason("select o_orderkey, row_number() over (partition by o_custkey order by o_orderdate), "
                + "row_number() over (partition by o_orderpriority order by o_orderdate) from orders");
        assertTrue(partitions != null && partitions.contains("PARTITION BY"), partitions);
        String strings = reason("select o_orderkey, min(o_clerk) over (partition by o_custkey) from orders");
        assertTrue(strings != null && strings.contains("MIN"), strings);
        String ntile = reason("select o_orderkey, ntile(4) over (order by o_orderkey) from orders");
        assertTrue(ntile != null && ntile.contains("NTILE"), ntile);
    }

    @Test
    void groupsFramesAndExcludeClausesStayOnTheJvmWithTheFrameNamed() {
        String groups = reason("select o_orderkey, sum(o_totalprice) over (partition by o_custkey order by o_orderdate "
                + "groups between unbounded preceding and 1 following) from orders");
        assertTrue(groups != null && groups.contains("groups between unbounded preceding and 1 following"), groups);
        // from the partition's start to the row, as the GPU computes it, but less the row itself
        String exclude = reason("select o_orderkey, count(*) over (partition by o_custkey order by o_orderdate "
                + "rows between unbounded preceding and current row exclude current row) from orders");
        assertTrue(exclude != null && exclude.contains("exclude current row"), exclude);
        String ties = reason("select o_orderkey, max(o_totalprice) over (partition by o_custkey order by o_orderdate "
                + "range between unbounded preceding and unbounded following exclude ties) from orders");
        assertTrue(ties != null && ties.contains("exclude ties"), ties);
        String nth = reason("select o_orderkey, nth_value(o_totalprice, 2) over (partition by o_custkey "
                + "order by o_orderdate) from orders");
        assertTrue(nth != null && nth.contains("NTH_VALUE"), nth);
    }
}

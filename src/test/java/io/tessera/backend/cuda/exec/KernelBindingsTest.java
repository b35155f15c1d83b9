package io.tessera.backend.cuda.exec;

import io.tessera.exec.*;
import io.tessera.backend.cuda.driver.KernelArgs;
import io.tessera.backend.cuda.gen.CudaKernelSource;
import io.tessera.backend.cuda.gen.GpuPlacement;
import io.tessera.backend.cuda.gen.KernelParam;
import io.tessera.bench.Queries;
import io.tessera.data.ssb.SmallSsb;
import io.tessera.plan.Pipeline;
import io.tessera.plan.QueryPlan;
import io.tessera.plan.Source;
import io.tessera.variant.CudaVariantSpace;
import io.tessera.variant.Genome;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The bindings a GPU pipeline's launches share across its variants: SSB q4.1's lineorder kernel lists its
 * parameters in another order under another probe order and gather, and each variant's launch over a block of rows
 * gets the same buffers in its own order, its columns offset to the block's first row. A kernel whose sink the
 * buffers were not made for is refused.
 */
class KernelBindingsTest extends SmallSsb {

    private static CudaKernelSource kernel(QueryPlan plan, int focus, Map<String, String> values) {
        Genome g = CudaVariantSpace.INSTANCE.defaults(plan).get(focus);
        for (Map.Entry<String, String> v : values.entrySet()) {
            g = g.with(v.getKey(), v.getValue());
        }
        GpuPlacement placed = GpuPlacement.place(plan, GpuPlan.genomes(plan, Map.of(focus, g)),
                k -> GpuPlan.dictionary(db, k));
        return placed.kernels().get(focus);
    }

    private static int lineorderPipeline(QueryPlan plan) {
        for (Pipeline p : plan.pipelines()) {
            if (p.source() instanceof Source.TableScan s && s.table().name().equals("lineorder")) {
                return p.id();
            }
        }
        throw new AssertionError("no lineorder scan");
    }

    /** Binds every parameter of {@code k} to a made-up value of its own, columns 4 or 8 bytes wide. */
    private static Map<String, Long> bindAll(KernelBindings b, CudaKernelSource k) {
        Map<String, Long> value = new HashMap<>();
        long next = 1 << 20;
        for (KernelParam p : k.params()) {
            next += 1 << 16;
            switch (p.kind()) {
                case ROWS, PASS -> {
                }
                case COLUMN -> b.column(p, next, p.cType().contains("long long") ? 8 : 4);
                case PROBE_MIN, PROBE_SLOTS -> b.i64(p, next);
                case PROBE_LOG2, GROUP_LOG2 -> b.i32(p, (int) next);
                default -> b.ptr(p, next);
            }
            value.put(p.name(), next);
        }
        return value;
    }

    @Test
    void variantsOfOnePipelineGetTheSameBuffersInTheirOwnOrder() {
        QueryEngine engine = new QueryEngine(db, 1, Device.CPU, null);
        QueryPlan plan = engine.plan(Queries.sql("ssb", "q4.1"), Device.GPU);
        int focus = lineorderPipeline(plan);
        CudaKernelSource a = kernel(plan, focus, Map.of(CudaVariantSpace.PROBE_ORDER, "selectivity",
                CudaVariantSpace.GATHER, "early"));
        CudaKernelSource b = kernel(plan, focus, Map.of(CudaVariantSpace.PROBE_ORDER, "written",
                CudaVariantSpace.GATHER, "late", CudaVariantSpace.TPB, "256", CudaVariantSpace.IPT, "8"));
        assertNotEquals(a.params(), b.params(), "the variants list their parameters in another order");
        assertEquals(new HashSet<>(a.params()), new HashSet<>(b.params()));

        KernelBindings bindings = new KernelBindings();
        Map<String, Long> value = bindAll(bindings, a);
        long first = 3 * 16384;
        long rows = 16384;
        List<KernelArgs.Arg> args = bindings.args(b.params(), 0, first, rows).args();
        assertEquals(b.params().size(), args.size());
        for (int i = 0; i < args.size(); i++) {
            KernelParam p = b.params().get(i);
            long bits = args.get(i).bits();
            switch (p.kind()) {
                case ROWS -> assertEquals(rows, bits);
                case COLUMN -> assertEquals(value.get(p.name()) + first * (p.cType().contains("long long") ? 8 : 4),
                        bits, p.name());
                case PROBE_LOG2, GROUP_LOG2 -> assertEquals((int) (long) value.get(p.name()), (int) bits, p.name());
                default -> assertEquals(value.get(p.name()), bits, p.name());
            }
        }
        // the whole input from row 0: the columns at their base
        List<KernelArgs.Arg> whole = bindings.args(a.params(), 0, 0, 1000).args();
        for (int i = 0; i < whole.size(); i++) {
            if (a.params().get(i).kind() == KernelParam.Kind.COLUMN) {
                assertEquals(value.get(a.params().get(i).name()), whole.get(i).bits());
            }
        }
    }

    @Test
    void anotherPassChangesOnlyItsIntArgument() {
        KernelParam out = new KernelParam(KernelParam.Kind.OUT_COLUMN, 0, "out0", "int*");
        KernelParam pass = new KernelParam(KernelParam.Kind.PASS, -1, "pass", "const int");
        KernelParam n = new KernelParam(KernelParam.Kind.ROWS, -1, "n", "const long long");
        KernelBindings b = new KernelBindings();
        b.ptr(out, 16);
        assertThrows(IllegalArgumentException.class, () -> b.i32(pass, 0), "the pass is given per launch");
        List<KernelParam> params = List.of(out, pass, n);
        assertEquals("(ptr 0x10, int 0, long 4)", b.args(params, 0, 0, 4).toString());
        assertEquals("(ptr 0x10, int 1, long 4)", b.args(params, 1, 0, 4).toString());
    }

    @Test
    void aKernelWithOtherSinkBuffersIsRefused() {
        QueryEngine engine = new QueryEngine(db, 1, Device.CPU, null);
        QueryPlan plan = engine.plan(Queries.sql("ssb", "q4.1"), Device.GPU);
        int focus = lineorderPipeline(plan);
        CudaKernelSource dense = kernel(plan, focus, Map.of(CudaVariantSpace.AGGREGATION, "dense"));
        CudaKernelSource shared = kernel(plan, focus, Map.of(CudaVariantSpace.AGGREGATION, "shared"));
        KernelBindings bindings = new KernelBindings();
        bindAll(bindings, dense);
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> bindings.args(shared.params(), 0, 0, 100));
        assertTrue(e.getMessage().contains("differ from those its buffers were made for"), e.getMessage());
        KernelParam rows = dense.params().stream().filter(p -> p.kind() == KernelParam.Kind.ROWS).findFirst().orElseThrow();
        assertThrows(IllegalArgumentException.class, () -> bindings.i64(rows, 5));
    }
}

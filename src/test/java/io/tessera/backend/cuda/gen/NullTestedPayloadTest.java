package io.tessera.backend.cuda.gen;

import io.tessera.backend.cuda.exec.GpuPlan;
import io.tessera.data.ssb.SmallSsb;
import io.tessera.plan.JoinKind;
import io.tessera.plan.Operation;
import io.tessera.plan.Pipeline;
import io.tessera.plan.QueryPlan;
import io.tessera.variant.CudaVariantSpace;
import io.tessera.variant.Genome;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A LEFT probe fetches only the payload columns a later expression reads as a value: a column read only through
 * IS [NOT] NULL is answered from the probe's hit flag, and its value is neither a kernel parameter nor a register
 * (which nvcc would warn about as set but never used).
 */
class NullTestedPayloadTest extends SmallSsb {

    /** The kernel of the pipeline with the query's LEFT probe, and that probe's join id. */
    private record Probed(String source, int joinId) {
        String j() {
            return "j" + joinId;
        }
    }

    private static Probed leftProbe(String sql) {
        return leftProbe(sql, Map.of());
    }

    /** As {@link #leftProbe(String)}, with these dimension values in every pipeline that has the dimension. */
    private static Probed leftProbe(String sql, Map<String, String> values) {
        QueryPlan plan = CudaCapabilitiesTest.plan(sql);
        Map<Integer, Genome> genomes = new HashMap<>(CudaVariantSpace.INSTANCE.defaults(plan));
        genomes.replaceAll((id, g) -> {
            Genome out = g;
            for (Map.Entry<String, String> v : values.entrySet()) {
                out = g.has(v.getKey()) ? out.with(v.getKey(), v.getValue()) : out;
            }
            return out;
        });
        GpuPlacement placed = GpuPlacement.place(plan, genomes, key -> GpuPlan.dictionary(db, key));
        for (Pipeline p : plan.pipelines()) {
            for (Operation op : p.operations()) {
                if (op instanceof Operation.Probe pr && pr.kind() == JoinKind.LEFT) {
                    assertTrue(placed.onGpu(p.id()), placed.jvmReasons().toString());
                    return new Probed(placed.kernels().get(p.id()).source(), pr.joinId());
                }
            }
        }
        throw new AssertionError("no LEFT probe in " + plan.pipelines());
    }

    @Test
    void aPayloadOnlyTestedForNullIsNotFetched() {
        Probed k = leftProbe("select count(*), count(*) filter (where d_year is not null) from lineorder "
                + "left join ddate on lo_orderdate = d_datekey where d_year is null or lo_quantity > 40");
        String j = k.j();
        assertTrue(k.source().contains(j + "_hit[i] = true;"), k.source());
        assertTrue(k.source().contains("(!" + j + "_hit[i])"), k.source());
        assertFalse(k.source().contains(j + "_pay"), k.source());
        assertFalse(k.source().contains(j + "_p"), k.source());
    }

    @Test
    void aPayloadAlsoReadAsAValueIsFetched() {
        Probed k = leftProbe("select sum(d_year) from lineorder left join ddate on lo_orderdate = d_datekey "
                + "where d_year is null or lo_quantity > 40");
        String j = k.j();
        assertTrue(k.source().contains(j + "_hit[i] = true;"), k.source());
        assertTrue(k.source().contains("(!" + j + "_hit[i])"), k.source());
        assertTrue(k.source().matches("(?s).*" + j + "_p\\d+\\[i\\] = " + j + "_pay\\d+\\[slot\\];.*"), k.source());
    }

    @Test
    void rowsWithANullTestedPayloadProbeAgainForTheHitFlagAlone() {
        // mat=bitmap: pass 0 reads nothing of the join; pass 1 probes again for the hit flags the outputs test
        Probed k = leftProbe("select lo_orderkey, d_year is null as missing from lineorder "
                + "left join ddate on lo_orderdate = d_datekey where lo_quantity > 40",
                Map.of(CudaVariantSpace.MATERIALIZATION, "bitmap"));
        String j = k.j();
        String source = k.source();
        assertTrue(source.contains("if (pass == 0)"), source);
        int secondPass = source.indexOf("pass 1: only the tiles with rows");
        assertTrue(secondPass > 0, source);
        assertFalse(source.substring(0, secondPass).contains(j + "_hit"), source);
        assertTrue(source.substring(secondPass).contains(j + "_hit[i] = true;"), source);
        assertTrue(source.contains("(!" + j + "_hit[i])"), source);
        assertFalse(source.contains(j + "_pay") || source.contains(j + "_p"), source);
    }
}

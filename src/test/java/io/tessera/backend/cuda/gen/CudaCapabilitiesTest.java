package io.tessera.backend.cuda.gen;

import io.tessera.data.ssb.SmallSsb;
import io.tessera.backend.cuda.exec.GpuPlan;
import io.tessera.exec.Device;
import io.tessera.exec.QueryEngine;
import io.tessera.sql.LikePattern;
import io.tessera.plan.Pipeline;
import io.tessera.plan.QueryPlan;
import io.tessera.plan.Sink;
import io.tessera.variant.CudaVariantSpace;
import io.tessera.variant.Genome;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The capability check decides placement over the plan, before any code is emitted, with the reasons the emitter's
 * failures gave ({@link CudaKernelHashTest} pins them for many queries); an accepted pipeline always has code.
 */
class CudaCapabilitiesTest extends SmallSsb {

    static QueryPlan plan(String sql) {
        return new QueryEngine(db).plan(sql, Device.GPU);
    }

    static String reason(QueryPlan plan, Pipeline p, Map<Integer, JoinLayout> tables) {
        Genome g = CudaVariantSpace.INSTANCE.defaults(plan).get(p.id());
        return CudaCapabilities.reason(p, g, tables::get, key -> GpuPlan.dictionary(db, key));
    }

    @Test
    void namesWhatTheGpuLacks() {
        QueryPlan replace = plan("select replace(c_name, 'a', 'b') from customer where c_custkey < 10");
        assertEquals("replace(...) (the CUDA generator has no code for this string function)",
                reason(replace, replace.pipelines().get(0), Map.of()));
        // a function of two columns is no map of one column's codes
        QueryPlan two = plan("select upper(c_name || c_city) from customer where c_custkey < 10");
        assertEquals("upper(...)", reason(two, two.pipelines().get(0), Map.of()));
        QueryPlan cases = plan("select case when lo_discount > 5 then 'high' else 'low' end, count(*) from lineorder group by 1");
        assertEquals("CASE giving a string that is not one column's code", reason(cases, cases.pipelines().get(0), Map.of()));
        QueryPlan in = plan("select count(*) from lineorder where lo_discount in (" + CudaKernelHashTest.inList(70) + ")");
        assertEquals("an IN list of 70 values", reason(in, in.pipelines().get(0), Map.of()));
        QueryPlan sorted = plan("select lo_discount, count(*) from lineorder group by lo_discount order by 2");
        Pipeline last = sorted.pipelines().get(sorted.pipelines().size() - 1);
        // a relation is read only where a GPU kernel left it on the device, which none did here
        assertEquals("it reads r0, which no GPU kernel leaves on the device", reason(sorted, last, Map.of()));
    }

    /**
     * A pipeline that aggregates the groups of a GPU aggregation, or builds a join table from them, is a kernel over
     * the group table's slots; one that reads a group's AVG (whose final value the host computes) or an aggregate
     * with a FILTER clause (which can be NULL) reads the groups' rows as columns instead, with NULL flags beside a
     * column that can be NULL.
     */
    @Test
    void aScanOfGroupsOnTheDeviceBuildsOrAggregates() {
        QueryPlan max = plan("select count(*), max(s) from (select lo_orderdate, sum(lo_revenue) as s from lineorder "
                + "group by lo_orderdate) t");
        GpuPlacement placed = GpuPlacement.place(max, CudaVariantSpace.INSTANCE.defaults(max), key -> GpuPlan.dictionary(db, key));
        Pipeline over = max.pipelines().get(1);
        assertTrue(placed.onGpu(over.id()), placed.jvmReasons().toString());
        String src = placed.kernels().get(over.id()).source();
        assertTrue(src.contains("flags[i] = grp_rows[s] != 0ull") && src.contains("grp_v0["), src);
        // SUM of the AVGs: a MAX of doubles stays on the JVM (NaN's order, CudaNanOrderTest)
        QueryPlan avg = plan("select count(*), sum(a) from (select lo_orderdate, avg(lo_revenue) as a from lineorder "
                + "group by lo_orderdate) t");
        placed = GpuPlacement.place(avg, CudaVariantSpace.INSTANCE.defaults(avg), key -> GpuPlan.dictionary(db, key));
        Pipeline overAvg = avg.pipelines().get(1);
        assertTrue(placed.onGpu(overAvg.id()), placed.jvmReasons().toString());
        src = placed.kernels().get(overAvg.id()).source();
        assertTrue(src.contains("BlockLoad<TPB, IPT>(col1 + base") && !src.contains("grp_rows"), src);
        QueryPlan filtered = plan("select count(*), max(f) from (select lo_orderdate, sum(lo_revenue) filter "
                + "(where lo_discount > 2) as f from lineorder group by lo_orderdate) t");
        placed = GpuPlacement.place(filtered, CudaVariantSpace.INSTANCE.defaults(filtered), key -> GpuPlan.dictionary(db, key));
        Pipeline overFiltered = filtered.pipelines().get(1);
        assertTrue(placed.onGpu(overFiltered.id()), placed.jvmReasons().toString());
        src = placed.kernels().get(overFiltered.id()).source();
        assertTrue(src.contains("const unsigned char* __restrict__ col1_null") && src.contains("if (c1_null[i]) c1[i] = "),
                src);
    }

    /**
     * A HAVING before an ORDER BY over the groups of a GPU aggregation is a kernel over the group table's slots that
     * writes only the rows the filter keeps, so that no group goes to the host and back; one that reads an AVG
     * still reads the groups' rows as columns, which the host finished.
     */
    @Test
    void aFilterOverGroupsOnTheDeviceWritesOnlyTheRowsItKeeps() {
        QueryPlan having = plan("select lo_orderdate, sum(lo_revenue) as s from lineorder group by lo_orderdate "
                + "having sum(lo_revenue) > 1000 order by s desc");
        GpuPlacement placed = GpuPlacement.place(having, CudaVariantSpace.INSTANCE.defaults(having),
                key -> GpuPlan.dictionary(db, key));
        Pipeline sort = having.pipelines().get(having.pipelines().size() - 1);
        assertTrue(sort.sink() instanceof Sink.Sort && !sort.operations().isEmpty(), sort.toString());
        assertTrue(placed.onGpu(sort.id()), placed.jvmReasons().toString());
        String src = placed.kernels().get(sort.id()).source();
        assertTrue(src.contains("flags[i] = grp_rows[s] != 0ull") && src.contains("grp_v0[")
                && src.contains("out1[row] = "), src);
        assertFalse(src.contains("BlockLoad<TPB, IPT>(col"), src);
        QueryPlan avg = plan("select lo_orderdate, avg(lo_revenue) as a from lineorder group by lo_orderdate "
                + "having avg(lo_revenue) > 1000 order by a desc");
        placed = GpuPlacement.place(avg, CudaVariantSpace.INSTANCE.defaults(avg), key -> GpuPlan.dictionary(db, key));
        Pipeline sortAvg = avg.pipelines().get(avg.pipelines().size() - 1);
        assertTrue(placed.onGpu(sortAvg.id()), placed.jvmReasons().toString());
        src = placed.kernels().get(sortAvg.id()).source();
        assertTrue(src.contains("BlockLoad<TPB, IPT>(col1 + base") && !src.contains("grp_rows"), src);
    }

    /**
     * Groups of a GPU aggregation that only mark the rows of a table the outer side of a semi join built (TPC-H Q20's
     * shape) are a kernel over the group table's slots: only a slot that holds a group probes and marks, and no
     * group goes to the host and back; one that reads a group's AVG still reads the groups' rows as columns.
     */
    @Test
    void aScanOfGroupsOnTheDeviceMarksTheRowsOfAJoinTable() {
        QueryPlan sum = plan("select s_suppkey, s_name from supplier where s_region = 'AMERICA' and s_suppkey in "
                + "(select lo_suppkey from (select lo_suppkey, lo_partkey, sum(lo_quantity) as q from lineorder "
                + "group by lo_suppkey, lo_partkey) g where q < 20)");
        GpuPlacement placed = GpuPlacement.place(sum, CudaVariantSpace.INSTANCE.defaults(sum), key -> GpuPlan.dictionary(db, key));
        Pipeline marks = marking(sum);
        assertTrue(placed.onGpu(marks.id()), placed.jvmReasons().toString());
        String src = placed.kernels().get(marks.id()).source();
        assertTrue(src.contains("flags[i] = grp_rows[s] != 0ull") && src.contains("grp_v0[")
                && src.contains("_marks[slot] = 1u;") && src.contains("// MARKS j"), src);
        assertFalse(src.contains("<TPB, IPT>(col"), src);
        QueryPlan avg = plan("select s_suppkey, s_name from supplier where s_region = 'AMERICA' and s_suppkey in "
                + "(select lo_suppkey from (select lo_suppkey, lo_partkey, avg(lo_quantity) as q from lineorder "
                + "group by lo_suppkey, lo_partkey) g where q < 20)");
        placed = GpuPlacement.place(avg, CudaVariantSpace.INSTANCE.defaults(avg), key -> GpuPlan.dictionary(db, key));
        Pipeline marksAvg = marking(avg);
        assertTrue(placed.onGpu(marksAvg.id()), placed.jvmReasons().toString());
        src = placed.kernels().get(marksAvg.id()).source();
        assertTrue(src.contains("<TPB, IPT>(col") && src.contains("_marks[slot] = 1u;") && !src.contains("grp_rows"), src);
    }

    /** The pipeline of a plan that reads the groups of an aggregation and only marks a join table's rows. */
    private static Pipeline marking(QueryPlan plan) {
        return plan.pipelines().stream()
                .filter(p -> p.sink() instanceof Sink.Marks && p.source() instanceof io.tessera.plan.Source.RelationScan)
                .findFirst().orElseThrow(() -> new AssertionError("no pipeline marks from groups: " + plan));
    }

    @Test
    void aProbeNeedsItsTableOnTheDevice() {
        QueryPlan plan = plan("select count(*) from lineorder, ddate where lo_orderdate = d_datekey and d_year = 1993");
        Pipeline fact = plan.pipelines().stream().filter(p -> !(p.sink() instanceof Sink.Build)).findFirst().orElseThrow();
        assertEquals("join j0 has its table on the JVM", reason(plan, fact, Map.of()));
        GpuPlacement placed = GpuPlacement.place(plan, CudaVariantSpace.INSTANCE.defaults(plan), key -> GpuPlan.dictionary(db, key));
        assertTrue(placed.onGpu(fact.id()), placed.jvmReasons().toString());
        Pipeline build = plan.pipelines().get(0);
        JoinLayout table = ((SinkLayout.Build) placed.kernels().get(build.id()).sink()).table();
        assertNull(reason(plan, fact, Map.of(table.joinId(), table)));
    }

    @Test
    void aPrefixLikeIsAcceptedWithoutScanningTheDictionary() {
        for (String prefix : new String[] {"MFGR#12%", "MFGR#1221", "%", "a\\%b%"}) {
            assertTrue(CudaExprSupport.prefixOrExact(LikePattern.toRegex(prefix, '\\')), prefix);
        }
        for (String other : new String[] {"%12", "MFGR#1_", "M%1%", "MFGR%%", "_"}) {
            assertFalse(CudaExprSupport.prefixOrExact(LikePattern.toRegex(other, '\\')), other);
        }
        QueryPlan plan = plan("select count(*) from part where p_brand1 like 'MFGR#12%'");
        GpuPlacement placed = GpuPlacement.place(plan, CudaVariantSpace.INSTANCE.defaults(plan), key -> GpuPlan.dictionary(db, key));
        assertTrue(placed.onGpu(plan.pipelines().get(0).id()), placed.jvmReasons().toString());
        assertTrue(placed.kernels().values().iterator().next().source().contains(" >= "), "a range of codes");
    }

    @Test
    void aJoinOnTwoIntegerKeysPacksThemIntoOneAndItsSwitchTurnsItOff() {
        // a build side on which neither key is unique alone (a key unique alone keys the table by itself)
        QueryPlan plan = plan("select count(*) from lineorder a, lineorder b where a.lo_orderkey = b.lo_orderkey "
                + "and a.lo_linenumber = b.lo_linenumber");
        Map<Integer, Genome> genomes = CudaVariantSpace.INSTANCE.defaults(plan);
        GpuPlacement placed = GpuPlacement.place(plan, genomes, key -> GpuPlan.dictionary(db, key));
        for (Pipeline p : plan.pipelines()) {
            assertTrue(placed.onGpu(p.id()), placed.jvmReasons().toString());
        }
        String all = String.join("\n", placed.kernels().values().stream().map(CudaKernelSource::source).toList());
        assertTrue(all.contains("const long long key = tessera::q::PackKeys("), all);
        assertTrue(all.contains("the two keys packed into one"), all);
        // 64-bit keys are packed where their values fit in 32 bits
        QueryPlan wide = plan("select count(*) from lineorder a, lineorder b where a.lo_orderkey = b.lo_orderkey "
                + "and cast(a.lo_linenumber as bigint) = cast(b.lo_linenumber as bigint)");
        GpuPlacement widePlaced = GpuPlacement.place(wide, CudaVariantSpace.INSTANCE.defaults(wide),
                key -> GpuPlan.dictionary(db, key));
        for (Pipeline p : wide.pipelines()) {
            assertTrue(widePlaced.onGpu(p.id()), widePlaced.jvmReasons().toString());
        }
        String wideAll = String.join("\n", widePlaced.kernels().values().stream().map(CudaKernelSource::source).toList());
        assertTrue(wideAll.contains("const long long key = tessera::q::PackKeysIf32("), wideAll);
        System.setProperty(GpuJoinSwitches.MULTI_KEY_PROPERTY, "false");
        try {
            GpuPlacement off = GpuPlacement.place(plan, genomes, key -> GpuPlan.dictionary(db, key));
            assertTrue(off.kernels().isEmpty(), off.kernels().keySet().toString());
            assertTrue(off.jvmReasons().containsValue("a join on 2 keys"), off.jvmReasons().toString());
        } finally {
            System.clearProperty(GpuJoinSwitches.MULTI_KEY_PROPERTY);
        }
    }

    /**
     * EXISTS and NOT EXISTS whose outer side (supplier) builds: lineorder's probe marks the slots it finds, and the
     * scan of the table's matched or unmatched slots aggregates on the device; switched off, all of it runs on the
     * JVM with the reasons of before.
     */
    @Test
    void marksAndTheScansOfMarkedRowsRunOnTheDeviceAndTheirSwitchTurnsThemOff() {
        for (boolean matched : new boolean[] {true, false}) {
            QueryPlan plan = plan("select s_region, count(*) from supplier where " + (matched ? "" : "not ")
                    + "exists (select * from lineorder where lo_suppkey = s_suppkey and lo_quantity < 3) group by s_region");
            assertTrue(plan.pipelines().stream().anyMatch(p -> p.sink() instanceof Sink.Marks), plan.toString());
            Map<Integer, Genome> genomes = CudaVariantSpace.INSTANCE.defaults(plan);
            GpuPlacement placed = GpuPlacement.place(plan, genomes, key -> GpuPlan.dictionary(db, key));
            for (Pipeline p : plan.pipelines()) {
                if (!(p.source() instanceof io.tessera.plan.Source.RelationScan)) {
                    assertTrue(placed.onGpu(p.id()), p + ": " + placed.jvmReasons());
                }
            }
            String all = String.join("\n", placed.kernels().values().stream().map(CudaKernelSource::source).toList());
            assertTrue(all.contains("if (slot >= 0) j0_marks[slot] = 1u;"), all);
            assertTrue(all.contains("// MARKS j0"), all);
            assertTrue(all.contains(" && scan_marks[s] " + (matched ? "!=" : "==") + " 0u;"), all);
            System.setProperty(GpuJoinSwitches.MARKS_PROPERTY, "false");
            try {
                GpuPlacement off = GpuPlacement.place(plan, genomes, key -> GpuPlan.dictionary(db, key));
                assertTrue(off.kernels().isEmpty(), off.kernels().keySet().toString());
                assertTrue(off.jvmReasons().values().stream().anyMatch(r -> r.startsWith("a probe that marks the build rows of j0")),
                        off.jvmReasons().toString());
            } finally {
                System.clearProperty(GpuJoinSwitches.MARKS_PROPERTY);
            }
        }
    }
}

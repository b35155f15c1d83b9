package io.tessera.backend.cuda.gen;

import io.tessera.bench.GpuSelfTest;
import io.tessera.bench.Queries;
import io.tessera.data.Progress;
import io.tessera.data.ssb.SsbGenerator;
import io.tessera.data.tpch.TpchGenerator;
import io.tessera.backend.cuda.exec.GpuPlan;
import io.tessera.exec.Device;
import io.tessera.exec.QueryEngine;
import io.tessera.plan.Pipeline;
import io.tessera.plan.QueryPlan;
import io.tessera.storage.Database;
import io.tessera.variant.CudaVariantSpace;
import io.tessera.variant.Genome;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

/**
 * Pins the kernels the CUDA backend generates: for every SSB and TPC-H benchmark query and the GPU selftest's row
 * queries under the default genomes and every covering variant of {@link GpuSelfTest#coveringVariants}, and for a list
 * of feature queries under the default genomes, each pipeline's placement and, for a kernel, a SHA-256 of its source,
 * parameters, shared memory, bytes read and model bytes; for a pipeline left to the JVM, the reason. The expected
 * lines are in {@code kernel-hashes.txt}; a change to the emitter that changes no kernel leaves them all equal. A
 * deliberate change to the generated CUDA rewrites the file with {@code -Dtessera.writeKernelHashes=true} (run from
 * the repository root), to be reviewed in the diff.
 */
class CudaKernelHashTest {

    static final String RESOURCE = "kernel-hashes.txt";
    static final Path SOURCE_FILE = Path.of("src/test/resources/io/tessera/backend/cuda/gen", RESOURCE);

    /**
     * Queries over features the GPU has code for and features it has not, so that the reasons a pipeline stays on
     * the JVM are pinned too; the first {@link #SSB_FEATURES} run on SSB, the rest on TPC-H.
     */
    static final List<String> FEATURES = List.of(
            "select sum(lo_revenue) from lineorder where lo_discount % 2 = 0",
            "select sum(lo_revenue / 3) from lineorder",
            "select count(*) from lineorder where cast(lo_revenue as double) / 2 > 1000.5",
            "select count(*) from lineorder where mod(cast(lo_revenue as double), 2.0) > 1",
            "select sum(lo_quantity * lo_discount) from lineorder where lo_quantity < 25",
            "select count(*) from lineorder, part where lo_partkey = p_partkey and p_brand1 like 'MFGR#1%'",
            "select count(*) from lineorder, part where lo_partkey = p_partkey and p_brand1 like '%1'",
            "select count(*) from lineorder, part where lo_partkey = p_partkey and p_color in ('red', 'blue', 'green')",
            "select count(*) from lineorder, customer, supplier where lo_custkey = c_custkey and lo_suppkey = s_suppkey "
                    + "and c_nation = s_nation",
            "select count(*) from lineorder, customer, supplier where lo_custkey = c_custkey and lo_suppkey = s_suppkey "
                    + "and c_city = s_nation",
            "select count(*) from customer where c_city < 'UNITED KI1'",
            "select case when lo_discount > 5 then 'high' else 'low' end, count(*) from lineorder group by 1",
            "select case when lo_discount > 5 then 1 else 0 end, sum(lo_revenue) from lineorder group by 1",
            "select count(*) from lineorder where lo_discount in (" + inList(70) + ")",
            "select count(*) from lineorder where lo_discount in (" + inList(5) + ")",
            "select min(lo_revenue), max(lo_revenue), avg(lo_quantity) from lineorder",
            "select count(distinct lo_custkey) from lineorder",
            "select lo_discount, count(distinct lo_custkey) from lineorder group by lo_discount",
            "select cast(lo_revenue as integer) from lineorder where lo_quantity = 1",
            "select cast(lo_quantity as bigint) + 1, lo_revenue from lineorder where lo_quantity = 1",
            "select c_name, lo_revenue from lineorder, customer where lo_custkey = c_custkey and lo_quantity = 1",
            "select upper(c_name) from customer where c_custkey < 10",
            "select count(*) from lineorder where lo_quantity = 1 and lo_orderdate >= 19940101",
            "select d_year, sum(cast(lo_revenue as double)) from lineorder, ddate where lo_orderdate = d_datekey "
                    + "group by d_year",
            "select count(*) from lineorder where lo_orderpriority = lo_shippriority",
            "select count(*) from lineorder where lo_shipmode <> 'AIR' and lo_tax between 2 and 4",
            // TPC-H
            "select sum(l_extendedprice * (1 - l_discount)) from lineitem where l_shipdate >= date '1994-01-01' "
                    + "and l_shipdate + interval '1' year < date '1995-01-01'",
            "select l_returnflag, sum(l_quantity / 3) from lineitem group by l_returnflag",
            "select count(*) from orders left join customer on o_custkey = c_custkey",
            "select count(*) from lineitem, partsupp where l_partkey = ps_partkey and l_suppkey = ps_suppkey",
            "select count(*) from customer where c_phone like '13%' or c_phone like '31%'",
            "select count(*) from orders where o_comment not like '%special%requests%'",
            "select o_orderpriority, count(*) from orders where o_totalprice > 1000.0 group by o_orderpriority",
            "select sum(l_extendedprice) from lineitem, part where l_partkey = p_partkey and p_type like '%BRASS'",
            "select avg(l_discount), sum(case when l_returnflag = 'R' then 1 else 0 end) from lineitem",
            "select count(*) from lineitem where extract(year from l_shipdate) = 1995",
            "select sum(l_quantity) from lineitem where l_quantity between 10 and 20 and l_shipinstruct = 'DELIVER IN PERSON'",
            "select c_mktsegment, sum(c_acctbal) from customer group by c_mktsegment",
            "select n_name, count(*) from nation, region where n_regionkey = r_regionkey and r_name < n_name group by n_name",
            "select count(*) from supplier where s_acctbal < 0 and s_acctbal * 2 > -100");

    /** How many of {@link #FEATURES} run on SSB. */
    static final int SSB_FEATURES = 26;

    static String inList(int n) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < n; i++) {
            sb.append(i == 0 ? "" : ", ").append(i);
        }
        return sb.toString();
    }

    @TempDir
    static Path dir;
    static Database ssb;
    static Database tpch;

    @BeforeAll
    static void setUp() {
        ssb = Database.openOrCreate(dir.resolve("ssb"));
        new SsbGenerator(0.01, SsbGenerator.DEFAULT_SEED).generate(ssb, Progress.silent());
        tpch = Database.openOrCreate(dir.resolve("tpch"));
        new TpchGenerator(0.01).generate(tpch, Progress.silent());
    }

    @AfterAll
    static void tearDown() {
        if (ssb != null) {
            ssb.close();
        }
        if (tpch != null) {
            tpch.close();
        }
    }

    @Test
    void everyBenchmarkKernelIsUnchanged() throws IOException {
        List<String> lines = new ArrayList<>();
        for (Queries.Query q : Queries.ssb()) {
            describe(ssb, "ssb " + q.name(), q.sql(), true, lines);
        }
        for (Queries.Query q : Queries.tpch()) {
            describe(tpch, "tpch " + q.name(), q.sql(), true, lines);
        }
        for (Queries.Query q : GpuSelfTest.SSB_ROWS) {
            describe(ssb, "ssb-rows " + q.name(), q.sql(), true, lines);
        }
        for (Queries.Query q : GpuSelfTest.TPCH_ROWS) {
            describe(tpch, "tpch-rows " + q.name(), q.sql(), true, lines);
        }
        for (int i = 0; i < FEATURES.size(); i++) {
            describe(i < SSB_FEATURES ? ssb : tpch, "feature " + i, FEATURES.get(i), false, lines);
        }
        String actual = String.join("\n", lines) + "\n";
        if (Boolean.getBoolean("tessera.writeKernelHashes")) {
            Files.writeString(SOURCE_FILE, actual, StandardCharsets.UTF_8);
        }
        String expected = actual; // when rewriting, the classpath copy is the one of before the rewrite
        if (!Boolean.getBoolean("tessera.writeKernelHashes")) {
            try (InputStream in = CudaKernelHashTest.class.getResourceAsStream(RESOURCE)) {
                assertNotNull(in, RESOURCE + " is missing: write it with -Dtessera.writeKernelHashes=true");
                expected = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            }
        }
        assertEquals(expected, actual, "the generated CUDA changed; if that is intended, rewrite " + SOURCE_FILE);
    }

    /** One line per pipeline and variant: where it runs, and the kernel's hash or the reason it runs on the JVM. */
    private static void describe(Database db, String name, String sql, boolean covering, List<String> lines) {
        QueryPlan plan = new QueryEngine(db).plan(sql, Device.GPU);
        Map<String, Map<Integer, Genome>> variants = new LinkedHashMap<>();
        variants.put("default", CudaVariantSpace.INSTANCE.defaults(plan));
        for (Map.Entry<String, Map<Integer, Genome>> v : covering ? GpuSelfTest.coveringVariants(plan).entrySet()
                : Map.<String, Map<Integer, Genome>>of().entrySet()) {
            variants.put(v.getKey(), CudaVariantSpace.INSTANCE.completeAll(plan, v.getValue()));
        }
        for (Map.Entry<String, Map<Integer, Genome>> v : variants.entrySet()) {
            GpuPlacement placed = GpuPlacement.place(plan, v.getValue(), key -> GpuPlan.dictionary(db, key));
            for (Pipeline p : plan.pipelines()) {
                CudaKernelSource k = placed.kernels().get(p.id());
                String what = k != null ? "gpu " + hash(k) : "jvm " + placed.jvmReasons().get(p.id());
                lines.add(name + " [" + v.getKey() + "] p" + p.id() + " " + what.replace('\n', ' '));
            }
        }
    }

    private static String hash(CudaKernelSource k) {
        String all = k.source() + "\n" + k.params() + "\n" + k.sharedBytes() + " " + k.bytesRead() + " " + k.model()
                + " " + k.passes() + " " + k.sink().describe();
        try {
            byte[] d = MessageDigest.getInstance("SHA-256").digest(all.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(d, 0, 16);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}

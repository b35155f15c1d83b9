package io.tessera.backend.cuda.gen;

import io.tessera.backend.cuda.compile.CudaSources;
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
import io.tessera.plan.Source;
import io.tessera.storage.Database;
import io.tessera.variant.CudaVariantSpace;
import io.tessera.variant.Genome;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The CUDA the GPU backend generates for every SSB and TPC-H benchmark query (default genomes, and for three SSB
 * queries every value of every dimension, cuckoo tables of 2 to 4 functions with both hashes among them) and for the
 * GPU selftest's queries that materialize rows (every value of every dimension, every {@code mat} among them)
 * compiles with nvcc for sm_90, without warnings, exactly as {@code tessera emit} writes it. Every table-scan
 * pipeline of the SSB queries must have GPU code.
 */
class CudaQueryCompileTest {

    @TempDir
    static Path dir;
    static Database ssb;
    static Database tpch;
    static Database events;
    static Path nvcc;

    @BeforeAll
    static void setUp() {
        nvcc = io.tessera.backend.cuda.compile.CudaHeaderCompileTest.locateNvcc();
        if (nvcc == null) {
            if ("1".equals(System.getenv("TESSERA_NO_NVCC"))) {
                Assumptions.abort("nvcc not found and TESSERA_NO_NVCC=1: CUDA compile tests not run");
            }
            fail("nvcc not found on the PATH or in /usr/local/cuda/bin: the CUDA compile tests need it "
                    + "(set TESSERA_NO_NVCC=1 to run without them on a machine that has no CUDA toolkit)");
        }
        ssb = Database.openOrCreate(dir.resolve("ssb"));
        new SsbGenerator(0.01, SsbGenerator.DEFAULT_SEED).generate(ssb, Progress.silent());
        tpch = Database.openOrCreate(dir.resolve("tpch"));
        new TpchGenerator(0.01).generate(tpch, Progress.silent());
        io.tessera.exec.TinyTables.write(dir.resolve("events"), "ev", "id INTEGER NOT NULL, ts TIMESTAMP NOT NULL, v BIGINT NOT NULL,"
                + " t TIME NOT NULL, z TIMESTAMPTZ NOT NULL",
                new Object[] {1, java.time.LocalDateTime.parse("2020-01-01T10:00:00"), 5L, java.time.LocalTime.parse("10:00:00"),
                        java.time.OffsetDateTime.parse("2020-01-01T10:00:00+02:00")},
                new Object[] {2, java.time.LocalDateTime.parse("2020-01-02T11:30:00.123456"), 7L, java.time.LocalTime.parse("11:30:00.123456"),
                        java.time.OffsetDateTime.parse("2020-01-02T11:30:00.123456Z")},
                new Object[] {3, java.time.LocalDateTime.parse("1969-12-31T23:59:59.5"), 9L, java.time.LocalTime.parse("23:59:59.5"),
                        java.time.OffsetDateTime.parse("1969-12-31T23:59:59.5-05:00")});
        events = Database.open(dir.resolve("events"));
    }

    @AfterAll
    static void tearDown() {
        if (ssb != null) {
            ssb.close();
        }
        if (tpch != null) {
            tpch.close();
        }
        if (events != null) {
            events.close();
        }
    }

    private static GpuPlacement place(Database db, QueryPlan plan, Map<Integer, Genome> genomes) {
        return GpuPlacement.place(plan, genomes, key -> GpuPlan.dictionary(db, key));
    }

    @Test
    void everyBenchmarkQueryCompilesWithNvcc() throws Exception {
        Map<String, String> sources = new LinkedHashMap<>();
        for (Queries.Query q : Queries.ssb()) {
            QueryPlan plan = new QueryEngine(ssb).plan(q.sql(), Device.GPU);
            GpuPlacement placed = place(ssb, plan, CudaVariantSpace.INSTANCE.defaults(plan));
            for (Pipeline p : plan.pipelines()) {
                if (p.source() instanceof Source.TableScan) {
                    assertTrue(placed.onGpu(p.id()), "SSB " + q.name() + " pipeline " + p.id() + " has no GPU code: "
                            + placed.jvmReasons().get(p.id()));
                }
            }
            placed.kernels().values().forEach(k -> sources.put("ssb_" + q.name().replace('.', '_') + "_" + k.fileName(), k.source()));
            if (q.name().equals("q2.1") || q.name().equals("q3.1") || q.name().equals("q4.1")) {
                coveringKernels(ssb, plan, sources);
            }
        }
        // scans that materialize rows, under every value of every dimension (the mat values among them)
        for (Queries.Query q : GpuSelfTest.SSB_ROWS) {
            covered(ssb, q, sources);
        }
        for (Queries.Query q : GpuSelfTest.TPCH_ROWS) {
            covered(tpch, q, sources);
        }
        // the queries whose every table scan has GPU code (q5 through its join on two keys packed into one, q4 and
        // q21 through marks, q21 also through tables whose keys repeat, q7 through EXTRACT(YEAR) in its group keys,
        // q18 through the join table its HAVING's groups build on the device, q13 through a left join whose missing
        // payload is NULL, q20 through a payload computed from a group's sum, q15 through the join table its scalar
        // maximum builds on the device, q9 through a table whose keys repeat built after a probe of another, q16
        // through its COUNT(DISTINCT) as two aggregations)
        List<String> fullyOnGpu = List.of("q1", "q3", "q4", "q5", "q6", "q7", "q9", "q10", "q11", "q12", "q13", "q14",
                "q15", "q16", "q18", "q19", "q20", "q21");
        for (Queries.Query q : Queries.tpch()) {
            QueryPlan plan = new QueryEngine(tpch).plan(q.sql(), Device.GPU);
            GpuPlacement placed = place(tpch, plan, CudaVariantSpace.INSTANCE.defaults(plan));
            for (CudaKernelSource k : placed.kernels().values()) {
                sources.put("tpch_" + q.name() + "_" + k.fileName(), k.source());
            }
            if (q.name().equals("q1")) {
                // four groups: the one query whose group table is small enough for agg=independent
                coveringKernels(tpch, plan, sources);
            }
            for (Pipeline p : plan.pipelines()) {
                if (fullyOnGpu.contains(q.name()) && p.source() instanceof Source.TableScan) {
                    assertTrue(placed.onGpu(p.id()), "TPC-H " + q.name() + " pipeline " + p.id() + " has no GPU code: "
                            + placed.jvmReasons().get(p.id()));
                }
            }
        }
        // the covered variants reach every group-table kind, over 48 KB of shared memory included (q3.1: 86 KB)
        assertTrue(sources.values().stream().anyMatch(src -> src.contains("// INDEPENDENT")), "no agg=independent kernel");
        assertTrue(sources.values().stream().anyMatch(src -> src.contains("agg=wglocal") && src.contains("tessera_p")
                && java.util.regex.Pattern.compile("GROUP_AGGREGATE by \\[j1\\.c\\d+").matcher(src).find()),
                "q3.1 has no agg=wglocal kernel");
        // the covering variants reach every join table kind, the cuckoo tables with both hash families, and every
        // materialization
        String all = String.join("\n", sources.values());
        for (String part : List.of("LinearInsert<", "atomicOr(&build_bits", "tessera::q::PackKeys(", "_marks[slot] = 1u;",
                "_marks[row] = 1u;", "scan_marks[s] != 0u;", "scan_marks[s] == 0u;", "scan_next[s] != TESSERA_NOT_CHAINED",
                "atomicExch((unsigned long long*)&build_heads[slot]", "_round < ",
                "BlockReserve<TPB>(build_cursor, build_selected)", "__syncthreads_or(", "CuckooInsert<2, ", "CuckooInsert<3, ",
                "CuckooInsert<4, ", "CuckooInsert<3, tessera::HashMurmur>", "CuckooFind<2, ", "CuckooFind<3, ",
                "CuckooFind<4, ", "LinearFind<", "PerfectFindBit32<false>(", "PerfectFindBit32<true>(", "_slots, flags[i]);  // -1 for a row not selected",
                "_slots);\n", "_sbits[w] = __ldg(",
                "payload for the rows the probes and filters since kept", "SharedAddInt(", "MIN_BLOCKS_PER_SM)",
                "__launch_bounds__(TPB) ", "(tile atomic + block scan)",
                "BlockReserve<TPB>(out_cursor, selected)", "(two passes: tile counts", "(two passes: selection bitmap",
                "__ballot_sync(TESSERA_FULL_MASK, flags[i])", "again, for the payload of the rows pass 0 selected",
                "a mask of its codes */ tessera::q::CodeIn(mask0, ", "tessera::q::ExtractDate(", "_hit[i] = true;")) {
            assertTrue(all.contains(part), "no compiled kernel has " + part);
        }
        // a marking probe with a condition besides the keys (q21) marks each row of the chain the condition holds for
        assertTrue(java.util.regex.Pattern.compile("if \\(.+\\) j\\d+_marks\\[row\\] = 1u;").matcher(all).find(),
                "no compiled kernel marks the rows a condition besides the keys holds for");
        // groups that only mark a join table's rows (the selftest's groups-mark, TPC-H Q20's shape at SF 1 and more)
        // are scanned where the aggregation left them, under every variant, in a dense and a hash group table
        for (String mode : List.of("dense", "shared")) {
            assertTrue(sources.values().stream().anyMatch(src -> src.contains("(agg=" + mode + ") that hold a group")
                    && src.contains("_marks[slot] = 1u;") && src.contains("// MARKS j")),
                    "no compiled kernel marks a join table's rows from a scan of agg=" + mode + " groups");
        }
        Path out = dir.resolve("cu");
        Files.createDirectories(out);
        writeHeaders(out);
        ExecutorService pool = Executors.newFixedThreadPool(Math.max(2, Runtime.getRuntime().availableProcessors()));
        try {
            List<Path> files = new ArrayList<>();
            for (Map.Entry<String, String> s : sources.entrySet()) {
                Path f = out.resolve(s.getKey().endsWith(".cu") ? s.getKey() : s.getKey() + ".cu");
                Files.writeString(f, s.getValue(), StandardCharsets.UTF_8);
                files.add(f);
            }
            List<Future<String>> results = new ArrayList<>();
            for (int from = 0; from < files.size(); from += BATCH) {
                List<Path> batch = files.subList(from, Math.min(files.size(), from + BATCH));
                int number = from / BATCH;
                results.add(pool.submit(() -> compileBatch(batch, number)));
            }
            for (Future<String> r : results) {
                String problem = r.get(10, TimeUnit.MINUTES);
                if (problem != null) {
                    fail(problem);
                }
            }
        } finally {
            pool.shutdownNow();
        }
        assertFalse(sources.isEmpty());
    }

    /** Adds the kernels of every covering variant of a plan, each source once. */
    private static void coveringKernels(Database db, QueryPlan plan, Map<String, String> sources) {
        for (Map.Entry<String, Map<Integer, Genome>> v : GpuSelfTest.coveringVariants(plan).entrySet()) {
            GpuPlacement pv = place(db, plan, CudaVariantSpace.INSTANCE.completeAll(plan, v.getValue()));
            for (CudaKernelSource k : pv.kernels().values()) {
                sources.putIfAbsent("v" + Integer.toHexString(k.source().hashCode()) + ".cu", k.source());
            }
        }
    }

    /** The kernels of a query under its default genomes and every covering variant, each scan on the GPU. */
    private static void covered(Database db, Queries.Query q, Map<String, String> sources) {
        QueryPlan plan = new QueryEngine(db).plan(q.sql(), Device.GPU);
        Map<String, Map<Integer, Genome>> variants = new LinkedHashMap<>();
        variants.put("default", CudaVariantSpace.INSTANCE.defaults(plan));
        for (Map.Entry<String, Map<Integer, Genome>> v : GpuSelfTest.coveringVariants(plan).entrySet()) {
            variants.put(v.getKey(), CudaVariantSpace.INSTANCE.completeAll(plan, v.getValue()));
        }
        for (Map.Entry<String, Map<Integer, Genome>> v : variants.entrySet()) {
            GpuPlacement placed = place(db, plan, v.getValue());
            for (Pipeline p : plan.pipelines()) {
                if (GpuSelfTest.scansOnDevice(p)) {
                    assertTrue(placed.onGpu(p.id()), q.name() + " " + v.getKey() + " pipeline " + p.id()
                            + " has no GPU code: " + placed.jvmReasons().get(p.id()));
                }
            }
            for (CudaKernelSource k : placed.kernels().values()) {
                sources.putIfAbsent("v" + Integer.toHexString(k.source().hashCode()) + ".cu", k.source());
            }
        }
    }

    /**
     * TIMESTAMP, TIME and TIMESTAMP WITH TIME ZONE columns on the GPU: 64-bit values loaded, compared with constants
     * bound at launch (a TIMESTAMP constant compared with a TIMESTAMP WITH TIME ZONE is converted when planned), joined
     * on and aggregated (MIN, MAX, COUNT, grouped by); every scan pipeline has GPU code and compiles with nvcc.
     */
    /**
     * A TIMESTAMP WITH TIME ZONE converted in the session's zone (a cast to TIMESTAMP of a column) runs on the JVM, and
     * the placement says why.
     */
    @Test
    void zonedPartsStayOnTheJvmWithTheReason() {
        QueryPlan plan = new QueryEngine(events).plan("SELECT count(*) FROM ev WHERE CAST(z AS TIMESTAMP) > TIMESTAMP '2020-01-01'",
                Device.GPU);
        GpuPlacement placed = place(events, plan, CudaVariantSpace.INSTANCE.defaults(plan));
        Pipeline scan = plan.pipelines().getFirst();
        assertTrue(!placed.onGpu(scan.id()), "the scan runs on the GPU");
        assertTrue(placed.jvmReasons().get(scan.id()).contains("to_local"), placed.jvmReasons().toString());
    }

    /**
     * The kernels of the sorted join tables ({@link SortedJoinTableTest}; ht=sorted-binary and ht=sorted-pary on every
     * build that takes them) for tiny tables whose keys repeat, four SSB queries and six TPC-H queries, each scan on
     * the GPU: builds that place key words by a counter, probes that search them (binary, and p-ary over the index
     * of lines), fan-outs over ranges of repeated keys, semi and anti probes.
     */
    @Test
    void sortedJoinsCompileWithNvcc() throws Exception {
        Map<String, String> sources = new LinkedHashMap<>();
        try (Database tiny = ExpandedBuildTest.write(dir.resolve("sorted"))) {
            SortedJoinTableTest.kernels(tiny).forEach((name, k) -> sources.put(name, k.source()));
        }
        List<String[]> queries = new ArrayList<>();
        for (Queries.Query q : Queries.ssb()) {
            if (List.of("q1.1", "q2.1", "q3.1", "q4.1").contains(q.name())) {
                queries.add(new String[] {"ssb", q.name(), q.sql()});
            }
        }
        for (Queries.Query q : Queries.tpch()) {
            if (List.of("q3", "q4", "q5", "q9", "q18", "q21").contains(q.name())) {
                queries.add(new String[] {"tpch", q.name(), q.sql()});
            }
        }
        int sortedBuilds = 0;
        for (String[] q : queries) {
            Database db = q[0].equals("ssb") ? ssb : tpch;
            QueryPlan plan = new QueryEngine(db).plan(q[2], Device.GPU);
            GpuPlacement defaults = place(db, plan, CudaVariantSpace.INSTANCE.defaults(plan));
            for (String ht : SortedJoinTableTest.SORTED) {
                GpuPlacement placed = SortedJoinTableTest.place(db, plan, ht);
                for (Pipeline p : plan.pipelines()) {
                    if (p.source() instanceof Source.TableScan && defaults.onGpu(p.id())) {
                        assertTrue(placed.onGpu(p.id()), q[1] + " " + ht + " pipeline " + p.id() + ": "
                                + placed.jvmReasons().get(p.id()));
                    }
                }
                for (CudaKernelSource k : placed.kernels().values()) {
                    sortedBuilds += k.sink() instanceof SinkLayout.Build sb && sb.table().sorted() ? 1 : 0;
                    sources.putIfAbsent("sorted_" + Integer.toHexString(k.source().hashCode()) + ".cu", k.source());
                }
            }
        }
        assertTrue(sortedBuilds >= 20, "sorted builds: " + sortedBuilds);
        String all = String.join("\n", sources.values());
        for (String part : List.of("tessera::search::JoinBinaryBounds(", "tessera::search::JoinIndexBounds<4>(",
                ", true, j", ", false, j", "_order[j", "tessera::search::KeyWord((long long)key);")) {
            assertTrue(all.contains(part), "no sorted join kernel has " + part);
        }
        compileAll(sources, dir.resolve("cu_sorted"));
    }

    /** Writes each source (by file name) into {@code out} beside the headers and compiles them with nvcc in batches. */
    private static void compileAll(Map<String, String> sources, Path out) throws Exception {
        Files.createDirectories(out);
        writeHeaders(out);
        List<Path> files = new ArrayList<>();
        for (Map.Entry<String, String> s : sources.entrySet()) {
            Path f = out.resolve(s.getKey());
            Files.writeString(f, s.getValue(), StandardCharsets.UTF_8);
            files.add(f);
        }
        for (int from = 0; from < files.size(); from += BATCH) {
            String problem = compileBatch(files.subList(from, Math.min(files.size(), from + BATCH)), from / BATCH);
            if (problem != null) {
                fail(problem);
            }
        }
    }

    /** The headers generated kernels include, written into {@code out}. */
    private static void writeHeaders(Path out) throws java.io.IOException {
        for (String h : List.of(CudaSources.CRYSTAL_HEADER, CudaSources.QUERY_HEADER, CudaSources.SEARCH_HEADER)) {
            Files.writeString(out.resolve(h), CudaSources.read(h), StandardCharsets.UTF_8);
        }
    }

    /**
     * The kernels of a chain of joins on keys that repeat ({@link ExpandedBuildTest}): the table built after a probe
     * of another, its rows placed by a counter, under every table kind.
     */
    /**
     * A table's columns that hold NULLs on the GPU (the selftest's nulls suite): every scan of those queries the GPU
     * takes has GPU code under every covering variant, the kernels read NULL flags beside the columns (and a join
     * table keeps them beside its payload), a string group key that can be NULL is the code of COALESCE(k, '') from
     * a map with an entry for NULL, and they compile with nvcc.
     */
    @Test
    void nullableTableKernelsCompileWithNvcc() throws Exception {
        Path at = dir.resolve("nulls");
        Map<String, String> sources = new LinkedHashMap<>();
        try (Database db = Database.openOrCreate(at)) {
            new TpchGenerator(0.01).generate(db, Progress.silent());
            try (QueryEngine e = new QueryEngine(db)) {
                GpuSelfTest.NULLS_TABLES.forEach(e::execute);
            }
            for (Queries.Query q : GpuSelfTest.NULLS) {
                covered(db, q, sources);
            }
        }
        // the expression queries over a table whose every column holds NULLs, those the GPU takes
        io.tessera.backend.ExpressionTables.write(dir.resolve("expr"));
        int expressionKernels = 0;
        try (Database db = Database.open(dir.resolve("expr"))) {
            for (String sql : io.tessera.backend.ExpressionTables.QUERIES) {
                QueryPlan plan = new QueryEngine(db).plan(sql, Device.GPU);
                for (CudaKernelSource k : place(db, plan, CudaVariantSpace.INSTANCE.defaults(plan)).kernels().values()) {
                    sources.putIfAbsent("e" + Integer.toHexString(k.source().hashCode()) + ".cu", k.source());
                    expressionKernels++;
                }
            }
        }
        assertTrue(expressionKernels >= 12, expressionKernels + " kernels of the expression queries");
        String all = String.join("\n", sources.values());
        for (String part : List.of("const unsigned char* __restrict__ col", "_null[i] != 0)", "build_pay",
                "flags[i] = 0;  // a NULL key never matches", "_null[i] != 0)) ? -1 : ", "coalesce of c8, a map of its codes")) {
            assertTrue(all.contains(part), "no kernel of a nullable table has " + part);
        }
        assertTrue(java.util.regex.Pattern.compile("build_pay\\d+\\[[^]]+\\] = \\(c\\d+_null\\[i\\] != 0\\);")
                .matcher(all).find(), "no join table keeps a NULL flag beside its payload");
        assertTrue(java.util.regex.Pattern.compile("CodeIn\\(mask\\d+, \\(\\(c\\d+_null\\[i\\] != 0\\) \\? k\\d+ : c\\d+\\[i\\]\\)\\)")
                .matcher(all).find(), "no mask of codes tests its bit for NULL (nulls-mask-null)");
        compileAll(sources, dir.resolve("cu_nulls"));
    }

    @Test
    void expandedBuildsCompileWithNvcc() throws Exception {
        Path out = dir.resolve("cu_expanded");
        Files.createDirectories(out);
        writeHeaders(out);
        List<Path> files = new ArrayList<>();
        try (Database tiny = ExpandedBuildTest.write(dir.resolve("expanded"))) {
            for (Map.Entry<String, CudaKernelSource> k : ExpandedBuildTest.kernels(tiny).entrySet()) {
                Path f = out.resolve(k.getKey().endsWith(".cu") ? k.getKey() : k.getKey() + ".cu");
                Files.writeString(f, k.getValue().source(), StandardCharsets.UTF_8);
                files.add(f);
            }
        }
        assertTrue(files.stream().anyMatch(f -> {
            try {
                return Files.readString(f).contains("BlockReserve<TPB>(build_cursor");
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }), "no kernel places its rows by a counter");
        String problem = compileBatch(files, 0);
        if (problem != null) {
            fail(problem);
        }
    }

    @Test
    void timestampKernelsCompileWithNvcc() throws Exception {
        Map<String, String> sources = new LinkedHashMap<>();
        List<String> queries = List.of(
                "SELECT count(*), min(ts), max(ts) FROM ev WHERE ts >= TIMESTAMP '2020-01-01 12:00:00'",
                "SELECT ts, sum(v) FROM ev WHERE ts < TIMESTAMP '2021-01-01' GROUP BY ts",
                "SELECT count(*) FROM ev a JOIN ev b ON a.ts = b.ts WHERE b.v > 6",
                "SELECT t, count(*), min(ts) FROM ev WHERE t > TIME '09:00:00' GROUP BY t",
                "SELECT count(*), max(a.t) FROM ev a JOIN ev b ON a.t = b.t WHERE b.t <= TIME '12:00'",
                "SELECT count(*), min(z), max(z) FROM ev WHERE z >= TIMESTAMP WITH TIME ZONE '2020-01-01 12:00:00+02'",
                "SELECT z, sum(v) FROM ev WHERE z < TIMESTAMP '2021-01-01' GROUP BY z",
                "SELECT count(*) FROM ev a JOIN ev b ON a.z = b.z WHERE b.v > 6",
                // GREATEST and LEAST, lowered to CASE on the GPU
                "SELECT count(*), max(greatest(v, 3)), min(least(v, 2, v + 1)) FROM ev"
                        + " WHERE greatest(ts, TIMESTAMP '2020-06-01') > TIMESTAMP '2020-07-01'",
                "SELECT least(t, TIME '10:00'), sum(greatest(v, 0)) FROM ev GROUP BY least(t, TIME '10:00')");
        for (String sql : queries) {
            QueryPlan plan = new QueryEngine(events).plan(sql, Device.GPU);
            GpuPlacement placed = place(events, plan, CudaVariantSpace.INSTANCE.defaults(plan));
            for (Pipeline p : plan.pipelines()) {
                if (p.source() instanceof Source.TableScan) {
                    assertTrue(placed.onGpu(p.id()), sql + ": pipeline " + p.id() + " has no GPU code: "
                            + placed.jvmReasons().get(p.id()));
                }
            }
            for (CudaKernelSource k : placed.kernels().values()) {
                sources.putIfAbsent("ts" + Integer.toHexString(k.source().hashCode()) + ".cu", k.source());
            }
        }
        assertTrue(String.join("\n", sources.values()).contains("long long"), "no kernel loads a 64-bit timestamp");
        Path out = dir.resolve("cu_ts");
        Files.createDirectories(out);
        writeHeaders(out);
        for (Map.Entry<String, String> s : sources.entrySet()) {
            Path f = out.resolve(s.getKey());
            Files.writeString(f, s.getValue(), StandardCharsets.UTF_8);
            String problem = compile(f);
            if (problem != null) {
                fail(problem);
            }
        }
    }

    /** Kernels nvcc compiles in one run: it parses the headers once for all of them. */
    private static final int BATCH = 32;

    /**
     * Null when every file of {@code batch} compiles cleanly, else the output of the first that does not. nvcc
     * runs once over a unit that includes each file unchanged, in a namespace of its own, its kernels renamed and
     * its macros undefined after it (the headers' parse, most of nvcc's time for a kernel, is then paid once per
     * batch); when that unit fails or warns, each file is compiled alone, so a problem is reported for the file as
     * {@code tessera emit} writes it.
     */
    private static String compileBatch(List<Path> batch, int number) throws Exception {
        // the search header's device functions once for all (a sorted join's kernels include them)
        StringBuilder unit = new StringBuilder("#include \"" + CudaSources.CRYSTAL_HEADER + "\"\n#include \""
                + CudaSources.QUERY_HEADER + "\"\n#define TESSERA_SEARCH_DEVICE_ONLY\n#include \""
                + CudaSources.SEARCH_HEADER + "\"\n#undef TESSERA_SEARCH_DEVICE_ONLY\n");
        java.util.regex.Pattern define = java.util.regex.Pattern.compile("(?m)^#define (\\w+)");
        java.util.regex.Pattern kernel = java.util.regex.Pattern.compile("(?m)^extern \"C\" __global__.*?\\b(tessera_\\w+)\\(");
        for (int i = 0; i < batch.size(); i++) {
            String src = Files.readString(batch.get(i));
            List<String> undefine = new ArrayList<>();
            java.util.regex.Matcher d = define.matcher(src);
            while (d.find()) {
                undefine.add(d.group(1));
            }
            java.util.regex.Matcher k = kernel.matcher(src);
            while (k.find()) {
                unit.append("#define ").append(k.group(1)).append(" batch").append(i).append('_').append(k.group(1))
                        .append('\n');
                undefine.add(k.group(1));
            }
            unit.append("namespace batch").append(i).append(" {\n#include \"").append(batch.get(i).getFileName())
                    .append("\"\n}\n");
            for (String name : undefine) {
                unit.append("#undef ").append(name).append('\n');
            }
        }
        Path f = batch.getFirst().resolveSibling("batch" + number + ".cu");
        Files.writeString(f, unit, StandardCharsets.UTF_8);
        if (compile(f) == null) {
            return null;
        }
        for (Path one : batch) {
            String problem = compile(one);
            if (problem != null) {
                return problem;
            }
        }
        return null;
    }

    /** Null when nvcc compiled the file cleanly, else its output. */
    private static String compile(Path f) throws Exception {
        Process p = new ProcessBuilder(nvcc.toString(), "-arch=sm_90", "-cubin", "-std=c++17", "-o",
                f + ".cubin", f.toString()).directory(f.getParent().toFile()).redirectErrorStream(true).start();
        String log = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(5, TimeUnit.MINUTES), "nvcc did not finish on " + f);
        if (p.exitValue() != 0 || log.toLowerCase().contains("warning")) {
            return "nvcc on " + f.getFileName() + " (exit " + p.exitValue() + "):\n" + log + "\n" + Files.readString(f);
        }
        assertEquals(0, p.exitValue());
        return null;
    }
}

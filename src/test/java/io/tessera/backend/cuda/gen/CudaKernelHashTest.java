package io.tessera.backend.cuda.gen;

import io.tessera.bench.GpuSelfTest;
import io.tessera.bench.Queries;
import io.tessera.data.Progress;
import io.tessera.data.ssb.SsbGenerator;
import io.tessera.data.tpch.TpchGenerator;
import io.tessera.exec.GpuPlan;
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
 * queries, under the default genomes and every covering variant of {@link GpuSelfTest#coveringVariants}, each
 * pipeline's placement and, for a kernel, a SHA-256 of its source, parameters, shared memory, bytes read and model
 * bytes; for a pipeline left to the JVM, the reason. The expected lines are in {@code kernel-hashes.txt}; a change to
 * the emitter that changes no kernel leaves them all equal. A deliberate change to the generated CUDA rewrites the
 * file with {@code -Dtessera.writeKernelHashes=true} (run from the repository root), to be reviewed in the diff.
 */
class CudaKernelHashTest {

    static final String RESOURCE = "kernel-hashes.txt";
    static final Path SOURCE_FILE = Path.of("src/test/resources/io/tessera/backend/cuda/gen", RESOURCE);

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
            describe(ssb, "ssb " + q.name(), q.sql(), lines);
        }
        for (Queries.Query q : Queries.tpch()) {
            describe(tpch, "tpch " + q.name(), q.sql(), lines);
        }
        for (Queries.Query q : GpuSelfTest.SSB_ROWS) {
            describe(ssb, "ssb-rows " + q.name(), q.sql(), lines);
        }
        for (Queries.Query q : GpuSelfTest.TPCH_ROWS) {
            describe(tpch, "tpch-rows " + q.name(), q.sql(), lines);
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
    private static void describe(Database db, String name, String sql, List<String> lines) {
        QueryPlan plan = new QueryEngine(db).plan(sql);
        Map<String, Map<Integer, Genome>> variants = new LinkedHashMap<>();
        variants.put("default", CudaVariantSpace.INSTANCE.defaults(plan));
        for (Map.Entry<String, Map<Integer, Genome>> v : GpuSelfTest.coveringVariants(plan).entrySet()) {
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

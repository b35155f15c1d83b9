package io.tessera.backend;

import io.tessera.backend.cuda.gen.CudaKernelSource;
import io.tessera.backend.cuda.gen.GpuPlacement;
import io.tessera.backend.cuda.gen.GpuUnsupported;
import io.tessera.backend.jvm.gen.PipelineEmitter;
import io.tessera.bench.GpuSelfTest;
import io.tessera.bench.Queries;
import io.tessera.data.Progress;
import io.tessera.data.ssb.SsbGenerator;
import io.tessera.data.tpch.TpchGenerator;
import io.tessera.plan.DictionaryKeys;
import io.tessera.optimize.Optimizer;
import io.tessera.plan.PhysicalPlanner;
import io.tessera.plan.Pipeline;
import io.tessera.plan.QueryPlan;
import io.tessera.sql.SqlFrontEnd;
import io.tessera.storage.Database;
import io.tessera.storage.Dictionary;
import io.tessera.variant.CudaVariantSpace;
import io.tessera.variant.Genome;
import io.tessera.variant.Genomes;
import io.tessera.variant.JvmVariantSpace;
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
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The generated Java and CUDA stay what they were: the source of every pipeline of every SSB and TPC-H benchmark
 * query (and of a set of expression queries over every type, NULLs included) is emitted under the default genomes
 * and under a covering set of genomes ({@link Genomes#coveringPlans} for the JVM, {@link GpuSelfTest#coveringVariants}
 * for CUDA), hashed, and compared with the hashes kept in {@code emitted-source-hashes.txt}. A refactoring of the
 * emitters must leave every hash as it is; a deliberate change of the generated code regenerates the file with
 * {@code -Dtessera.regenerateHashes=true} (run from the repository root), and its commit says why. With
 * {@code -Dtessera.dumpSources=DIR} the sources themselves are written too, to compare two runs with diff.
 */
class EmittedSourceHashesTest {

    private static final String RESOURCE = "/io/tessera/backend/emitted-source-hashes.txt";
    private static final Path SOURCE_FILE = Path.of("src/test/resources/io/tessera/backend/emitted-source-hashes.txt");

    @TempDir
    static Path dir;
    static Database ssb;
    static Database tpch;
    static Database expr;

    @BeforeAll
    static void setUp() {
        ssb = Database.openOrCreate(dir.resolve("ssb"));
        new SsbGenerator(0.01, SsbGenerator.DEFAULT_SEED).generate(ssb, Progress.silent());
        tpch = Database.openOrCreate(dir.resolve("tpch"));
        new TpchGenerator(0.01).generate(tpch, Progress.silent());
        ExpressionTables.write(dir.resolve("expr"));
        expr = Database.openOrCreate(dir.resolve("expr"));
    }

    @AfterAll
    static void tearDown() {
        for (Database db : new Database[] {ssb, tpch, expr}) {
            if (db != null) {
                db.close();
            }
        }
    }

    /** The queries by name: suite, query name, its database. */
    private record Named(String name, String sql, Database db) {
    }

    private static List<Named> queries() {
        List<Named> out = new ArrayList<>();
        Queries.ssb().forEach(q -> out.add(new Named("ssb " + q.name(), q.sql(), ssb)));
        Queries.tpch().forEach(q -> out.add(new Named("tpch " + q.name(), q.sql(), tpch)));
        for (int i = 0; i < ExpressionTables.QUERIES.size(); i++) {
            out.add(new Named("expr e" + i, ExpressionTables.QUERIES.get(i), expr));
        }
        return out;
    }

    private static QueryPlan plan(Database db, String sql) {
        return PhysicalPlanner.plan(Optimizer.optimize(new SqlFrontEnd(db).plan(sql)));
    }

    @Test
    void generatedCodeIsUnchanged() throws IOException {
        Map<String, String> hashes = new TreeMap<>();
        JvmVariantSpace jvm = new JvmVariantSpace(4, true);
        List<String> unplanned = new ArrayList<>();
        for (Named q : queries()) {
            QueryPlan plan;
            try {
                plan = plan(q.db(), q.sql());
            } catch (RuntimeException e) {
                unplanned.add(q.name() + ": " + e.getMessage());
                continue;
            }
            // the JVM: default genomes, then each covering plan
            Map<String, Map<Integer, Genome>> jvmVariants = new LinkedHashMap<>();
            jvmVariants.put("default", Genomes.defaults(jvm, plan));
            List<Map<Integer, Genome>> covering = Genomes.coveringPlans(jvm, plan);
            for (int k = 0; k < covering.size(); k++) {
                jvmVariants.put("cover" + k, covering.get(k));
            }
            for (Map.Entry<String, Map<Integer, Genome>> v : jvmVariants.entrySet()) {
                for (Pipeline p : plan.pipelines()) {
                    String text;
                    try {
                        text = PipelineEmitter.emit(p, v.getValue().get(p.id())).source();
                    } catch (RuntimeException e) {
                        text = "error " + e.getClass().getSimpleName() + ": " + e.getMessage();
                    }
                    record("jvm " + q.name() + " " + v.getKey() + " p" + p.id(), text, hashes);
                }
            }
            // CUDA: default genomes, then the GPU selftest's covering variants
            Map<String, Map<Integer, Genome>> cudaVariants = new LinkedHashMap<>();
            cudaVariants.put("default", CudaVariantSpace.INSTANCE.defaults(plan));
            for (Map.Entry<String, Map<Integer, Genome>> v : GpuSelfTest.coveringVariants(plan).entrySet()) {
                cudaVariants.put(v.getKey().replace(' ', '_'), CudaVariantSpace.INSTANCE.completeAll(plan, v.getValue()));
            }
            for (Map.Entry<String, Map<Integer, Genome>> v : cudaVariants.entrySet()) {
                GpuPlacement placed = GpuPlacement.place(plan, v.getValue(), key -> dictionary(q.db(), key));
                for (Pipeline p : plan.pipelines()) {
                    CudaKernelSource k = placed.kernels().get(p.id());
                    String text = k != null ? k.source() : "jvm: " + placed.jvmReasons().get(p.id());
                    record("cuda " + q.name() + " " + v.getKey() + " p" + p.id(), text, hashes);
                }
            }
        }
        if (!unplanned.isEmpty()) {
            fail("queries that do not plan:\n  " + String.join("\n  ", unplanned));
        }
        StringBuilder file = new StringBuilder();
        hashes.forEach((k, h) -> file.append(k).append(' ').append(h).append('\n'));
        if (Boolean.getBoolean("tessera.regenerateHashes")) {
            Files.createDirectories(SOURCE_FILE.getParent());
            Files.writeString(SOURCE_FILE, file.toString(), StandardCharsets.UTF_8);
            return;
        }
        Map<String, String> expected = expected();
        List<String> differences = new ArrayList<>();
        for (String k : expected.keySet()) {
            if (!hashes.containsKey(k)) {
                differences.add("no longer emitted: " + k);
            } else if (!hashes.get(k).equals(expected.get(k))) {
                differences.add("changed: " + k);
            }
        }
        for (String k : hashes.keySet()) {
            if (!expected.containsKey(k)) {
                differences.add("new: " + k);
            }
        }
        assertFalse(hashes.isEmpty());
        if (!differences.isEmpty()) {
            fail(differences.size() + " of " + hashes.size() + " generated sources differ from " + RESOURCE + ":\n  "
                    + String.join("\n  ", differences.subList(0, Math.min(40, differences.size()))));
        }
    }

    /**
     * Keeps a source's hash; with {@code -Dtessera.dumpSources=DIR} also writes the source there, one file per key,
     * so that two runs can be compared with diff when a hash changes.
     */
    private static void record(String key, String text, Map<String, String> hashes) throws IOException {
        hashes.put(key, hash(text));
        String dump = System.getProperty("tessera.dumpSources");
        if (dump != null) {
            Path d = Path.of(dump);
            Files.createDirectories(d);
            Files.writeString(d.resolve(key.replace(' ', '_') + ".txt"), text, StandardCharsets.UTF_8);
        }
    }

    private static Map<String, String> expected() throws IOException {
        Map<String, String> out = new TreeMap<>();
        try (InputStream in = EmittedSourceHashesTest.class.getResourceAsStream(RESOURCE)) {
            assertNotNull(in, RESOURCE + " is missing: run with -Dtessera.regenerateHashes=true to write it");
            for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                if (!line.isBlank()) {
                    int sp = line.lastIndexOf(' ');
                    out.put(line.substring(0, sp), line.substring(sp + 1));
                }
            }
        }
        return out;
    }

    /** A stored column's dictionary, as the GPU executor finds it; computed strings have none on the GPU. */
    private static Dictionary dictionary(Database db, String key) {
        int dot = key.indexOf('.');
        if (DictionaryKeys.isComputed(key) || dot < 0 || !db.hasTable(key.substring(0, dot))) {
            throw new GpuUnsupported("strings computed by the query (" + key + ")");
        }
        return db.table(key.substring(0, dot)).column(key.substring(dot + 1)).dictionary();
    }

    private static String hash(String text) {
        try {
            byte[] d = MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(d, 0, 12);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}

package io.tessera.exec;

import io.tessera.backend.jvm.JvmExecutor;
import io.tessera.backend.cuda.exec.GpuPlan;
import io.tessera.api.QueryResult;
import io.tessera.Tessera;
import io.tessera.backend.GeneratedSource;
import io.tessera.backend.cuda.compile.CudaSources;
import io.tessera.backend.cuda.gen.CudaKernelSource;
import io.tessera.backend.cuda.gen.GpuPlacement;
import io.tessera.backend.jvm.gen.EmittedPipeline;
import io.tessera.backend.jvm.gen.JavaCompiler;
import io.tessera.plan.QueryPlan;
import io.tessera.variant.CudaVariantSpace;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * User text never becomes code: random string literals and quoted identifiers full of what ends a comment or a
 * string in Java or C ({@code \u000a}, {@code *}{@code /}, a trailing backslash, quotes, NUL, line breaks, non-ASCII,
 * a class that would replace {@code Math}) go through both emitters. Each query must give the answer computed here
 * from the rows, its generated Java and CUDA must be the code of the same query with a plain literal (so the text
 * did not change the code, and no class was compiled for it), and every comment must be sanitized.
 */
class ConstantInjectionFuzzTest {

    /** Literals (and as many identifiers) per run; the seed is printed, and -Dtessera.fuzz.seed=N repeats a run. */
    private static final int LITERALS = 10_000;

    private static final String[] PIECES = {
        "\\u000a", "\\u002a/", "*/", "/*", "//", "\"", "'", "\\", "\\\\", "\n", "\r", "\t", "\u0000", "??/", "é",
        "ÿ", "${x}", "%", "_", "a", "Z", "0", " ", "\\u0022", "\\uuu000a", "';--", "}", "{", "#define X",
        "\\u000aclass Math { static long addExact(long a, long b) { throw new Error(\"INJECTED\"); } }//",
        "\\u000a*/ int injected; /*", "\\\n", "\"); System.exit(3); (\"",
    };

    /** The stored strings: some are what the literals will be, so that comparisons both hold and fail. */
    private static final String[] VALUES = {"plain", "a", "Z", "'", "\"", "\\", "*/", "/*", "\\u000a", "\n", "é", "%_",
        "a'b", "", " ", "ZZ", "\u0000", "??/", "0"};

    @TempDir
    static Path dir;

    private static Tessera db;

    @BeforeAll
    static void tables() {
        Object[][] rows = new Object[VALUES.length * 3][];
        for (int i = 0; i < rows.length; i++) {
            rows[i] = new Object[] {i + 1, VALUES[i % VALUES.length]};
        }
        TinyTables.write(dir, "t", "a INTEGER NOT NULL, s VARCHAR NOT NULL", rows);
        db = Tessera.open(dir);
    }

    @AfterAll
    static void close() {
        db.close();
    }

    private static String randomText(Random r) {
        StringBuilder sb = new StringBuilder();
        int n = r.nextInt(5);
        for (int i = 0; i < n; i++) {
            sb.append(PIECES[r.nextInt(PIECES.length)]);
        }
        if (r.nextInt(4) == 0) {
            sb.append('\\'); // a trailing backslash
        }
        return sb.toString();
    }

    private static String sqlString(String s) {
        return "'" + s.replace("'", "''") + "'";
    }

    private static String sqlIdentifier(String s) {
        return "\"" + s.replace("\"", "\"\"") + "\"";
    }

    /** The query of one literal and one identifier; the plain query is the same with 'plain' and "n". */
    private static String query(int template, String literal, String identifier) {
        return switch (template) {
            case 0 -> "select count(*) as " + sqlIdentifier(identifier) + ", sum(a) from t where s <> " + sqlString(literal);
            case 1 -> "select count(*) as " + sqlIdentifier(identifier) + " from t where s >= " + sqlString(literal)
                    + " and a > 2";
            default -> "select a, s || " + sqlString(literal) + " as " + sqlIdentifier(identifier) + " from t where s = "
                    + sqlString(literal) + " order by 1";
        };
    }

    private static List<List<Object>> expected(int template, String literal) {
        List<List<Object>> out = new ArrayList<>();
        long count = 0;
        long sum = 0;
        for (int i = 0; i < VALUES.length * 3; i++) {
            int a = i + 1;
            String s = VALUES[i % VALUES.length];
            switch (template) {
                case 0 -> {
                    if (!s.equals(literal)) {
                        count++;
                        sum += a;
                    }
                }
                case 1 -> {
                    if (s.compareTo(literal) >= 0 && a > 2) {
                        count++;
                    }
                }
                default -> {
                    if (s.equals(literal)) {
                        out.add(List.of(a, s + literal));
                    }
                }
            }
        }
        if (template == 0) {
            out.add(java.util.Arrays.asList(count, count == 0 ? null : sum));
        } else if (template == 1) {
            out.add(List.of(count));
        }
        return out;
    }

    private static String seedText() {
        return System.getProperty("tessera.fuzz.seed", Long.toString(System.nanoTime()));
    }

    @Test
    void randomLiteralsAndIdentifiersGiveTheirAnswersAndNeverChangeTheCode() {
        long seed = Long.parseLong(seedText());
        System.out.println("ConstantInjectionFuzzTest seed " + seed + " (-Dtessera.fuzz.seed=" + seed + " repeats it)");
        Random r = new Random(seed);
        QueryEngine engine = db.engine();
        List<Map<Integer, String>> plainJava = new ArrayList<>();
        for (int template = 0; template < 3; template++) {
            plainJava.add(javaCode(engine, query(template, "plain", "n")));
            assertEquals(expected(template, "plain"), TinyTables.rows(db.query(query(template, "plain", "n"))));
        }
        long compiles = JavaCompiler.compiles();
        for (int i = 0; i < LITERALS; i++) {
            int template = i % 3;
            String literal = i < VALUES.length ? VALUES[i] : randomText(r);
            // Calcite's parser takes no line break inside a quoted identifier (a syntax error names its position)
            // nor one over 128 characters
            String identifier = randomText(r).replace("\u0000", "").replace('\n', ' ').replace('\r', ' ');
            identifier = identifier.substring(0, Math.min(identifier.length(), 128));
            if (identifier.isEmpty()) {
                identifier = "n";
            }
            String sql = query(template, literal, identifier);
            String what = "seed " + seed + ", query " + i + ": " + sql;
            Map<Integer, String> code = javaCode(engine, sql);
            assertEquals(plainJava.get(template), code, what);
            QueryResult result = db.query(sql);
            assertEquals(expected(template, literal), TinyTables.rows(result), what);
            int named = template == 2 ? 1 : 0;
            assertEquals(identifier, result.columns().get(named).name(), what);
        }
        assertEquals(compiles, JavaCompiler.compiles(), "a constant made the JVM backend compile a class");
    }

    /** Each pipeline's Java without comments, after checking that its comments are sanitized. */
    private static Map<Integer, String> javaCode(QueryEngine engine, String sql) {
        Map<Integer, String> out = new TreeMap<>();
        for (EmittedPipeline e : JvmExecutor.compiled(engine.prepare(sql).jvm()).pipelines()) {
            assertSanitizedComments(e.source(), sql);
            out.put(e.pipeline().id(), JavaCompiler.codeKey(e.source()));
        }
        return out;
    }

    /** No backslash, quote of a C or Java string, slash or line break of user text survives in a comment. */
    private static void assertSanitizedComments(String source, String sql) {
        for (String line : source.split("\n", -1)) {
            int c = line.indexOf("//");
            if (c < 0) {
                continue;
            }
            String comment = line.substring(c + 2);
            for (char ch : comment.toCharArray()) {
                assertTrue(ch >= 0x20 && ch < 0x7f && ch != '\\' && ch != '/' && ch != '"' && ch != '?',
                        "unsanitized character " + (int) ch + " in comment '" + comment + "' of " + sql);
            }
        }
        assertFalse(source.contains("\\u"), "a unicode escape in the source of " + sql);
    }

    @Test
    void randomLiteralsNeverChangeTheCudaCode() throws Exception {
        long seed = Long.parseLong(seedText());
        Random r = new Random(seed ^ 0x5DEECE66DL);
        QueryEngine engine = db.engine();
        // one string comparison a query: Calcite folds two over one column into ranges that depend on their order
        String[] templates = {"select count(*), sum(a) from t where s <> %s and a > %d",
            "select count(*), sum(a) from t where s >= %s and a < %d"};
        List<Map<Integer, String>> plain = new ArrayList<>();
        for (String template : templates) {
            plain.add(cudaCode(engine, String.format(template, "'plain'", 2)));
            assertFalse(plain.getLast().isEmpty(), "the query has GPU code");
        }
        List<String> nastiest = new ArrayList<>();
        for (int i = 0; i < LITERALS; i++) {
            String literal = randomText(r);
            String sql = String.format(templates[i % 2], sqlString(literal), r.nextInt(1000));
            Map<Integer, String> sources = new TreeMap<>();
            for (Map.Entry<Integer, String> k : cudaSources(engine, sql).entrySet()) {
                assertSanitizedComments(k.getValue(), sql);
                sources.put(k.getKey(), GeneratedSource.withoutComments(k.getValue()));
                if (nastiest.size() < 3 && literal.endsWith("\\")) {
                    nastiest.add(k.getValue());
                }
            }
            assertEquals(plain.get(i % 2), sources, "seed " + seed + ": " + sql);
        }
        compileWithNvccWhereThere(nastiest);
    }

    private static Map<Integer, String> cudaCode(QueryEngine engine, String sql) {
        Map<Integer, String> out = new TreeMap<>();
        cudaSources(engine, sql).forEach((id, source) -> out.put(id, GeneratedSource.withoutComments(source)));
        return out;
    }

    private static Map<Integer, String> cudaSources(QueryEngine engine, String sql) {
        QueryPlan plan = engine.plan(sql);
        GpuPlacement placed = GpuPlacement.place(plan, CudaVariantSpace.INSTANCE.completeAll(plan,
                CudaVariantSpace.INSTANCE.defaultsWith(plan, Map.of())), key -> GpuPlan.dictionary(db.database(), key));
        Map<Integer, String> out = new TreeMap<>();
        for (CudaKernelSource k : placed.kernels().values()) {
            out.put(k.pipeline().id(), k.source());
        }
        return out;
    }

    /** CI has nvcc but no GPU: the kernels with the nastiest comments must still compile for sm_90. */
    private static void compileWithNvccWhereThere(List<String> sources) throws IOException, InterruptedException {
        if (!nvccOnPath()) {
            System.out.println("ConstantInjectionFuzzTest: nvcc is not on this machine; CUDA sources checked as text only");
            return;
        }
        Path work = Files.createTempDirectory(dir, "cu");
        Files.writeString(work.resolve(CudaSources.CRYSTAL_HEADER), CudaSources.crystalHeader());
        Files.writeString(work.resolve(CudaSources.QUERY_HEADER), CudaSources.read(CudaSources.QUERY_HEADER));
        for (int i = 0; i < sources.size(); i++) {
            Path cu = work.resolve("k" + i + ".cu");
            Files.writeString(cu, sources.get(i));
            Process p = new ProcessBuilder("nvcc", "-arch=sm_90", "-cubin", "-o", work.resolve("k" + i + ".cubin").toString(),
                    cu.toString()).directory(work.toFile()).redirectErrorStream(true).start();
            String log = new String(p.getInputStream().readAllBytes());
            assertTrue(p.waitFor(120, TimeUnit.SECONDS), "nvcc finished");
            assertEquals(0, p.exitValue(), "nvcc of\n" + sources.get(i) + "\n" + log);
        }
    }

    private static boolean nvccOnPath() {
        for (String d : System.getenv().getOrDefault("PATH", "").split(java.io.File.pathSeparator)) {
            if (Files.isExecutable(Path.of(d, "nvcc"))) {
                return true;
            }
        }
        return false;
    }
}

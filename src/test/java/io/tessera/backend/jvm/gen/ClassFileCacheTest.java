package io.tessera.backend.jvm.gen;

import io.tessera.Tessera;
import io.tessera.backend.jvm.JvmExecutor;
import io.tessera.exec.TinyTables;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Pipeline classes stored in the cache directory and defined from there by a later process. */
class ClassFileCacheTest {

    private static final String QUERY = "select g, count(*), sum(a) from t where a > 2 group by g order by g";

    @TempDir
    static Path dir;

    private static Tessera db;

    @BeforeAll
    static void tables() {
        Object[][] rows = new Object[40][];
        for (int i = 0; i < rows.length; i++) {
            rows[i] = new Object[] {i, "g" + (i % 3)};
        }
        TinyTables.write(dir.resolve("db"), "t", "a INTEGER NOT NULL, g VARCHAR NOT NULL", rows);
        db = Tessera.open(dir.resolve("db"));
    }

    @AfterAll
    static void close() {
        JavaCompiler.clearCache();
        db.close();
    }

    @Test
    void aFileRoundTripsAndAnyDamageIsAMiss() {
        Map<String, byte[]> classes = new LinkedHashMap<>();
        classes.put("P1", new byte[] {1, 2, 3});
        classes.put("P1$Inner", new byte[] {4, 5});
        byte[] file = ClassFileCache.encode(classes);
        Map<String, byte[]> back = ClassFileCache.decode(file);
        assertNotNull(back);
        assertEquals(List.of("P1", "P1$Inner"), new ArrayList<>(back.keySet()));
        assertArrayEquals(new byte[] {4, 5}, back.get("P1$Inner"));
        for (int i = 0; i < file.length; i++) {
            byte[] damaged = file.clone();
            damaged[i] ^= 0x10;
            assertNull(ClassFileCache.decode(damaged), "a flipped bit at byte " + i);
        }
        for (int n = 0; n < file.length; n++) {
            assertNull(ClassFileCache.decode(Arrays.copyOf(file, n)), "cut at " + n);
        }
    }

    @Test
    void aLaterProcessDefinesTheStoredClassesAndTheyAnswerAlike() throws IOException {
        List<EmittedPipeline> pipelines = JvmExecutor.compiled(db.engine().prepare(QUERY).jvm()).pipelines();
        List<List<Object>> expected = rows(QUERY);
        Path folder = dir.resolve("cache").resolve("build");

        // the first process compiles each class and stores it
        ClassFileCache first = new ClassFileCache(folder);
        long compiles = JavaCompiler.compiles();
        Map<String, Class<? extends PipelineCode>> compiled = new LinkedHashMap<>();
        for (EmittedPipeline e : pipelines) {
            String key = JavaCompiler.codeKey(e.source());
            compiled.putIfAbsent(key, JavaCompiler.storedOrCompiled(first, key, e.className(), e.source()));
        }
        assertEquals(compiled.size(), JavaCompiler.compiles() - compiles, "each distinct class compiled once");
        assertEquals(compiled.size(), files(folder), "each class stored in a file of its own");

        // a later process (a new cache over the same folder) defines them from the files without compiling
        ClassFileCache later = new ClassFileCache(folder);
        compiles = JavaCompiler.compiles();
        JavaCompiler.clearCache();
        for (Map.Entry<String, Class<? extends PipelineCode>> c : compiled.entrySet()) {
            EmittedPipeline e = pipelines.stream().filter(p -> JavaCompiler.codeKey(p.source()).equals(c.getKey()))
                    .findFirst().orElseThrow();
            Class<? extends PipelineCode> stored = JavaCompiler.storedOrCompiled(later, c.getKey(), e.className(),
                    e.source());
            assertNotSame(c.getValue(), stored, "defined anew from the file");
            assertEquals(c.getValue().getName(), stored.getName());
            JavaCompiler.remember(c.getKey(), stored);
        }
        assertEquals(compiles, JavaCompiler.compiles(), "no class compiled when all are stored");
        assertEquals(expected, rows(QUERY), "the query run by the stored classes");
        JavaCompiler.clearCache();
    }

    @Test
    void aDamagedFileIsCompiledAgainAndReplaced() throws IOException {
        EmittedPipeline e = JvmExecutor.compiled(db.engine().prepare(QUERY).jvm()).pipelines().getFirst();
        String key = JavaCompiler.codeKey(e.source());
        Path folder = dir.resolve("damaged").resolve("build");
        ClassFileCache cache = new ClassFileCache(folder);
        JavaCompiler.storedOrCompiled(cache, key, e.className(), e.source());
        Path file = folder.resolve(ClassFileCache.fileName(key));
        byte[] bytes = Files.readAllBytes(file);
        // a valid file whose class bytes are not a class: defined, it fails verification, so it is compiled again
        Map<String, byte[]> garbage = new LinkedHashMap<>();
        garbage.put(ClassFileCache.decode(bytes).keySet().iterator().next(), new byte[] {(byte) 0xCA, (byte) 0xFE, 0});
        Files.write(file, ClassFileCache.encode(garbage));
        long compiles = JavaCompiler.compiles();
        Class<? extends PipelineCode> again = JavaCompiler.storedOrCompiled(new ClassFileCache(folder), key,
                e.className(), e.source());
        assertEquals(compiles + 1, JavaCompiler.compiles(), "compiled again");
        assertTrue(PipelineCode.class.isAssignableFrom(again));
        assertNotNull(StoredClasses.define(new ClassFileCache(folder).load(key)), "the damaged file replaced");
        // a file that is only half written is a miss as well
        Files.write(file, Arrays.copyOf(bytes, bytes.length / 2));
        assertNull(new ClassFileCache(folder).load(key));
    }

    @Test
    void filesInAFolderOthersCanWriteAreNotRun() throws IOException {
        EmittedPipeline e = JvmExecutor.compiled(db.engine().prepare(QUERY).jvm()).pipelines().getFirst();
        String key = JavaCompiler.codeKey(e.source());
        Path folder = dir.resolve("shared").resolve("build");
        JavaCompiler.storedOrCompiled(new ClassFileCache(folder), key, e.className(), e.source());
        assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(folder)));
        assertNotNull(new ClassFileCache(folder).load(key));
        Files.setPosixFilePermissions(folder.getParent(), PosixFilePermissions.fromString("rwxrwxrwx"));
        assertNull(new ClassFileCache(folder).load(key), "the folder above writable by all");
        Files.setPosixFilePermissions(folder.getParent(), PosixFilePermissions.fromString("rwx------"));
        Files.setPosixFilePermissions(folder, PosixFilePermissions.fromString("rwxrwx---"));
        assertNull(new ClassFileCache(folder).load(key), "the folder writable by its group");
    }

    private static long files(Path folder) throws IOException {
        try (Stream<Path> s = Files.list(folder)) {
            return s.filter(p -> p.toString().endsWith(".classes")).count();
        }
    }

    private static List<List<Object>> rows(String sql) {
        List<List<Object>> out = new ArrayList<>();
        for (Object[] row : db.query(sql).rows()) {
            out.add(Arrays.asList(row));
        }
        return out;
    }
}

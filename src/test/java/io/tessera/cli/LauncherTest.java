package io.tessera.cli;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.jar.Attributes;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The {@code tessera} launcher script as a user runs it: the Vector API module only where it may be used, the JVM's
 * boot warning about that incubator module never on standard error, and everything else written there, from
 * Tessera and from the JVM before Tessera starts. The script runs from a directory of its own whose {@code target/tessera.jar} is a manifest naming this
 * build's classes and jars, so that it finds nothing to build.
 */
class LauncherTest {

    @TempDir
    Path root;

    @BeforeEach
    void launcherBesideThisBuild() throws IOException {
        Path project = Path.of("").toAbsolutePath();
        Files.createDirectories(root.resolve("bin"));
        Files.createDirectories(root.resolve("target/lib"));
        Files.copy(project.resolve("tessera"), root.resolve("tessera"));
        Files.copy(project.resolve("bin/find-jdk"), root.resolve("bin/find-jdk"));
        Files.copy(project.resolve("bin/aot-cache"), root.resolve("bin/aot-cache"));
        Files.copy(project.resolve("bin/jvm-options"), root.resolve("bin/jvm-options"));
        writeJar(classPath());
    }

    /** This build's class path, one entry per element. */
    private static List<Path> classPath() {
        String classPath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        List<Path> entries = new ArrayList<>();
        for (String entry : classPath.split(File.pathSeparator)) {
            if (!entry.isBlank()) {
                entries.add(Path.of(entry));
            }
        }
        return entries;
    }

    /** target/tessera.jar as a manifest naming {@code entries}. */
    private void writeJar(List<Path> entries) throws IOException {
        List<String> urls = new ArrayList<>();
        for (Path entry : entries) {
            urls.add(entry.toUri().toString());
        }
        Manifest m = new Manifest();
        m.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        m.getMainAttributes().put(Attributes.Name.CLASS_PATH, String.join(" ", urls));
        try (OutputStream out = Files.newOutputStream(root.resolve("target/tessera.jar"));
             JarOutputStream jar = new JarOutputStream(out, m)) {
            jar.flush();
        }
    }

    /** target/tessera.jar as a build without the startup cache's training class, whose training fails at once. */
    private void withoutTrainingClass() throws IOException {
        List<Path> entries = new ArrayList<>();
        for (Path entry : classPath()) {
            if (Files.isRegularFile(entry.resolve("io/tessera/cli/StartupTraining.class"))) {
                Path copy = root.resolve("classes");
                try (var files = Files.walk(entry)) {
                    for (Path f : files.toList()) {
                        Path to = copy.resolve(entry.relativize(f).toString());
                        if (Files.isDirectory(f)) {
                            Files.createDirectories(to);
                        } else if (!f.getFileName().toString().startsWith("StartupTraining")) {
                            Files.copy(f, to);
                        }
                    }
                }
                entries.add(copy);
            } else {
                entries.add(entry);
            }
        }
        writeJar(entries);
    }

    record Run(int rc, String out, String err) {
    }

    private Run tessera(String javaOpts, String... args) throws Exception {
        return tessera(javaOpts, false, args);
    }

    private Run tessera(String javaOpts, boolean startupCache, String... args) throws Exception {
        return tessera(javaOpts, startupCache, Map.of(), args);
    }

    /**
     * Runs the launcher; {@code startupCache}: with its startup cache (bin/aot-cache), else TESSERA_AOT=off;
     * {@code vars}: more environment.
     */
    private Run tessera(String javaOpts, boolean startupCache, Map<String, String> vars, String... args)
            throws Exception {
        List<String> cmd = new ArrayList<>(List.of("bash", root.resolve("tessera").toString()));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(root.toFile());
        Map<String, String> env = pb.environment();
        env.put("JAVA_HOME", System.getProperty("java.home"));
        env.put("TESSERA_JAVA_OPTS", javaOpts);
        env.put("TESSERA_CACHE_DIR", root.resolve("cache").toString());
        env.put("TESSERA_AOT", startupCache ? "on" : "off");
        env.remove("TESSERA_VECTOR_API");
        env.putAll(vars);
        Process p = pb.start();
        p.getOutputStream().close();
        CompletableFuture<String> out = CompletableFuture.supplyAsync(() -> read(p.getInputStream()));
        // read to the end: the filter that the JVM booted with may write its last line after the JVM exits
        CompletableFuture<String> err = CompletableFuture.supplyAsync(() -> read(p.getErrorStream()));
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), "the launcher did not finish");
        return new Run(p.exitValue(), out.get(60, TimeUnit.SECONDS), err.get(60, TimeUnit.SECONDS));
    }

    private static String read(java.io.InputStream in) {
        try (in) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    @Test
    void theBootWarningDoesNotReachStandardError() throws Exception {
        for (String vectorApi : List.of("on", "off")) {
            Run r = tessera("-Xmx256m", false, Map.of("TESSERA_VECTOR_API", vectorApi), "--version");
            assertEquals(0, r.rc(), r.err());
            assertTrue(r.out().contains("Tessera"), r.out());
            assertEquals("", r.err(), "TESSERA_VECTOR_API=" + vectorApi);
        }
    }

    /**
     * The JVM gets the Vector API module where a command lists or searches variants, or a stored profile chose
     * simd=vector, and not otherwise: {@code variants} lists the simd dimension only in a JVM with the module.
     */
    @Test
    void theVectorApiModuleOnlyWhereItMayBeUsed() throws Exception {
        String db = root.resolve("db").toString();
        Run created = tessera("-Xmx256m", "create", "--db", db, "--table", "t", "--columns", "a INTEGER NOT NULL");
        assertEquals(0, created.rc(), created.err());
        String query = "select count(*) from t where a < 5";
        Run listed = tessera("-Xmx256m", "variants", "--db", db, "-c", query);
        assertEquals(new Run(0, listed.out(), ""), listed);
        assertTrue(listed.out().contains("simd"), listed.out());
        Run without = tessera("-Xmx256m", false, Map.of("TESSERA_VECTOR_API", "off"), "variants", "--db", db,
                "-c", query);
        assertEquals(new Run(0, without.out(), ""), without);
        assertFalse(without.out().contains("simd"), without.out());

        assertEquals("", wantsVectorApi(Map.of(), "sql", "--db", db));
        assertEquals("", wantsVectorApi(Map.of(), "bench", "ssb"));
        assertEquals("yes", wantsVectorApi(Map.of(), "bench", "tuning"));
        assertEquals("yes", wantsVectorApi(Map.of(), "tune", "--db", db));
        assertEquals("", wantsVectorApi(Map.of("TESSERA_VECTOR_API", "off"), "tune"));
        assertEquals("yes", wantsVectorApi(Map.of("TESSERA_VECTOR_API", "on"), "sql"));
        assertEquals("yes", wantsVectorApi(Map.of("TESSERA_JAVA_OPTS", "--add-modules jdk.incubator.vector"), "sql"));
        Path profiles = Files.createDirectories(root.resolve("cache/profiles"));
        Files.writeString(profiles.resolve("cpu.json"), "{\"device\": \"cpu\", \"entries\": {\"q\": "
                + "{\"genome\": \"jvm{simd=scalar,threads=2}\"}}}\n");
        assertEquals("", wantsVectorApi(Map.of(), "sql"));
        Files.writeString(profiles.resolve("cpu.json"), "{\"device\": \"cpu\", \"entries\": {\"q\": "
                + "{\"genome\": \"jvm{simd=vector,threads=2}\"}}}\n");
        assertEquals("yes", wantsVectorApi(Map.of(), "sql"));
    }

    /** "yes" where bin/jvm-options gives a process with these arguments the Vector API module, else "". */
    private String wantsVectorApi(Map<String, String> vars, String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of("bash", "-c", "source bin/find-jdk; source bin/jvm-options;"
                + " tessera_wants_vector_api \"$@\" && echo yes", "bash"));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(root.toFile()).redirectErrorStream(true);
        pb.environment().remove("TESSERA_VECTOR_API");
        pb.environment().remove("TESSERA_JAVA_OPTS");
        pb.environment().put("TESSERA_CACHE_DIR", root.resolve("cache").toString());
        pb.environment().putAll(vars);
        Process p = pb.start();
        String out = read(p.getInputStream()).strip();
        assertTrue(p.waitFor(30, TimeUnit.SECONDS));
        return out;
    }

    @Test
    void tesserasErrorsStillDo() throws Exception {
        Run r = tessera("-Xmx256m", "tables", "--db", root.resolve("none").toString());
        assertEquals(1, r.rc());
        assertTrue(r.err().startsWith("tessera: ") && r.err().lines().count() == 1, r.err());
        assertFalse(r.err().contains("WARNING"), r.err());
    }

    @Test
    void theJvmsErrorsBeforeTesseraStartsStillDo() throws Exception {
        Run r = tessera("-Xmx1z", "--version");
        assertNotEquals(0, r.rc());
        assertTrue(r.err().contains("Invalid maximum heap size: -Xmx1z"), r.err());
    }

    /**
     * The startup cache never breaks a run: a training that fails says so once and is not repeated before the next
     * build; a cache the JVM cannot use (bytes that are no cache, a cache made for another program and other JVM
     * options) is ignored without a word on standard output or error. The training fails here at once: the build
     * lacks its class.
     */
    @Test
    void aStartupCacheThatCannotBeUsedNeverBreaksARun() throws Exception {
        withoutTrainingClass();
        String opts = "-Xmx256m";
        Run failed = tessera(opts, true, "--version");
        assertEquals(0, failed.rc(), failed.err());
        assertEquals("Tessera 0.1.0", failed.out().strip());
        assertTrue(failed.err().contains("tessera: writing the startup cache")
                && failed.err().contains("could not be written"), failed.err());
        Path key = root.resolve("target/tessera.aot.key");
        assertTrue(Files.readString(key).endsWith("\nfailed\n"), Files.readString(key));
        assertEquals(new Run(0, "Tessera 0.1.0\n", ""), tessera(opts, true, "--version"));

        // the key file now says a training for these options succeeded: the launcher hands the JVM whatever is there
        String keyLine = Files.readAllLines(key).getFirst();
        Files.writeString(key, keyLine + "\nok\n");
        Path cache = root.resolve("target/tessera.aot");
        byte[] noise = new byte[100_000];
        new java.util.Random(7).nextBytes(noise);
        Files.write(cache, noise);
        assertEquals(new Run(0, "Tessera 0.1.0\n", ""), tessera(opts, true, "--version"));

        Process made = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:AOTCacheOutput=" + cache, "-version").redirectErrorStream(true).start();
        made.getInputStream().readAllBytes();
        assertEquals(0, made.waitFor());
        assertTrue(Files.size(cache) > 0);
        Files.writeString(key, keyLine + "\nok\n"); // newer than the jars, as after a training
        assertEquals(new Run(0, "Tessera 0.1.0\n", ""), tessera(opts, true, "--version"));
        Run error = tessera(opts, true, "tables", "--db", root.resolve("none").toString());
        assertEquals(1, error.rc());
        assertTrue(error.err().startsWith("tessera: ") && error.err().lines().count() == 1, error.err());
    }
}

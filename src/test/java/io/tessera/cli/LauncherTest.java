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
 * The {@code tessera} launcher script as a user runs it: the JVM's boot warning about the incubator module never
 * reaches standard error, and everything else written there does, from Tessera and from the JVM before Tessera
 * starts. The script runs from a directory of its own whose {@code target/tessera.jar} is a manifest naming this
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
        String classPath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        List<String> urls = new ArrayList<>();
        for (String entry : classPath.split(File.pathSeparator)) {
            if (!entry.isBlank()) {
                urls.add(Path.of(entry).toUri().toString());
            }
        }
        Manifest m = new Manifest();
        m.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        m.getMainAttributes().put(Attributes.Name.CLASS_PATH, String.join(" ", urls));
        try (OutputStream out = Files.newOutputStream(root.resolve("target/tessera.jar"));
             JarOutputStream jar = new JarOutputStream(out, m)) {
            jar.flush();
        }
    }

    record Run(int rc, String out, String err) {
    }

    private Run tessera(String javaOpts, String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of("bash", root.resolve("tessera").toString()));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(root.toFile());
        Map<String, String> env = pb.environment();
        env.put("JAVA_HOME", System.getProperty("java.home"));
        env.put("TESSERA_JAVA_OPTS", javaOpts);
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
        Run r = tessera("-Xmx256m", "--version");
        assertEquals(0, r.rc(), r.err());
        assertTrue(r.out().contains("Tessera"), r.out());
        assertEquals("", r.err());
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
}

package io.tessera.cli;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code bin/find-jdk} remembers each JDK's version (its memo, {@code jdk-versions} in Tessera's cache directory)
 * instead of starting a JVM to ask it on every launch: asked once, then read back, asked again when the JDK's path or
 * modification times change, and a damaged memo is ignored and rewritten. The JDKs here are stand-ins whose
 * {@code bin/java} is a script that counts how often it is asked.
 */
class JdkMemoTest {

    @TempDir
    Path dir;

    private Path cache;
    private Path calls;

    @BeforeEach
    void setUp() throws IOException {
        cache = dir.resolve("cache");
        calls = dir.resolve("calls");
        Files.writeString(calls, "");
    }

    /** A stand-in JDK of {@code version} under {@code name}: bin/java prints its version as a JVM does, and counts. */
    private Path jdk(String name, String version) throws IOException {
        Path home = dir.resolve(name);
        Files.createDirectories(home.resolve("bin"));
        Files.createDirectories(home.resolve("lib"));
        Path java = home.resolve("bin/java");
        Files.writeString(java, "#!/bin/bash\necho \"" + home + "\" >> '" + calls + "'\n"
                + "echo 'Property settings:' >&2\necho '    java.specification.version = " + version + "' >&2\n");
        Files.setPosixFilePermissions(java, PosixFilePermissions.fromString("rwxr-xr-x"));
        Files.copy(java, home.resolve("bin/javac"));
        Files.writeString(home.resolve("lib/modules"), "modules");
        return home;
    }

    private record Found(String home, String version, String err) {
    }

    /** Runs tessera_find_jdk with JAVA_HOME = {@code javaHome}; returns what it found. */
    private Found find(Path javaHome) throws Exception {
        Path script = Path.of("bin/find-jdk").toAbsolutePath();
        ProcessBuilder pb = new ProcessBuilder("/bin/bash", "-c",
                "source '" + script + "'; tessera_find_jdk && echo \"$TESSERA_JAVA_HOME|$TESSERA_JAVA_VERSION\"");
        Map<String, String> env = pb.environment();
        env.put("JAVA_HOME", javaHome.toString());
        env.put("TESSERA_CACHE_DIR", cache.toString());
        // the JDK running the tests comes next (java on the PATH): a JDK 22+ to find after a stand-in too old
        env.put("PATH", Path.of(System.getProperty("java.home"), "bin") + ":" + env.getOrDefault("PATH", "/usr/bin:/bin"));
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, p.waitFor(), err);
        String[] parts = out.split("\\|");
        return new Found(parts[0], parts[1], err);
    }

    private List<String> asked() throws IOException {
        return Files.readAllLines(calls);
    }

    @Test
    void aJdkIsAskedOnceThenRemembered() throws Exception {
        Path jdk = jdk("jdk-a", "25");
        assertEquals(new Found(jdk.toString(), "25", ""), find(jdk));
        assertEquals(new Found(jdk.toString(), "25", ""), find(jdk));
        assertEquals(new Found(jdk.toString(), "25", ""), find(jdk));
        assertEquals(List.of(jdk.toString()), asked());
        String memo = Files.readString(cache.resolve("jdk-versions"));
        assertTrue(memo.startsWith(jdk + "\t") && memo.strip().endsWith("\t25"), memo);
    }

    @Test
    void aChangedModificationTimeIsNoticed() throws Exception {
        Path jdk = jdk("jdk-a", "24");
        assertEquals("24", find(jdk).version());
        // the JDK updated in place: same path, other files
        Files.writeString(jdk.resolve("bin/java"), Files.readString(jdk.resolve("bin/java")).replace("= 24", "= 25"));
        Files.setLastModifiedTime(jdk.resolve("bin/java"), FileTime.from(Instant.now().plusSeconds(5)));
        assertEquals("25", find(jdk).version());
        assertEquals("25", find(jdk).version());
        assertEquals(2, asked().size(), asked().toString());
        Files.setLastModifiedTime(jdk.resolve("lib/modules"), FileTime.from(Instant.now().plusSeconds(10)));
        assertEquals("25", find(jdk).version());
        assertEquals(3, asked().size(), asked().toString());
    }

    @Test
    void aChangedPathIsNoticedAndEachJdkKeepsItsLine() throws Exception {
        Path a = jdk("jdk-a", "25");
        Path b = jdk("jdk-b", "23");
        // the same modification times under another path: still asked
        Files.setLastModifiedTime(b.resolve("bin/java"), Files.getLastModifiedTime(a.resolve("bin/java")));
        Files.setLastModifiedTime(b.resolve("lib/modules"), Files.getLastModifiedTime(a.resolve("lib/modules")));
        assertEquals("25", find(a).version());
        assertEquals("23", find(b).version());
        assertEquals("25", find(a).version());
        assertEquals("23", find(b).version());
        assertEquals(List.of(a.toString(), b.toString()), asked());
        assertEquals(2, Files.readAllLines(cache.resolve("jdk-versions")).size());
    }

    @Test
    void aDamagedMemoIsIgnoredAndRewritten() throws Exception {
        Path jdk = jdk("jdk-a", "25");
        find(jdk);
        Path memo = cache.resolve("jdk-versions");
        String line = Files.readAllLines(memo).getFirst();
        String[] f = line.split("\t");
        // the right path and stamp with a version that is none, a line cut short, binary noise, a relative path
        Files.write(memo, List.of(f[0] + "\t" + f[1] + "\tabc", f[0] + "\t" + f[1], "\u0000\u0001garbage\tx\ty",
                "relative\t1.2\t25"));
        assertEquals(new Found(jdk.toString(), "25", ""), find(jdk));
        assertEquals(2, asked().size());
        assertEquals(List.of(line), Files.readAllLines(memo));
        // a memo that is not a file at all, and a cache directory that cannot be written
        Files.delete(memo);
        Files.createDirectories(memo);
        assertEquals(new Found(jdk.toString(), "25", ""), find(jdk));
        assertEquals(3, asked().size());
    }

    @Test
    void aJdkTooOldIsRememberedAndPassedOver() throws Exception {
        Path old = jdk("jdk-old", "17");
        Found first = find(old);
        Found second = find(old);
        assertNotEquals(old.toString(), first.home());
        assertEquals(first, second);
        assertEquals(List.of(old.toString()), asked());
        assertFalse(Files.readString(cache.resolve("jdk-versions")).isEmpty());
    }
}

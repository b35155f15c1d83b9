package io.tessera.cli;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.jar.Attributes;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code bin/aot-cache}, the launcher's startup cache: when a training is due (after a build, for another JDK or other
 * JVM options, when a cache that was made is gone), and that a training that fails leaves no cache, says so once and
 * is not tried again until the next build. The project here has a jar without Tessera's classes, so its training
 * fails at once; {@link LauncherTest} runs the launcher with caches the JVM cannot use.
 */
class AotCacheScriptTest {

    @TempDir
    Path root;

    private Path target;

    @BeforeEach
    void project() throws IOException {
        target = Files.createDirectories(root.resolve("target/lib"));
        target = root.resolve("target");
        Manifest m = new Manifest();
        m.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        try (OutputStream out = Files.newOutputStream(target.resolve("tessera.jar"));
             JarOutputStream jar = new JarOutputStream(out, m)) {
            jar.flush();
        }
        Files.copy(target.resolve("tessera.jar"), target.resolve("lib/dep.jar"));
        FileTime past = FileTime.from(Instant.now().minusSeconds(3600));
        Files.setLastModifiedTime(target.resolve("tessera.jar"), past);
        Files.setLastModifiedTime(target.resolve("lib/dep.jar"), past);
    }

    private record Run(String out, String err) {
    }

    /** Runs {@code script} in bash with the two scripts sourced. */
    private Run bash(String script) throws Exception {
        String src = "source '" + Path.of("bin/find-jdk").toAbsolutePath() + "'; source '"
                + Path.of("bin/aot-cache").toAbsolutePath() + "'; root='" + root + "'; " + script;
        ProcessBuilder pb = new ProcessBuilder("/bin/bash", "-c", src);
        pb.environment().put("TESSERA_CACHE_DIR", root.resolve("cache").toString());
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, p.waitFor(), err);
        return new Run(out.strip(), err);
    }

    private String due(String key) throws Exception {
        return bash("tessera_aot_due \"$root\" '" + key + "' && echo due || echo fresh").out();
    }

    private void keyFile(String key, String status) throws IOException {
        Files.writeString(target.resolve("tessera.aot.key"), key + "\n" + status + "\n");
    }

    @Test
    void aTrainingIsDueAfterABuildForOtherOptionsAndWhenTheCacheIsGone() throws Exception {
        assertEquals("due", due("k1"), "never trained");
        keyFile("k1", "ok");
        Files.writeString(target.resolve("tessera.aot"), "cache");
        assertEquals("fresh", due("k1"));
        assertEquals("due", due("k2"), "another JDK or other JVM options");
        Files.delete(target.resolve("tessera.aot"));
        assertEquals("due", due("k1"), "the cache was deleted");
        Files.writeString(target.resolve("tessera.aot"), "cache");
        Files.setLastModifiedTime(target.resolve("lib/dep.jar"), FileTime.from(Instant.now().plusSeconds(60)));
        assertEquals("due", due("k1"), "a jar was built after the training");
        Files.setLastModifiedTime(target.resolve("lib/dep.jar"), FileTime.from(Instant.now().minusSeconds(3600)));
        keyFile("k1", "failed");
        Files.delete(target.resolve("tessera.aot"));
        assertEquals("fresh", due("k1"), "a failed training waits for the next build");
        Files.writeString(target.resolve("tessera.aot.key"), "\u0000 damaged");
        assertEquals("due", due("k1"), "a damaged key file");
    }

    /** An import replays the training's method profiles, other commands do not; TESSERA_AOT_REPLAY says otherwise. */
    @Test
    void onlyAnImportReplaysTheTrainingsProfiles() throws Exception {
        String replays = "tessera_aot_replays %s && echo replays || echo not";
        assertEquals("replays", bash(replays.formatted("import --db d --table t f.parquet")).out());
        assertEquals("replays", bash(replays.formatted("bench import f.parquet --runs 2")).out());
        assertEquals("not", bash(replays.formatted("sql d -c 'select 1'")).out());
        assertEquals("not", bash(replays.formatted("bench tpch --db d")).out());
        assertEquals("not", bash(replays.formatted("")).out());
        assertEquals("not", bash("TESSERA_AOT_REPLAY=off; " + replays.formatted("import f.csv")).out());
        assertEquals("replays", bash("TESSERA_AOT_REPLAY=on; " + replays.formatted("sql d")).out());
    }

    /** The launcher's two option sets (with and without the Vector API module) keep a cache each. */
    @Test
    void aNamedCacheKeepsItsOwnFiles() throws Exception {
        keyFile("k1", "ok");
        Files.writeString(target.resolve("tessera.aot"), "cache");
        assertEquals("fresh", due("k1"));
        String named = "TESSERA_AOT_NAME=tessera-vector; ";
        assertEquals("due", bash(named + "tessera_aot_due \"$root\" k2 && echo due || echo fresh").out());
        String java = System.getProperty("java.home");
        Files.writeString(target.resolve("tessera-vector.aot"), "other cache");
        Run r = bash(named + "printf '%s\\nok\\n' \"$(tessera_aot_key '" + java + "' -Xmx64m)\""
                + " > \"$root/target/tessera-vector.aot.key\"; tessera_aot_prepare \"$root\" '" + java
                + "' \"$root/target/tessera.jar\" -Xmx64m; echo \"${TESSERA_AOT_OPTIONS[0]}\"");
        assertEquals("-XX:AOTCache=" + target.resolve("tessera-vector.aot"), r.out().lines().toList().getLast());
        assertEquals("fresh", due("k1"), "the other cache is left as it was");
        assertEquals("cache", Files.readString(target.resolve("tessera.aot")));
    }

    @Test
    void aFailedTrainingLeavesNoCacheAndIsNotRepeated() throws Exception {
        String java = System.getProperty("java.home");
        String prepare = "tessera_aot_prepare \"$root\" '" + java + "' \"$root/target/tessera.jar\" -Xmx64m;"
                + " echo \"options=${#TESSERA_AOT_OPTIONS[@]}\"";
        Run first = bash(prepare);
        assertEquals("options=0", first.out());
        assertTrue(first.err().contains("tessera: writing the startup cache"), first.err());
        assertTrue(first.err().contains("could not be written"), first.err());
        assertEquals(2, first.err().lines().count(), first.err());
        assertFalse(Files.exists(target.resolve("tessera.aot")));
        assertTrue(Files.readString(target.resolve("tessera.aot.log")).contains("io.tessera.cli.StartupTraining"));
        assertTrue(Files.readString(target.resolve("tessera.aot.key")).endsWith("\nfailed\n"));
        try (var s = Files.list(target)) {
            assertTrue(s.noneMatch(p -> p.getFileName().toString().contains(".tmp")), "no temporary file is left");
        }
        Files.delete(target.resolve("tessera.aot.log"));
        Run second = bash(prepare);
        assertEquals(new Run("options=0", ""), second);
        assertFalse(Files.exists(target.resolve("tessera.aot.log")), "not tried again before the next build");
    }

    @Test
    void aTrainingHeldByAnotherLauncherIsNotWaitedFor() throws Exception {
        String java = System.getProperty("java.home");
        Run r = bash("exec 9>\"$root/target/tessera.aot.lock\"; flock -n 9;"
                + " tessera_aot_prepare \"$root\" '" + java + "' \"$root/target/tessera.jar\" -Xmx64m;"
                + " echo \"options=${#TESSERA_AOT_OPTIONS[@]}\"");
        assertEquals(new Run("options=0", ""), r);
        assertFalse(Files.exists(target.resolve("tessera.aot.key")), "the other launcher's training decides");
    }
}

package io.tessera.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The README's test command on a fresh machine: {@code ./run-tests} itself sees to headless Chromium (the tuning
 * report's test needs it) before Maven starts, and says exactly what is missing where it cannot install it;
 * {@code .ci/run} runs the README's command and nothing of its own.
 */
class RunTestsScriptTest {

    @TempDir
    Path dir;

    @Test
    void missingChromiumIsNamedBeforeTheTestsStart() throws Exception {
        // a PATH with neither chromium nor apt-get (nor sudo): nothing can be installed
        Path bin = Files.createDirectories(dir.resolve("bin"));
        Files.createSymbolicLink(bin.resolve("id"), Path.of("/usr/bin/id").toRealPath());
        Path script = Path.of("bin/test-tools").toAbsolutePath();
        Process p = new ProcessBuilder("/bin/bash", "-c", "source '" + script + "'; PATH='" + bin
                + "'; tessera_ensure_test_tools; echo \"rc=$?\"").redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, p.waitFor(), out);
        assertTrue(out.contains("rc=1"), out);
        assertTrue(out.contains("run-tests: missing: headless Chromium"), out);
        assertTrue(out.contains("apt-get install chromium"), out);
    }

    @Test
    void runTestsChecksTheToolsBeforeMavenAndCiRunsTheReadmeCommand() throws Exception {
        String runTests = Files.readString(Path.of("run-tests"));
        int check = runTests.indexOf("tessera_ensure_test_tools");
        int maven = runTests.indexOf("./mvnw");
        assertTrue(check > 0 && check < maven, "run-tests must see to the test tools before Maven starts");
        String ci = Files.readString(Path.of(".ci/run"));
        assertTrue(ci.contains("exec ./run-tests"), ci);
        assertTrue(!ci.contains("apt-get"), ".ci/run must not install anything ./run-tests does not: " + ci);
        String readme = Files.readString(Path.of("README.md"));
        assertTrue(readme.contains("./run-tests"), "the README names the test command");
    }
}

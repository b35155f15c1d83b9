package io.tessera.cli;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Whether standard error is a terminal, as the progress lines ask. */
class GenerationProgressTest {

    @Test
    void terminalsAreTheDevicesOfTerminalsOnly() {
        assertTrue(GenerationProgress.isTerminalName("/dev/pts/3"));
        assertTrue(GenerationProgress.isTerminalName("/dev/tty1"));
        assertTrue(GenerationProgress.isTerminalName("/dev/ttyS0"));
        assertTrue(GenerationProgress.isTerminalName("/dev/console"));
        assertFalse(GenerationProgress.isTerminalName("/dev/null"));
        assertFalse(GenerationProgress.isTerminalName("pipe:[48213]"));
        assertFalse(GenerationProgress.isTerminalName("socket:[1234]"));
        assertFalse(GenerationProgress.isTerminalName("/tmp/dev/pts/log.txt"));
        assertFalse(GenerationProgress.isTerminalName("/home/u/err.log"));
    }

    @Test
    void standardErrorIsATerminalWhereIsattySaysSo() {
        // under the test runner a pipe or a file; run from a terminal, a terminal: either way isatty's answer
        assertEquals(GenerationProgress.isatty(), GenerationProgress.stderrIsTerminal());
    }
}

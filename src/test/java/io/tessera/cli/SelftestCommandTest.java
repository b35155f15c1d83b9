package io.tessera.cli;

import io.tessera.data.Progress;
import io.tessera.data.ssb.SsbGenerator;
import io.tessera.storage.Database;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SelftestCommandTest {

    @TempDir
    Path tmp;

    @Test
    void withoutAGpuSaysSoInOneLineAndRunsNothing() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        PrintStream oldOut = System.out;
        PrintStream oldErr = System.err;
        SelftestCommand command = new SelftestCommand();
        command.gpuUnavailable = () -> "no CUDA driver: libcuda.so.1 not found";
        int code;
        try {
            System.setOut(new PrintStream(out, true));
            System.setErr(new PrintStream(err, true));
            code = new picocli.CommandLine(command).execute("--device", "gpu", "--data-dir", tmp.toString());
        } finally {
            System.setOut(oldOut);
            System.setErr(oldErr);
        }
        assertEquals(2, code);
        assertEquals("tessera selftest: no usable GPU on this machine (no CUDA driver: libcuda.so.1 not found)\n",
                err.toString());
        assertEquals("", out.toString());
        assertEquals(0, tmp.toFile().list().length, "nothing generated");
    }

    @Test
    void aQueryNameThatMatchesNothingIsRefusedBeforeAnythingIsGenerated() {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        PrintStream oldErr = System.err;
        SelftestCommand command = new SelftestCommand();
        command.gpuUnavailable = () -> null;
        int code;
        try {
            System.setErr(new PrintStream(err, true));
            // q1.1 is an SSB query: with SSB left out (--sf 0) it names nothing
            code = new picocli.CommandLine(command).execute("--sf", "0", "--query", "q3,q1.1", "--data-dir", tmp.toString());
        } finally {
            System.setErr(oldErr);
        }
        assertEquals(2, code);
        assertEquals("tessera selftest: no query named 'q1.1' in tpch or nulls\n", err.toString());
        assertEquals(0, tmp.toFile().list().length, "nothing generated");
    }

    @Test
    void dataStoppedWhileGeneratingIsNotTakenForCompleteData() {
        Path dir = tmp.resolve("ssb-sf0.01");
        PrintStream out = new PrintStream(new ByteArrayOutputStream());
        // a generator stopped after its first table: the directory a later run looks at does not appear
        assertThrows(IllegalStateException.class, () -> SelftestCommand.generate(dir, d -> {
            new SsbGenerator(0.01, SsbGenerator.DEFAULT_SEED).generate(d, Progress.silent());
            throw new IllegalStateException("stopped");
        }, out));
        assertFalse(Files.exists(dir));
        SelftestCommand.generate(dir, d -> new SsbGenerator(0.01, SsbGenerator.DEFAULT_SEED).generate(d, Progress.silent()), out);
        try (Database db = Database.open(dir)) {
            assertTrue(db.hasTable("lineorder") && db.hasTable("ddate"), db.tables().toString());
        }
        assertFalse(Files.exists(tmp.resolve("ssb-sf0.01.partial")));
    }
}

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

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SelftestCommandTest {

    @TempDir
    Path tmp;

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

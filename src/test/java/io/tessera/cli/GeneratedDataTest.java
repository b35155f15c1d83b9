package io.tessera.cli;

import io.tessera.data.Progress;
import io.tessera.data.ssb.SsbGenerator;
import io.tessera.data.ssb.SsbSchema;
import io.tessera.storage.Database;
import io.tessera.storage.TableWriter;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.function.BiConsumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * An interrupted first {@code tessera ssb} left a database without lineorder, and every later run failed with
 * "Object 'lineorder' not found". Generation now goes to a sibling directory renamed when complete: a run stopped
 * part way (here by a generator that stops after its first table) leaves no database, and the next run succeeds.
 */
class GeneratedDataTest {

    @TempDir
    Path tmp;

    private final BiConsumer<Double, Database> real = SsbCommand.generator;

    @AfterEach
    void restore() {
        SsbCommand.generator = real;
    }

    private static int tessera(String... args) {
        PrintStream old = System.out;
        System.setOut(new PrintStream(new ByteArrayOutputStream()));
        try {
            return Main.run(args);
        } finally {
            System.setOut(old);
        }
    }

    @Test
    void anInterruptedSsbRunLeavesNothingAndTheNextRunSucceeds() {
        Path data = tmp.resolve("data");
        SsbCommand.generator = (sf, d) -> {
            try (TableWriter w = d.replace(SsbSchema.DDATE)) {
                w.commit(); // one table written, then the run is stopped
            }
            throw new IllegalStateException("interrupted");
        };
        assertNotEquals(0, tessera("ssb", "--sf", "0.01", "--data-dir", data.toString(), "--device", "cpu"));
        assertFalse(Files.exists(data.resolve("ssb-sf0.01")), "an interrupted run left a database behind");
        assertFalse(Files.exists(data.resolve("ssb-sf0.01.partial")));

        SsbCommand.generator = real;
        assertEquals(0, tessera("ssb", "--sf", "0.01", "--data-dir", data.toString(), "--device", "cpu"));
        assertEquals(java.util.List.of(), SsbCommand.missingTables(data.resolve("ssb-sf0.01")));
        assertFalse(Files.exists(data.resolve("ssb-sf0.01.partial")));
    }

    @Test
    void whatAKilledRunLeftIsCleanedUp() throws Exception {
        Path data = tmp.resolve("data");
        // a killed run's partial directory, and an older version's database that lacks lineorder
        Files.createDirectories(data.resolve("ssb-sf0.01.partial").resolve("lineorder"));
        try (Database d = Database.openOrCreate(data.resolve("ssb-sf0.01"))) {
            new SsbGenerator(0.01, SsbGenerator.DEFAULT_SEED).generate(d, Progress.silent());
            d.dropTable("lineorder");
        }
        assertEquals(java.util.List.of("lineorder"), SsbCommand.missingTables(data.resolve("ssb-sf0.01")));
        assertEquals(0, tessera("ssb", "--sf", "0.01", "--data-dir", data.toString(), "--device", "cpu"));
        assertEquals(java.util.List.of(), SsbCommand.missingTables(data.resolve("ssb-sf0.01")));
        assertFalse(Files.exists(data.resolve("ssb-sf0.01.partial")));
    }

    @Test
    void aGivenDatabaseWithoutTheSsbTablesIsNamedNotReplaced() throws Exception {
        Path db = tmp.resolve("mine");
        try (Database d = Database.openOrCreate(db)) {
            try (TableWriter w = d.replace(SsbSchema.DDATE)) {
                w.commit();
            }
        }
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> {
            SsbCommand c = new SsbCommand();
            c.db = db;
            c.sf = 0.01;
            c.dataDir = tmp;
            c.device = "cpu";
            c.format = io.tessera.cli.format.OutputFormat.CSV;
            c.run();
        });
        assertTrue(e.getMessage().contains("missing customer, supplier, part, lineorder"), e.getMessage());
        try (Database d = Database.open(db)) {
            assertTrue(d.hasTable("ddate"), "the given database is left as it was");
        }
    }

    @Test
    void genIntoANewDirectoryIsWholeOrNothing() throws Exception {
        Path db = tmp.resolve("t1");
        assertThrows(OutOfMemoryError.class, () -> GenCommand.into(db, true, d -> {
            try (TableWriter w = d.replace(SsbSchema.DDATE)) {
                w.commit();
            }
            throw new OutOfMemoryError("Java heap space");
        }));
        assertFalse(Files.exists(db), "a failed generation left a partial database");
        assertFalse(Files.exists(GeneratedData.partial(db)));
        Map<String, Long> rows = GenCommand.into(db, true, d -> new SsbGenerator(0.01, SsbGenerator.DEFAULT_SEED)
                .generate(d, Progress.silent()));
        assertEquals(5, rows.size());
        assertTrue(Files.isRegularFile(db.resolve("manifest.json")));
    }
}

package io.tessera.storage;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class StorageCrashSafetyTest {

    static final TableSchema SCHEMA = TableSchema.parse("fruit", "name VARCHAR NOT NULL, qty INTEGER NOT NULL");

    @AfterEach
    void resetHook() {
        Database.beforeManifestRename = () -> { };
    }

    static void write(Database db, List<String> names) {
        try (TableWriter w = db.replace(SCHEMA)) {
            w.write(StorageRoundTripTest.batch(SCHEMA, names, 100));
            w.commit();
        }
    }

    static void assertContent(Path dir, List<String> names) {
        try (Database db = Database.open(dir)) {
            Table t = db.table("fruit");
            assertEquals(names.size(), t.rowCount());
            for (int r = 0; r < names.size(); r++) {
                assertEquals(names.get(r), t.column("name").getString(r));
                assertEquals(100 + r, t.column("qty").getInt(r));
            }
        }
    }

    @Test
    void failureBeforeManifestRenameLeavesOldTableReadable(@TempDir Path dir) {
        List<String> old = List.of("fig", "kiwi");
        try (Database db = Database.openOrCreate(dir)) {
            write(db, old);
            Database.beforeManifestRename = () -> {
                throw new IllegalStateException("simulated crash before rename");
            };
            RuntimeException e = assertThrows(RuntimeException.class,
                    () -> write(db, List.of("lime", "plum", "date")));
            assertTrue(e.getMessage().contains("simulated crash"), e.getMessage());
            // the same Database still shows the old version
            assertEquals(2, db.table("fruit").rowCount());
        }
        Database.beforeManifestRename = () -> { };
        assertContent(dir, old);
        // and the table can be written again afterwards
        try (Database db = Database.open(dir)) {
            write(db, List.of("lime", "plum", "date"));
        }
        assertContent(dir, List.of("lime", "plum", "date"));
    }

    @Test
    void failedFirstWriteLeavesNoTable(@TempDir Path dir) {
        try (Database db = Database.openOrCreate(dir)) {
            Database.beforeManifestRename = () -> {
                throw new IllegalStateException("simulated crash before rename");
            };
            assertThrows(RuntimeException.class, () -> write(db, List.of("fig")));
        }
        Database.beforeManifestRename = () -> { };
        try (Database db = Database.open(dir)) {
            assertFalse(db.hasTable("fruit"));
        }
    }

    @Test
    void writerClosedWithoutCommitChangesNothing(@TempDir Path dir) throws IOException {
        List<String> old = List.of("fig", "kiwi");
        try (Database db = Database.openOrCreate(dir)) {
            write(db, old);
            try (TableWriter w = db.replace(SCHEMA)) {
                w.write(StorageRoundTripTest.batch(SCHEMA, List.of("a", "b", "c", "d"), 100));
            }
            try (TableWriter w = db.append("fruit")) {
                w.write(StorageRoundTripTest.batch(SCHEMA, List.of("e"), 100));
            }
            assertEquals(2, db.table("fruit").rowCount());
        }
        assertContent(dir, old);
        try (Stream<Path> files = Files.walk(dir)) {
            List<Path> tmp = files.filter(p -> p.getFileName().toString().endsWith(".tmp")).toList();
            assertEquals(List.of(), tmp, "an aborted writer removes its temporary files");
        }
    }
}

package io.tessera.storage;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
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
        FileSyncs.beforeSync = () -> { };
        ColumnSink.earlyForceBytes = 64L << 20;
        DictionaryMerge.forceRangesFrom = 64L << 20;
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

    /** The names of the files under {@code dir}, the writer lock's and the generations' lock files left out. */
    private static Set<String> dataFiles(Path dir) throws IOException {
        try (Stream<Path> files = Files.walk(dir)) {
            return Set.copyOf(files.filter(Files::isRegularFile).map(p -> dir.relativize(p).toString())
                    .filter(n -> !n.endsWith(".lock")).toList());
        }
    }

    @Test
    void failedFileSyncLeavesOldTableAndNoNewFiles(@TempDir Path dir) throws IOException {
        List<String> old = List.of("fig", "kiwi");
        try (Database db = Database.openOrCreate(dir)) {
            write(db, old);
            Set<String> before = dataFiles(dir);
            AtomicInteger syncs = new AtomicInteger();
            FileSyncs.beforeSync = () -> {
                if (syncs.incrementAndGet() == 2) {
                    throw new IllegalStateException("simulated disk failure");
                }
            };
            RuntimeException e = assertThrows(RuntimeException.class,
                    () -> write(db, List.of("lime", "plum", "date")));
            assertTrue(e.getMessage().contains("simulated disk failure"), e.getMessage());
            assertEquals(2, db.table("fruit").rowCount());
            FileSyncs.beforeSync = () -> { };
            assertEquals(before, dataFiles(dir), "a failed commit leaves only the files of the old version");
        }
        assertContent(dir, old);
    }

    @Test
    void noFileIsRenamedIntoPlaceBeforeEveryFileIsForced(@TempDir Path dir) throws IOException {
        try (Database db = Database.openOrCreate(dir)) {
            write(db, List.of("fig", "kiwi"));
            Set<String> old = dataFiles(dir);
            List<String> early = Collections.synchronizedList(new ArrayList<>());
            AtomicInteger syncs = new AtomicInteger();
            FileSyncs.beforeSync = () -> {
                syncs.incrementAndGet();
                try {
                    for (String f : dataFiles(dir)) {
                        if (!f.endsWith(".tmp") && !old.contains(f)) {
                            early.add(f);
                        }
                    }
                } catch (IOException e) {
                    throw new IllegalStateException(e);
                }
            };
            // rows written in order and as parts: sorted and merged dictionaries, both forced on the sync threads
            try (TableWriter w = db.append("fruit")) {
                w.write(StorageRoundTripTest.batch(SCHEMA, List.of("lime", "plum"), 100));
                long first = w.reserve(2);
                w.writePart(first, StorageRoundTripTest.batch(SCHEMA, List.of("date", "fig"), 100));
                w.commit();
            }
            FileSyncs.beforeSync = () -> { };
            assertEquals(3, syncs.get(), "the two columns' data and the dictionary forced: " + syncs.get());
            assertEquals(List.of(), early, "files renamed into place while others were still being forced");
            assertEquals(6, db.table("fruit").rowCount());
            assertEquals("date", db.table("fruit").column("name").getString(4));
        }
    }

    /** 150,000 distinct names written as two parts: their merge cuts the strings into two ranges. */
    private static void writeInParts(Database db, List<String> names) {
        try (TableWriter w = db.replace(SCHEMA)) {
            int half = names.size() / 2;
            long first = w.reserve(half);
            long second = w.reserve(names.size() - half);
            w.writePart(second, StorageRoundTripTest.batch(SCHEMA, names.subList(half, names.size()), 100 + half));
            w.writePart(first, StorageRoundTripTest.batch(SCHEMA, names.subList(0, half), 100));
            w.commit();
        }
    }

    private static List<String> manyNames() {
        List<String> names = new ArrayList<>();
        for (int i = 0; i < 150_000; i++) {
            names.add(String.format("n%06d", (i * 7919) % 150_000));
        }
        return names;
    }

    @Test
    void dictionaryRangesForcedAsTheyArePlacedAndTheirFailureFailsTheCommit(@TempDir Path dir) throws IOException {
        DictionaryMerge.forceRangesFrom = 0;
        List<String> names = manyNames();
        List<String> old = List.of("fig", "kiwi");
        try (Database db = Database.openOrCreate(dir)) {
            AtomicInteger syncs = new AtomicInteger();
            FileSyncs.beforeSync = syncs::incrementAndGet;
            writeInParts(db, names);
            assertEquals(2 + 3, syncs.get(), "the two ranges as placed, then the dictionary and the columns' data");
            write(db, old);
            Set<String> before = dataFiles(dir);
            // every forcing fails, the ranges' too: the commit fails and leaves the table as it was, the mapping
            // closed only after the ranges' forcings ended
            FileSyncs.beforeSync = () -> {
                throw new IllegalStateException("simulated disk failure");
            };
            RuntimeException e = assertThrows(RuntimeException.class, () -> writeInParts(db, names));
            assertTrue(e.getMessage().contains("simulated disk failure"), e.getMessage());
            FileSyncs.beforeSync = () -> { };
            assertEquals(before, dataFiles(dir), "a failed commit leaves only the files of the old version");
        }
        assertContent(dir, old);
        try (Database db = Database.openOrCreate(dir)) {
            writeInParts(db, names);
        }
        assertContent(dir, names);
    }

    @Test
    void aTemporaryDatabaseForcesNothingAndReadsBackWhatItWrote(@TempDir Path dir) throws IOException {
        ColumnSink.earlyForceBytes = 1;
        DictionaryMerge.forceRangesFrom = 0;
        AtomicInteger syncs = new AtomicInteger();
        FileSyncs.beforeSync = syncs::incrementAndGet;
        List<String> names = manyNames();
        try (Database db = Database.createTemporary(dir.resolve("t"))) {
            writeInParts(db, names);
            // rows in order too: a dictionary sorted, not merged
            try (TableWriter w = db.append("fruit")) {
                w.write(StorageRoundTripTest.batch(SCHEMA, List.of("lime", "plum"), 100 + names.size()));
                w.commit();
            }
            assertEquals(names.size() + 2, db.table("fruit").rowCount());
        }
        assertEquals(0, syncs.get(), "no file of a temporary database is forced");
        List<String> all = new ArrayList<>(names);
        all.addAll(List.of("lime", "plum"));
        assertContent(dir.resolve("t"), all);
        StorageException e = assertThrows(StorageException.class, () -> Database.createTemporary(dir.resolve("t")));
        assertTrue(e.getMessage().contains("holds a database"), e.getMessage());
    }

    @Test
    @Timeout(120) // a guard: a forcing never handed over would leave the test waiting
    void columnFilesForcedWhileRowsAreWrittenAndTheirFailureFailsTheCommit(@TempDir Path dir) throws IOException {
        List<String> old = List.of("fig", "kiwi");
        try (Database db = Database.openOrCreate(dir)) {
            ColumnSink.earlyForceBytes = 1;
            // the batch makes the INTEGER column's file due for forcing before the commit; the VARCHAR codes never are
            AtomicInteger syncs = new AtomicInteger();
            FileSyncs.beforeSync = syncs::incrementAndGet;
            try (TableWriter w = db.replace(SCHEMA)) {
                w.write(StorageRoundTripTest.batch(SCHEMA, List.of("lime", "plum"), 100));
                awaitSyncs(syncs, 1);
                w.commit();
            }
            assertEquals(1 + 3, syncs.get(), "once while written, then the two columns' data and the dictionary");
            assertContent(dir, List.of("lime", "plum"));
            write(db, old);
            Set<String> before = dataFiles(dir);
            // a forcing that fails while the rows are written fails the commit, which leaves the table as it was
            AtomicInteger failed = new AtomicInteger();
            FileSyncs.beforeSync = () -> {
                failed.incrementAndGet();
                throw new IllegalStateException("simulated disk failure");
            };
            RuntimeException e = assertThrows(RuntimeException.class, () -> {
                try (TableWriter w = db.replace(SCHEMA)) {
                    w.write(StorageRoundTripTest.batch(SCHEMA, List.of("date", "lime", "plum"), 100));
                    awaitSyncs(failed, 1);
                    FileSyncs.beforeSync = () -> { };
                    w.commit();
                }
            });
            assertTrue(e.getMessage().contains("simulated disk failure"), e.getMessage());
            assertEquals(before, dataFiles(dir), "a failed commit leaves only the files of the old version");
        }
        assertContent(dir, old);
    }

    /** Waits until {@code syncs} has counted {@code n} forcings (they run on the sync threads). */
    private static void awaitSyncs(AtomicInteger syncs, int n) {
        while (syncs.get() < n) {
            Thread.onSpinWait();
        }
    }
}

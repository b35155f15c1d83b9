package io.tessera.storage;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Tessera reads, writes and deletes only inside its database directory: manifest paths that lead elsewhere and
 * symbolic links that leave the database are refused, naming the path, and a write deletes only files a
 * manifest named.
 */
class StoragePathSafetyTest {

    static final TableSchema SCHEMA = TableSchema.parse("t", "k BIGINT NOT NULL");

    static void create(Path dir, String table, int rows) {
        TableSchema schema = new TableSchema(table, SCHEMA.columns());
        try (Database db = Database.openOrCreate(dir); TableWriter w = db.replace(schema)) {
            RowBatch b = new RowBatch(schema, rows);
            for (int i = 0; i < rows; i++) {
                b.column(0).appendLong(i);
            }
            w.write(b);
            w.commit();
        }
    }

    static void append(Database db, String table, long value) {
        try (TableWriter w = db.append(table)) {
            RowBatch b = new RowBatch(w.schema(), 1);
            b.column(0).appendLong(value);
            w.write(b);
            w.commit();
        }
    }

    static List<Path> files(Path folder) throws IOException {
        try (Stream<Path> s = Files.list(folder)) {
            return s.sorted().toList();
        }
    }

    @Test
    void tableFolderLinkedOutOfTheDatabaseIsRefusedAndItsFilesSurvive(@TempDir Path work) throws IOException {
        Path dir = work.resolve("db");
        create(dir, "t", 10);
        create(dir, "other", 10);
        Path outside = Files.createDirectory(work.resolve("outside"));
        for (Path f : files(dir.resolve("t"))) {
            Files.copy(f, outside.resolve(f.getFileName()));
        }
        Files.writeString(outside.resolve("notes.txt"), "mine");
        Files.writeString(outside.resolve("photo.jpg"), "mine too");
        Path link = dir.resolve("t");
        Database.deleteTree(link);
        Files.createSymbolicLink(link, outside);
        try (Database db = Database.open(dir)) {
            StorageException e = assertThrows(StorageException.class, () -> append(db, "t", 99));
            assertTrue(e.getMessage().contains(link.toString()) && e.getMessage().contains("symbolic link"),
                    e.getMessage());
            StorageException r = assertThrows(StorageException.class, () -> db.table("t").column("k").getLong(0));
            assertTrue(r.getMessage().contains("symbolic link"), r.getMessage());
            assertEquals(9, db.table("other").column("k").getLong(9), "another table still reads");
        }
        assertEquals("mine", Files.readString(outside.resolve("notes.txt")));
        assertEquals("mine too", Files.readString(outside.resolve("photo.jpg")));
    }

    @Test
    void columnFileLinkedOutOfTheDatabaseIsRefused(@TempDir Path work) throws IOException {
        Path dir = work.resolve("db");
        create(dir, "t", 10);
        Path file;
        try (Database db = Database.open(dir)) {
            file = dir.resolve(db.table("t").column("k").dataFile().path());
        }
        Path outside = Files.createDirectory(work.resolve("outside")).resolve("k.bin");
        Files.move(file, outside);
        Files.createSymbolicLink(file, outside);
        StorageException e = assertThrows(StorageException.class, () -> {
            try (Database db = Database.open(dir)) {
                db.table("t").column("k").getLong(0);
            }
        });
        assertTrue(e.getMessage().contains(file.toString()) && e.getMessage().contains("symbolic link"),
                e.getMessage());
    }

    @ParameterizedTest
    @ValueSource(strings = {"../outside/stolen.bin", "t/../../outside/stolen.bin", "ABSOLUTE"})
    void manifestPathLeadingOutOfTheDatabaseIsRefused(String path, @TempDir Path work) throws IOException {
        Path dir = work.resolve("db");
        create(dir, "t", 10);
        Path stolen = Files.createDirectory(work.resolve("outside")).resolve("stolen.bin");
        byte[] secret = new byte[80];
        for (int i = 0; i < secret.length; i++) {
            secret[i] = (byte) ('A' + i % 26);
        }
        Files.write(stolen, secret);
        String p = path.equals("ABSOLUTE") ? stolen.toString() : path;
        Path m = dir.resolve(Manifest.FILE_NAME);
        String json = Files.readString(m);
        String crc = Long.toHexString(Database.crc32c(MemorySegment.ofArray(secret)));
        json = json.replaceFirst("\"path\" : \"t/[^\"]*\"", "\"path\" : \"" + p + "\"")
                .replaceFirst("\"crc32c\" : \"[0-9a-f]+\"", "\"crc32c\" : \"" + crc + "\"");
        assertTrue(json.contains(p), json);
        Files.writeString(m, json, StandardCharsets.UTF_8);
        StorageException e = assertThrows(StorageException.class, () -> {
            try (Database db = Database.open(dir)) {
                db.table("t").column("k").getLong(0);
            }
        });
        assertTrue(e.getMessage().contains(p), e.getMessage());
    }

    @Test
    void temporaryFileLinkedOutOfTheDatabaseIsNotWrittenThrough(@TempDir Path work) throws IOException {
        Path dir = work.resolve("db");
        create(dir, "t", 10);
        Path outside = Files.createDirectory(work.resolve("outside")).resolve("precious.txt");
        Files.writeString(outside, "precious");
        for (int g = 1; g <= 4; g++) { // the names the next write could use
            Files.createSymbolicLink(dir.resolve("t").resolve("k.g" + g + ".bin.tmp"), outside);
        }
        try (Database db = Database.open(dir)) {
            try {
                append(db, "t", 99);
            } catch (StorageException e) {
                // refusing the write is fine; writing through the link is not
            }
        }
        assertEquals("precious", Files.readString(outside));
    }

    @Test
    void writesAndDropsDeleteOnlyFilesTheManifestNamed(@TempDir Path work) throws IOException {
        Path dir = work.resolve("db");
        create(dir, "t", 10);
        Path folder = dir.resolve("t");
        Path notes = Files.writeString(folder.resolve("notes.txt"), "not Tessera's");
        Path lookalike = Files.writeString(folder.resolve("k.g99.bin"), "not named by any manifest");
        Path first;
        try (Database db = Database.open(dir)) {
            first = dir.resolve(db.table("t").column("k").dataFile().path());
            append(db, "t", 10);
            assertEquals(11, db.table("t").rowCount());
        }
        assertFalse(Files.exists(first), "the replaced generation's file is deleted once no reader holds it");
        assertTrue(Files.exists(notes) && Files.exists(lookalike), "files no manifest named stay: " + files(folder));
        try (Database db = Database.open(dir)) {
            db.dropTable("t");
        }
        assertTrue(Files.exists(notes) && Files.exists(lookalike), "a drop leaves them too: " + files(folder));
        try (Database db = Database.open(dir)) {
            assertFalse(db.hasTable("t"));
        }
    }
}

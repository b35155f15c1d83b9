package io.tessera.storage;

import io.tessera.Tessera;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class StorageDamageTest {

    static final TableSchema SCHEMA = TableSchema.parse("nums", "a BIGINT NOT NULL, s VARCHAR NOT NULL");
    static final TableSchema OTHER = TableSchema.parse("other", "a BIGINT NOT NULL, s VARCHAR NOT NULL");

    static Path create(Path dir) {
        try (Database db = Database.openOrCreate(dir); TableWriter w = db.replace(SCHEMA)) {
            RowBatch b = new RowBatch(SCHEMA, 1000);
            for (int i = 0; i < 1000; i++) {
                b.column(0).appendLong(i * 7L);
                b.column(1).appendString("v" + (i % 13));
            }
            w.write(b);
            w.commit();
        }
        try (Database db = Database.open(dir)) {
            return dir.resolve(db.table("nums").column("a").dataFile().path());
        }
    }

    @Test
    void truncatedColumnFileFailsWhenReadNamingTheFile(@TempDir Path dir) throws IOException {
        Path file = create(dir);
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
            ch.truncate(ch.size() - 8);
        }
        try (Database db = Database.open(dir)) {
            StorageException e = assertThrows(StorageException.class, () -> db.table("nums").column("a").getLong(0));
            assertTrue(e.getMessage().contains(file.toString()), e.getMessage());
            assertTrue(e.getMessage().contains("truncated"), e.getMessage());
        }
    }

    @Test
    void truncatedDictionaryFailsItsTableAloneTheOthersStayUsable(@TempDir Path dir) throws IOException {
        create(dir);
        try (Database db = Database.open(dir); TableWriter w = db.replace(OTHER)) {
            RowBatch b = new RowBatch(OTHER, 3);
            for (int i = 0; i < 3; i++) {
                b.column(0).appendLong(i + 1);
                b.column(1).appendString("w" + i);
            }
            w.write(b);
            w.commit();
        }
        Path dict;
        try (Database db = Database.open(dir)) {
            dict = dir.resolve(db.table("nums").column("s").dictionaryFile().path());
        }
        try (FileChannel ch = FileChannel.open(dict, StandardOpenOption.WRITE)) {
            ch.truncate(ch.size() / 2);
        }
        try (Database db = Database.open(dir)) {
            assertEquals("w2", db.table("other").column("s").getString(2), "another table still reads");
            StorageException e = assertThrows(StorageException.class,
                    () -> db.table("nums").column("s").getString(0));
            assertTrue(e.getMessage().contains(dict.toString()), e.getMessage());
        }
        try (Tessera t = Tessera.open(dir)) {
            assertEquals(6L, ((Number) t.query("select sum(a) from other").get(0, 0)).longValue());
            RuntimeException e = assertThrows(RuntimeException.class,
                    () -> t.query("select count(*) from nums where s = 'v1'"));
            assertTrue(String.valueOf(e.getMessage()).contains(dict.toString()), e.getMessage());
        }
    }

    @Test
    void flippedByteFailsWhenTheColumnIsFirstRead(@TempDir Path dir) throws IOException {
        Path file = create(dir);
        try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
            f.seek(123);
            int b = f.read();
            f.seek(123);
            f.write(b ^ 0x10);
        }
        try (Database db = Database.open(dir)) { // sizes still match: opening succeeds
            Table t = db.table("nums");
            assertEquals("v5", t.column("s").getString(5), "an undamaged column still reads");
            StorageException e = assertThrows(StorageException.class, () -> t.column("a").getLong(0));
            assertTrue(e.getMessage().contains(file.toString()), e.getMessage());
            assertTrue(e.getMessage().contains("checksum"), e.getMessage());
        }
    }

    @Test
    void damagedDictionaryNamesItsFile(@TempDir Path dir) throws IOException {
        create(dir);
        Path dict;
        try (Database db = Database.open(dir)) {
            dict = dir.resolve(db.table("nums").column("s").dictionaryFile().path());
        }
        try (RandomAccessFile f = new RandomAccessFile(dict.toFile(), "rw")) {
            f.seek(f.length() - 1);
            int b = f.read();
            f.seek(f.length() - 1);
            f.write(b ^ 0x01);
        }
        try (Database db = Database.open(dir)) {
            StorageException e = assertThrows(StorageException.class,
                    () -> db.table("nums").column("s").getString(0));
            assertTrue(e.getMessage().contains(dict.toString()), e.getMessage());
        }
    }
}

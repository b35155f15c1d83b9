package io.tessera.data.io;

import io.tessera.storage.Column;
import io.tessera.storage.Database;
import io.tessera.storage.Table;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/** Helpers shared by the import and export tests. */
final class ImportTestSupport {

    private ImportTestSupport() {
    }

    /** Every row of a table as Java values (null for NULL), in order. */
    static List<List<Object>> rows(Table t) {
        List<List<Object>> out = new ArrayList<>();
        for (long r = 0; r < t.rowCount(); r++) {
            List<Object> row = new ArrayList<>();
            for (Column c : t.columns()) {
                row.add(c.getObject(r));
            }
            out.add(row);
        }
        return out;
    }

    /** Names of the files in a table's folder (a failed import must leave none behind). */
    static List<String> files(Database db, String table) {
        Path d = db.directory().resolve(table);
        if (!Files.isDirectory(d)) {
            return List.of();
        }
        try (Stream<Path> s = Files.list(d)) {
            return s.map(p -> p.getFileName().toString()).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static Path write(Path dir, String name, String content) {
        try {
            Path p = dir.resolve(name);
            Files.writeString(p, content, StandardCharsets.UTF_8);
            return p;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Writes each char of content (all below U+0100) as one byte, so that a test can write any bytes. */
    static Path writeBytes(Path dir, String name, String content) {
        try {
            Path p = dir.resolve(name);
            Files.write(p, content.getBytes(StandardCharsets.ISO_8859_1));
            return p;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Writes head, then fill repeated up to {@code fillBytes} bytes, then tail (all as one byte per char). */
    static Path writeLarge(Path dir, String name, String head, String fill, long fillBytes, String tail) {
        Path p = dir.resolve(name);
        try (var ch = java.nio.channels.FileChannel.open(p, java.nio.file.StandardOpenOption.CREATE,
                java.nio.file.StandardOpenOption.TRUNCATE_EXISTING, java.nio.file.StandardOpenOption.WRITE)) {
            ch.write(java.nio.ByteBuffer.wrap(head.getBytes(StandardCharsets.ISO_8859_1)));
            byte[] unit = fill.getBytes(StandardCharsets.ISO_8859_1);
            byte[] block = new byte[(1 << 20) / unit.length * unit.length];
            for (int i = 0; i < block.length; i++) {
                block[i] = unit[i % unit.length];
            }
            for (long left = fillBytes; left > 0; left -= block.length) {
                ch.write(java.nio.ByteBuffer.wrap(block, 0, (int) Math.min(block.length, left)));
            }
            ch.write(java.nio.ByteBuffer.wrap(tail.getBytes(StandardCharsets.ISO_8859_1)));
            return p;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static TableImporter.Options opts() {
        return TableImporter.Options.defaults();
    }
}

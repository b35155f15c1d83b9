package io.tessera.sql;

import io.tessera.data.io.ImportFormat;
import io.tessera.data.io.TableExporter;
import io.tessera.data.io.TableImporter;
import io.tessera.storage.Database;
import io.tessera.storage.TableSchema;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Non-ASCII strings from imported files and the SQL text, to the result and back to a file (their order by code
 * point is checked in src/test/resources/sql/unicode_order.test). The values are chosen where that order differs from Java's UTF-16 order: a character above U+FFFF
 * ('😀' U+1F600, '𝔸' U+1D538, two UTF-16 surrogates from 0xD800) against characters of U+E000-U+FFFF
 * ('ｚ' U+FF5A, '\uFFFD', U+FFFF).
 */
class UnicodeTest {

    /** Table s, imported from this UTF-8 CSV file (with a NULL, and a string of two code points after 'ｚ'). */
    static final String CSV = "id,b\n1,ｚ\n2,😀\n3,中文\n4,a\n5,\uFFFF\n6,𝔸\n7,😀x\n8,\n9,ｚ😀\n10,\uFFFD\n";

    @TempDir
    static Path dir;
    static DuckDbCheck check;

    @BeforeAll
    static void tables() throws IOException {
        Path csv = dir.resolve("s.csv");
        Files.writeString(csv, CSV, StandardCharsets.UTF_8);
        try (Database db = Database.openOrCreate(dir.resolve("db"))) {
            db.createTable(TableSchema.parse("s", "id INTEGER NOT NULL, b VARCHAR"));
            TableImporter.importFiles(db, "s", List.of(csv), TableImporter.Options.defaults().withHeader(true));
        }
        check = new DuckDbCheck(dir.resolve("db"));
    }

    @AfterAll
    static void close() {
        check.close();
    }

    @Test
    void utf8FromTheFileAndTheSqlTextToTheResultAndBack() throws IOException {
        // failed with Calcite's "Failed to encode '中文' in character set 'ISO-8859-1'"
        assertEquals(List.of("[3]"), check.same("select id from s where b = '中文'", false));
        check.same("select id from s where b = '😀'", false);
        check.same("select id, b || '中' from s where b in ('中文', '😀', 'ｚ')", false);
        check.same("select id from s where b <> 'ｚ'", false);
        assertEquals(List.of("[𝔸, 6]"), check.same("select b, id from s where id = 6", false));
        // and the export writes the imported bytes back
        Path out = dir.resolve("out.csv");
        try (Database db = Database.open(dir.resolve("db"))) {
            TableExporter.export(db.table("s"), out, ImportFormat.CSV, (byte) ',');
        }
        assertArrayEquals(CSV.getBytes(StandardCharsets.UTF_8), Files.readAllBytes(out), Files.readString(out));
    }
}

package io.tessera.data.io;

import io.tessera.cli.Main;
import io.tessera.storage.Database;
import io.tessera.storage.TableSchema;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import static io.tessera.data.io.ImportTestSupport.opts;
import static io.tessera.data.io.ImportTestSupport.rows;
import static io.tessera.data.io.ImportTestSupport.write;
import static io.tessera.data.io.ImportTestSupport.writeBytes;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The bytes of a text file as they reach VARCHAR values: strict UTF-8 or replaced on request. */
class ImportEncodingTest {

    @TempDir
    Path dir;
    Database db;

    @BeforeEach
    void setUp() {
        db = Database.openOrCreate(dir.resolve("db"));
        db.createTable(TableSchema.parse("t", "k INTEGER NOT NULL, s VARCHAR"));
    }

    @AfterEach
    void tearDown() {
        db.close();
    }

    private List<Object> column(int c) {
        return rows(db.table("t")).stream().map(r -> r.get(c)).toList();
    }

    @Test
    void wellFormedUtf8IsStoredAsItIs() {
        Path f = write(dir, "u.tbl", "1|中文|\n2|😀 and ｚ|\n3|é|\n4|" + "ü".repeat(100) + "|\n5|\u0000\u007f|\n");
        TableImporter.importFiles(db, "t", List.of(f), opts());
        assertEquals(List.of("中文", "😀 and ｚ", "é", "ü".repeat(100), "\u0000\u007f"), column(1));
    }

    @Test
    void replaceStoresTheReplacementCharacterForEachInvalidSequence() {
        // one U+FFFD per maximal subpart (Unicode 3.9): a surrogate's three bytes are three, a cut emoji is one
        Path f = writeBytes(dir, "r.tbl", "1|ab\u00ffc|\n2|caf\u00e9|\n3|\u00ed\u00a0\u0080|\n4|ok|\n5|"
                + "x".repeat(70) + "\u0080|\n6|\u00f0\u009f\u0098x|\n7|\u00c0\u00af\u00e0\u0080\u00af\u00f4\u0090\u0080\u0080|\n");
        TableImporter.importFiles(db, "t", List.of(f), opts().withInvalidUtf8(InvalidUtf8.REPLACE));
        assertEquals(List.of("ab\uFFFDc", "caf\uFFFD", "\uFFFD\uFFFD\uFFFD", "ok", "x".repeat(70) + "\uFFFD",
                "\uFFFDx", "\uFFFD".repeat(9)), column(1));
    }

    /** The validator agrees with the JDK's strict decoder on random bytes weighted toward the edge cases. */
    @Test
    void validatorAgreesWithTheJdkDecoder() {
        Random r = new Random(25);
        int[] interesting = {0x00, 0x41, 0x7f, 0x80, 0x8f, 0x90, 0x9f, 0xa0, 0xbf, 0xc0, 0xc1, 0xc2, 0xdf, 0xe0,
                0xe1, 0xec, 0xed, 0xee, 0xef, 0xf0, 0xf1, 0xf3, 0xf4, 0xf5, 0xf8, 0xfe, 0xff};
        var decoder = StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT);
        int invalid = 0;
        for (int n = 0; n < 200_000; n++) {
            byte[] core = new byte[1 + r.nextInt(6)];
            for (int i = 0; i < core.length; i++) {
                core[i] = (byte) (r.nextInt(3) == 0 ? r.nextInt(256) : interesting[r.nextInt(interesting.length)]);
            }
            // every other time the same bytes within ASCII text, which the validator skips eight bytes at a time
            byte[] b = n % 2 == 0 ? core : new byte[r.nextInt(20) + core.length + r.nextInt(20)];
            if (b != core) {
                for (int i = 0; i < b.length; i++) {
                    b[i] = (byte) (' ' + r.nextInt(95));
                }
                System.arraycopy(core, 0, b, r.nextInt(b.length - core.length + 1), core.length);
            }
            boolean jdk;
            try {
                decoder.reset().decode(ByteBuffer.wrap(b));
                jdk = true;
            } catch (CharacterCodingException e) {
                jdk = false;
            }
            boolean ours = Utf8.firstInvalid(b, 0, b.length) < 0;
            assertEquals(jdk, ours, () -> Arrays.toString(b));
            if (!ours) {
                invalid++;
                // what replace stores is valid, and keeps every well-formed character
                String replaced = Utf8.decodeReplacing(b, 0, b.length);
                byte[] again = replaced.getBytes(StandardCharsets.UTF_8);
                assertTrue(Utf8.firstInvalid(again, 0, again.length) < 0);
                assertTrue(replaced.contains("\uFFFD"));
                assertTrue(replaced.length() <= b.length);
            } else {
                // a valid sequence decodes to the code points the escaper reads
                String s = new String(b, StandardCharsets.UTF_8);
                assertEquals(s, Utf8.decodeReplacing(b, 0, b.length));
                int i = 0;
                for (int cp : s.codePoints().toArray()) {
                    int len = Utf8.sequenceLength(b, i, b.length);
                    assertEquals(cp, Utf8.codePoint(b, i, len));
                    i += len;
                }
            }
        }
        assertTrue(invalid > 10_000 && invalid < 190_000, "both kinds tried: " + invalid);
    }

    @Test
    void theCommandLineOption() {
        Path f = writeBytes(dir, "c.tbl", "1|ab\u00ffc|\n");
        String dbDir = dir.resolve("db").toString();
        db.close();
        PrintStream oldErr = System.err;
        PrintStream oldOut = System.out;
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        try {
            System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
            System.setOut(new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
            assertEquals(1, Main.run("import", "--db", dbDir, "--table", "t", f.toString()));
            assertEquals("tessera: " + f + ":1: column 2 (s): invalid UTF-8 at byte 3 of the value: 'ab\\xffc'"
                    + " (use --invalid-utf8 replace to store U+FFFD instead)", err.toString(StandardCharsets.UTF_8).trim());
            err.reset();
            assertEquals(1, Main.run("import", "--db", dbDir, "--table", "t", "--invalid-utf8", "maybe", f.toString()));
            assertTrue(err.toString(StandardCharsets.UTF_8).contains("use error or replace"), err.toString());
            assertEquals(0, Main.run("import", "--db", dbDir, "--table", "t", "--invalid-utf8", "replace",
                    f.toString()));
        } finally {
            System.setErr(oldErr);
            System.setOut(oldOut);
        }
        db = Database.open(dir.resolve("db"));
        assertEquals(List.of("ab\uFFFDc"), column(1));
    }

    @Test
    void aByteOrderMarkAtTheStartOfAFileIsNotData() {
        // before the first value of a number column: not an invalid INTEGER
        Path f = write(dir, "bom.tbl", "\uFEFF1|one|\n2|two|\n");
        Path g = write(dir, "bom2.csv", "\uFEFFk,s\n3,three\n");
        TableImporter.importFiles(db, "t", List.of(f), opts());
        TableImporter.importFiles(db, "t", List.of(g), opts().withHeader(true));
        assertEquals(List.of(1, 2, 3), column(0));

        // before the first value of a text column it is dropped; anywhere else it is kept, also at a chunk start
        db.createTable(TableSchema.parse("v", "s VARCHAR, k INTEGER"));
        Path h = write(dir, "v.tbl", "\uFEFFa|1|\n\uFEFFb|2|\nc\uFEFF|3|\n");
        Path only = write(dir, "only.tbl", "\uFEFF");
        TableImporter.importFiles(db, "v", List.of(h, only, h), opts().withChunkBytes(8));
        assertEquals(List.of("a", "\uFEFFb", "c\uFEFF", "a", "\uFEFFb", "c\uFEFF"),
                rows(db.table("v")).stream().map(r -> r.get(0)).toList());
    }
}

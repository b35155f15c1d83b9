package io.tessera.data.io;

import io.tessera.storage.Database;
import io.tessera.storage.TableSchema;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

import static io.tessera.data.io.ImportTestSupport.files;
import static io.tessera.data.io.ImportTestSupport.opts;
import static io.tessera.data.io.ImportTestSupport.rows;
import static io.tessera.data.io.ImportTestSupport.write;
import static io.tessera.data.io.ImportTestSupport.writeBytes;
import static io.tessera.data.io.ImportTestSupport.writeLarge;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A bad input names file, line and column, and leaves the table exactly as it was. */
class ImportErrorTest {

    static final String COLUMNS = "k INTEGER NOT NULL, n BIGINT, m DECIMAL(5,2), d DATE, f BOOLEAN, s VARCHAR";

    @TempDir
    Path dir;
    Database db;
    List<List<Object>> before;
    List<String> filesBefore;

    @BeforeEach
    void setUp() {
        db = Database.openOrCreate(dir.resolve("db"));
        db.createTable(TableSchema.parse("t", COLUMNS));
        Path seed = write(dir, "seed.tbl", "1|10|1.50|1996-01-01|true|one|\n2||||||\n");
        TableImporter.importFiles(db, "t", List.of(seed), opts());
        before = rows(db.table("t"));
        filesBefore = files(db, "t");
        assertEquals(2, before.size());
    }

    @AfterEach
    void tearDown() {
        db.close();
    }

    /** Imports the files expecting a failure; checks the message and that the table did not change. */
    private ImportException fails(TableImporter.Options o, String expectedMessage, Path... in) {
        ImportException e = assertThrows(ImportException.class,
                () -> TableImporter.importFiles(db, "t", List.of(in), o));
        assertEquals(expectedMessage, e.getMessage());
        assertEquals(2, db.table("t").rowCount());
        assertEquals(before, rows(db.table("t")));
        assertEquals(filesBefore, files(db, "t"), "no files left behind");
        try (Database again = Database.open(dir.resolve("db"))) {
            assertEquals(before, rows(again.table("t")));
        }
        return e;
    }

    private ImportException fails(String expectedMessage, Path... in) {
        return fails(opts(), expectedMessage, in);
    }

    private String name(Path p) {
        return p.toString();
    }

    @Test
    void badInteger() {
        Path f = write(dir, "a.tbl", "3|1|1.00|1996-01-01|true|x|\n4x|1|1.00|1996-01-01|true|x|\n");
        ImportException e = fails(name(f) + ":2: column 1 (k): invalid INTEGER '4x'", f);
        assertEquals(2, e.line());
        assertEquals(1, e.column());
    }

    @Test
    void outOfRangeInteger() {
        Path f = write(dir, "a.tbl", "2147483648|1|1.00|1996-01-01|true|x|\n");
        fails(name(f) + ":1: column 1 (k): INTEGER '2147483648' is out of range", f);
    }

    @Test
    void smallintAndTinyintColumnsCheckTheirRange() {
        db.createTable(TableSchema.parse("narrow", "k INTEGER NOT NULL, s SMALLINT, t TINYINT"));
        assertEquals("SMALLINT", db.table("narrow").schema().column("s").type().toString());
        Path ok = write(dir, "ok.tbl", "1|-32768|-128|\n2|32767|127|\n");
        TableImporter.importFiles(db, "narrow", List.of(ok), opts());
        assertEquals(List.of(List.of(1, -32768, -128), List.of(2, 32767, 127)), rows(db.table("narrow")));
        Path f = write(dir, "s.tbl", "3|1|1|\n4|70000|1|\n");
        ImportException e = assertThrows(ImportException.class,
                () -> TableImporter.importFiles(db, "narrow", List.of(f), opts()));
        assertEquals(name(f) + ":2: column 2 (s): value 70000 is out of range for SMALLINT", e.getMessage());
        Path g = write(dir, "t.tbl", "5|1|-129|\n");
        e = assertThrows(ImportException.class, () -> TableImporter.importFiles(db, "narrow", List.of(g), opts()));
        assertEquals(name(g) + ":1: column 3 (t): value -129 is out of range for TINYINT", e.getMessage());
        assertEquals(2, db.table("narrow").rowCount());
    }

    @Test
    void badBigint() {
        Path f = write(dir, "a.tbl", "3|1.5|1.00|1996-01-01|true|x|\n");
        fails(name(f) + ":1: column 2 (n): invalid BIGINT '1.5'", f);
    }

    @Test
    void decimalWithTooManyDigits() {
        Path f = write(dir, "a.tbl", "3|1|1.005|1996-01-01|true|x|\n");
        fails(name(f) + ":1: column 3 (m): decimal '1.005' has more than 2 fractional digits", f);
        Path g = write(dir, "b.tbl", "3|1|1000.00|1996-01-01|true|x|\n");
        fails(name(g) + ":1: column 3 (m): decimal '1000.00' does not fit DECIMAL(5,2)", g);
    }

    @Test
    void badDate() {
        Path f = write(dir, "orders.tbl", "3|1|1.00|1996-12-01|true|x|\n3|1|1.00|1996-12-01|true|x|\n"
                + "3|1|1.00|1996-13-01|true|x|\n");
        ImportException e = fails(name(f) + ":3: column 4 (d): invalid date '1996-13-01' (expected yyyy-mm-dd)", f);
        assertEquals(4, e.column());
        Path g = write(dir, "feb.tbl", "3|1|1.00|1997-02-29|true|x|\n");
        fails(name(g) + ":1: column 4 (d): invalid date '1997-02-29'", g);
    }

    @Test
    void badBoolean() {
        Path f = write(dir, "a.tbl", "3|1|1.00|1996-01-01|maybe|x|\n");
        fails(name(f) + ":1: column 5 (f): invalid boolean 'maybe'", f);
    }

    @Test
    void tooFewAndTooManyColumns() {
        Path f = write(dir, "a.tbl", "3|1|1.00|1996-01-01|\n");
        fails(name(f) + ":1: column 5 (f): missing: the record has 4 fields, the table has 6 columns", f);
        Path g = write(dir, "b.tbl", "3|1|1.00|1996-01-01|true|x|extra|\n");
        fails(name(g) + ":1: column 7: too many fields: the table has 6 columns", g);
        Path h = write(dir, "c.csv", "3,1,1.00,1996-01-01,true,x,\n");
        fails(name(h) + ":1: column 7: too many fields: the table has 6 columns", h);
    }

    @Test
    void nullInNotNullColumn() {
        Path f = write(dir, "a.tbl", "3|1|1.00|1996-01-01|true|x|\n|1|1.00|1996-01-01|true|x|\n");
        fails(name(f) + ":2: column 1 (k): empty value (NULL) in a NOT NULL column", f);
        Path g = write(dir, "a.csv", "\"\",1,1.00,1996-01-01,true,x\n");
        fails(name(g) + ":1: column 1 (k): empty value (NULL) in a NOT NULL column", g);
    }

    @Test
    void unterminatedQuoteNamesTheLineWhereTheRecordStarts() {
        Path f = write(dir, "a.csv", "3,1,1.00,1996-01-01,true,\"two\nlines\"\n"
                + "4,1,1.00,1996-01-01,true,\"never\nclosed\n5,1,1.00,1996-01-01,true,x\n");
        ImportException e = fails(name(f) + ":3: column 6 (s): unterminated quoted field", f);
        assertEquals(3, e.line());
    }

    @Test
    void lineNumbersCountLineBreaksInsideQuotes() {
        Path f = write(dir, "a.csv", "k,n,m,d,f,s\n3,1,1.00,1996-01-01,true,\"a\nb\nc\"\n4,1,1.00,1996-01-01,nope,x\n");
        fails(opts().withHeader(true), name(f) + ":5: column 5 (f): invalid boolean 'nope'", f);
    }

    @Test
    void stuffAfterAClosingQuoteAndAQuoteInsideAnUnquotedField() {
        Path f = write(dir, "a.csv", "3,1,1.00,1996-01-01,true,\"x\"y\n");
        fails(name(f) + ":1: column 6 (s): unexpected character after a closing quote", f);
        Path g = write(dir, "b.csv", "3,1,1.00,1996-01-01,true,x\"y\n");
        fails(name(g) + ":1: column 6 (s): quote inside an unquoted field", g);
    }

    @Test
    void errorInTheSecondOfTwoFilesLeavesTheFirstUnimported() {
        Path ok = write(dir, "ok.tbl", "3|1|1.00|1996-01-01|true|x|\n4|1|1.00|1996-01-01|true|y|\n");
        Path bad = write(dir, "bad.tbl", "5|1|1.00|1996-01-01|true|x|\n6|1|1.00|1996-02-30|true|x|\n");
        fails(name(bad) + ":2: column 4 (d): invalid date '1996-02-30'", ok, bad);
    }

    @Test
    void errorDeepInALargeFileParsedInParallel() {
        int n = 300_000;
        int badLine = 271_828;
        StringBuilder sb = new StringBuilder();
        for (int i = 1; i <= n; i++) {
            sb.append(i).append('|').append(i).append("|1.25|1996-01-01|false|v").append(i % 10).append("|\n");
            if (i == badLine - 1) {
                sb.append(i).append("|x|1.25|1996-01-01|false|v|\n");
                i++;
            }
        }
        Path f = write(dir, "big.tbl", sb.toString());
        TableImporter.Options parallel = opts().withThreads(4).withChunkBytes(16 << 10);
        fails(parallel, name(f) + ":" + badLine + ": column 2 (n): invalid BIGINT 'x'", f);

        // an error in an early chunk wins over one in a later chunk
        Path g = write(dir, "two.tbl", "1|1|1.25|1996-01-01|false|v|\nbad|" + sb.substring(sb.indexOf("\n") + 1));
        fails(parallel, name(g) + ":2: column 1 (k): invalid INTEGER 'bad'", g);
    }

    @Test
    void missingFile() {
        Path f = dir.resolve("nope.tbl");
        ImportException e = fails(name(f) + ": no such file", f);
        assertTrue(e.getMessage().contains("nope.tbl"));
    }

    /** Only printable ASCII and printable non-ASCII characters: nothing a terminal would act on. */
    private static void assertPrintable(String message) {
        message.codePoints().forEach(cp -> assertTrue(MessageText.printable(cp),
                () -> "U+" + Integer.toHexString(cp) + " in " + message));
    }

    @Test
    void bytesOfABadFileAreEscapedInTheMessage() {
        // a terminal escape sequence and a bell in a BIGINT field
        Path f = writeBytes(dir, "esc.tbl", "3|\u001b[2J\u001b]0;owned\u0007|1.00|1996-01-01|true|x|\n");
        ImportException e = fails(name(f) + ":1: column 2 (n): invalid BIGINT '\\x1b[2J\\x1b]0;owned\\x07'", f);
        assertPrintable(e.getMessage());
        // bytes that are not UTF-8 show as themselves, not as U+FFFD
        Path g = writeBytes(dir, "bin.tbl", "4\u00ff\u00fe\u0000|1|1.00|1996-01-01|true|x|\n");
        e = fails(name(g) + ":1: column 1 (k): invalid INTEGER '4\\xff\\xfe\\x00'", g);
        assertPrintable(e.getMessage());
        // a right-to-left override (U+202E, UTF-8 E2 80 AE) and a C1 control (U+009B, C2 9B) in a date; a backslash
        Path h = writeBytes(dir, "bidi.tbl", "5|1|1.00|\u00e2\u0080\u00ae1996-01-01\u00c2\u009b\\|true|x|\n");
        e = fails(name(h) + ":1: column 4 (d): invalid date '\\u202e1996-01-01\\u009b\\\\' (expected yyyy-mm-dd)", h);
        assertPrintable(e.getMessage());
        // printable non-ASCII stays readable
        Path k = write(dir, "ok.tbl", "6|1|1.00|1996-01-01|oui-été|x|\n");
        fails(name(k) + ":1: column 5 (f): invalid boolean 'oui-été'", k);
    }

    @Test
    void aLongValueIsCutInTheMessage() {
        String digits = "1234567890".repeat(100_000); // a megabyte of digits and one letter in a DECIMAL field
        Path f = write(dir, "long.tbl", "3|1|" + digits + "x|1996-01-01|true|x|\n");
        ImportException e = fails(name(f) + ":1: column 3 (m): invalid decimal '" + digits.substring(0, 64)
                + "'... (1000001 bytes)", f);
        assertTrue(e.getMessage().length() < 200, e.getMessage());
        // cut at a character boundary: 21 three-byte characters are 63 bytes, the 22nd would pass 64
        String wide = "中".repeat(30);
        Path g = write(dir, "wide.tbl", "3|" + wide + "|1.00|1996-01-01|true|x|\n");
        fails(name(g) + ":1: column 2 (n): invalid BIGINT '" + wide.substring(0, 21) + "'... (90 bytes)", g);
        assertFalse(MessageText.quote(new byte[0], 0, 0).contains("..."));
    }

    private static final String HINT = " (use --invalid-utf8 replace to store U+FFFD instead)";

    @Test
    void bytesThatAreNotUtf8AreAnErrorNamingFileLineAndColumn() {
        String ok = "3|1|1.00|1996-01-01|true|fine|\n";
        Path f = writeBytes(dir, "latin1.tbl", ok + ok + "4|1|1.00|1996-01-01|true|ab\u00ffc|\n");
        ImportException e = fails(name(f) + ":3: column 6 (s): invalid UTF-8 at byte 3 of the value: 'ab\\xffc'"
                + HINT, f);
        assertEquals(3, e.line());
        assertEquals(6, e.column());
        // Latin-1 text, the common case: é is E9, which starts a three-byte sequence that is cut short
        Path g = writeBytes(dir, "cafe.tbl", "4|1|1.00|1996-01-01|true|caf\u00e9|\n");
        fails(name(g) + ":1: column 6 (s): invalid UTF-8 at byte 4 of the value: 'caf\\xe9'" + HINT, g);
        // each kind of ill-formed sequence: overlong, surrogate, above U+10FFFF, stray continuation, cut short
        String[][] cases = {
                {"\u00c0\u00af", "\\xc0\\xaf"},
                {"\u00e0\u0080\u00af", "\\xe0\\x80\\xaf"},
                {"\u00ed\u00a0\u0080", "\\xed\\xa0\\x80"},
                {"\u00f4\u0090\u0080\u0080", "\\xf4\\x90\\x80\\x80"},
                {"\u00f5\u0080\u0080\u0080", "\\xf5\\x80\\x80\\x80"},
                {"\u0080", "\\x80"},
                {"\u00e4\u00b8", "\\xe4\\xb8"},
        };
        for (String[] c : cases) {
            Path h = writeBytes(dir, "bad.tbl", "4|1|1.00|1996-01-01|true|x" + c[0] + "|\n");
            fails(name(h) + ":1: column 6 (s): invalid UTF-8 at byte 2 of the value: 'x" + c[1] + "'" + HINT, h);
        }
        // a value longer than the string cache takes, in csv with doubled quotes, after a valid multi-byte character
        String pad = "é".repeat(50);
        Path k = writeBytes(dir, "long.csv", "4,1,1.00,1996-01-01,true,\"" + new String(pad.getBytes(
                java.nio.charset.StandardCharsets.UTF_8), java.nio.charset.StandardCharsets.ISO_8859_1)
                + "\"\"\u00ff\"\n");
        fails(name(k) + ":1: column 6 (s): invalid UTF-8 at byte 102 of the value: '" + pad.substring(0, 32)
                + "'... (102 bytes)" + HINT, k);
    }

    @Test
    void aBadByteDeepInALargeFileParsedInParallel() {
        StringBuilder sb = new StringBuilder();
        for (int i = 1; i <= 200_000; i++) {
            sb.append(i).append("|1|1.25|1996-01-01|false|").append(i == 123_457 ? "\u00fe" : "v" + i % 7)
                    .append("|\n");
        }
        Path f = writeBytes(dir, "big.tbl", sb.toString());
        fails(opts().withThreads(4).withChunkBytes(16 << 10),
                name(f) + ":123457: column 6 (s): invalid UTF-8 at byte 1 of the value: '\\xfe'" + HINT, f);
    }

    @Test
    void aRecordLongerThanTheLimitIsReportedAsSuch() {
        String ok = "3|1|1.00|1996-01-01|true|x|\n";
        // a 100 MB line: not "missing: the record has 1 fields"
        Path f = writeLarge(dir, "huge.tbl", ok + "4|", "1", 100_000_000, "|1.00|1996-01-01|true|x|\n" + ok);
        ImportException e = fails(name(f) + ":2: the record is longer than 64 MiB, the limit of one record", f);
        assertEquals(2, e.line());
        assertEquals(0, e.column());
        // also as the last record of a file without a line end, and in a chunk after many small records
        Path g = writeLarge(dir, "last.tbl", ok.repeat(1000), "a", TableImporter.MAX_RECORD_BYTES + 1, "");
        fails(opts().withChunkBytes(1 << 20), name(g) + ":1001: the record is longer than 64 MiB, the limit of one record", g);
        // in csv, where a quote left open is the usual cause, the message says so
        Path h = writeLarge(dir, "open.csv", "3,1,1.00,1996-01-01,true,\"x\n", "line\n", 70 << 20, "");
        fails(name(h) + ":1: the record is longer than 64 MiB, the limit of one record (its first 64 MiB end inside"
                + " a quoted field: an unterminated quote?)", h);
    }

    @Test
    void aRecordOfExactlyTheLimitIsRead() {
        String head = "3|1|1.00|1996-01-01|true|";
        String tail = "|\n";
        Path f = writeLarge(dir, "max.tbl", head, "z", TableImporter.MAX_RECORD_BYTES - head.length() - tail.length(),
                tail + "4|1|1.00|1996-01-01|true|y|\n");
        TableImporter.importFiles(db, "t", List.of(f), opts());
        assertEquals(4, db.table("t").rowCount());
        Path g = writeLarge(dir, "over.tbl", head, "z", TableImporter.MAX_RECORD_BYTES - head.length() - tail.length() + 1,
                tail);
        ImportException e = assertThrows(ImportException.class,
                () -> TableImporter.importFiles(db, "t", List.of(g), opts()));
        assertEquals(name(g) + ":1: the record is longer than 64 MiB, the limit of one record", e.getMessage());
    }
}

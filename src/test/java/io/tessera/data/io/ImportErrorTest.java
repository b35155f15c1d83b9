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
import static org.junit.jupiter.api.Assertions.assertEquals;
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
}

package io.tessera.data.io;

import io.tessera.storage.Database;
import io.tessera.storage.Table;
import io.tessera.storage.TableSchema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static io.tessera.data.io.ImportTestSupport.opts;
import static io.tessera.data.io.ImportTestSupport.rows;
import static io.tessera.data.io.ImportTestSupport.write;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ImportRoundTripTest {

    static final String ALL_TYPES = "i INTEGER NOT NULL, b BIGINT, x DOUBLE, m DECIMAL(15,2), d DATE, f BOOLEAN, s VARCHAR";

    @TempDir
    Path dir;

    private static List<Object> row(Object... v) {
        return Arrays.asList(v);
    }

    @Test
    void csvOfEveryTypeWithNullsQuotesAndLineBreaksRoundTrips() throws Exception {
        String csv = "i,b,x,m,d,f,s\r\n"
                + "1,9000000000,1.5,12.34,1996-01-02,true,plain\r\n"
                + "-2,,,,,,\r\n"                                          // NULLs everywhere but i
                + "3,-9223372036854775808,-0.001,-0.05,2000-02-29,false,\"\"\n" // quoted empty = ''
                + "4,0,12345678.875,99999999999.99,1970-01-01,1,\"a,b \"\"q\"\"\r\nnext line\"\n"
                + "2147483647,1,1e300,0,9999-12-31,f,\"|pipe|\"";      // no final line break
        Path in = write(dir, "in.csv", csv);
        try (Database db = Database.openOrCreate(dir.resolve("db"))) {
            db.createTable(TableSchema.parse("t", ALL_TYPES));
            TableImporter.importFiles(db, "t", List.of(in), opts().withHeader(true));
            List<List<Object>> got = rows(db.table("t"));
            List<List<Object>> want = List.of(
                    row(1, 9000000000L, 1.5, new BigDecimal("12.34"), LocalDate.of(1996, 1, 2), true, "plain"),
                    row(-2, null, null, null, null, null, null),
                    row(3, Long.MIN_VALUE, -0.001, new BigDecimal("-0.05"), LocalDate.of(2000, 2, 29), false, ""),
                    row(4, 0L, 12345678.875, new BigDecimal("99999999999.99"), LocalDate.of(1970, 1, 1), true,
                            "a,b \"q\"\r\nnext line"),
                    row(Integer.MAX_VALUE, 1L, 1e300, new BigDecimal("0.00"), LocalDate.of(9999, 12, 31), false,
                            "|pipe|"));
            assertEquals(want, got);

            Path out = dir.resolve("out.csv");
            TableExporter.export(db.table("t"), out, ImportFormat.CSV, (byte) ',');
            String text = Files.readString(out);
            assertTrue(text.startsWith("i,b,x,m,d,f,s\n"), text);
            assertTrue(text.contains("\n-2,,,,,,\n"), "NULL is an empty field: " + text);
            assertTrue(text.contains(",\"\"\n"), "the empty string is \"\": " + text);
            assertTrue(text.contains("\"a,b \"\"q\"\"\r\nnext line\""), text);
            assertTrue(text.contains("99999999999.99") && text.contains(",0.00,"), "DECIMAL with its scale: " + text);
            assertFalse(text.contains("E300") || text.contains("e300"), "DOUBLE in plain notation: " + text);

            db.createTable(TableSchema.parse("t2", ALL_TYPES));
            TableImporter.importFiles(db, "t2", List.of(out), opts().withHeader(true));
            assertEquals(got, rows(db.table("t2")));
        }
    }

    @Test
    void tblOfEveryTypeRoundTrips() throws Exception {
        String tbl = "1|9000000000|1.5|12.34|1996-01-02|true|plain text|\n"
                + "-2|||||||\n"
                + "3|-5|-0.25|-0.05|2000-02-29|false|Customer#000000001|\n";
        Path in = write(dir, "in.tbl", tbl);
        try (Database db = Database.openOrCreate(dir.resolve("db"))) {
            db.createTable(TableSchema.parse("t", ALL_TYPES));
            TableImporter.importFiles(db, "t", List.of(in), opts());
            List<List<Object>> got = rows(db.table("t"));
            assertEquals(List.of(
                    row(1, 9000000000L, 1.5, new BigDecimal("12.34"), LocalDate.of(1996, 1, 2), true, "plain text"),
                    row(-2, null, null, null, null, null, null),
                    row(3, -5L, -0.25, new BigDecimal("-0.05"), LocalDate.of(2000, 2, 29), false,
                            "Customer#000000001")), got);

            Path out = dir.resolve("out.tbl");
            TableExporter.export(db.table("t"), out, ImportFormat.TBL, (byte) '|');
            List<String> lines = Files.readAllLines(out);
            assertEquals(3, lines.size());
            assertTrue(lines.stream().allMatch(l -> l.endsWith("|")), "every line ends with '|': " + lines);
            assertEquals("-2|||||||", lines.get(1));

            db.createTable(TableSchema.parse("t2", ALL_TYPES));
            TableImporter.importFiles(db, "t2", List.of(out), opts());
            assertEquals(got, rows(db.table("t2")));
        }
    }

    @Test
    void doublesInExponentFormAndTheSpecialValuesAsDuckDbWritesThem() {
        // DuckDB's CSV (and Tessera's export) writes 1e+20, 1e-07, nan, inf, -inf; Java's spellings are read too
        Path a = write(dir, "a.csv", "1,1e+20\n2,1e-07\n3,nan\n4,inf\n5,-inf\n6,NaN\n7,-Infinity\n8,+INF\n");
        try (Database db = Database.openOrCreate(dir.resolve("db"))) {
            db.createTable(TableSchema.parse("t", "k INTEGER NOT NULL, d DOUBLE"));
            TableImporter.importFiles(db, "t", List.of(a), opts());
            assertEquals(List.of(row(1, 1e20), row(2, 1e-7), row(3, Double.NaN), row(4, Double.POSITIVE_INFINITY),
                    row(5, Double.NEGATIVE_INFINITY), row(6, Double.NaN), row(7, Double.NEGATIVE_INFINITY),
                    row(8, Double.POSITIVE_INFINITY)), rows(db.table("t")));
            Path b = write(dir, "b.csv", "1,nanx\n");
            var e = org.junit.jupiter.api.Assertions.assertThrows(RuntimeException.class,
                    () -> TableImporter.importFiles(db, "t", List.of(b), opts()));
            org.junit.jupiter.api.Assertions.assertTrue(e.getMessage().contains("invalid DOUBLE 'nanx'"), e.getMessage());
        }
    }

    @Test
    void tblAcceptsTrailingDelimiterCrlfAndItsAbsence() {
        Path a = write(dir, "a.tbl", "1|x|\n2|y|\r\n3|z\n4||\n");
        try (Database db = Database.openOrCreate(dir.resolve("db"))) {
            db.createTable(TableSchema.parse("t", "k INTEGER NOT NULL, v VARCHAR"));
            TableImporter.importFiles(db, "t", List.of(a), opts());
            assertEquals(List.of(row(1, "x"), row(2, "y"), row(3, "z"), row(4, null)), rows(db.table("t")));
        }
    }

    @Test
    void tblEmptyFieldInVarcharNotNullIsTheEmptyString() {
        Path a = write(dir, "a.tbl", "1||\n");
        try (Database db = Database.openOrCreate(dir.resolve("db"))) {
            db.createTable(TableSchema.parse("t", "k INTEGER NOT NULL, v VARCHAR NOT NULL"));
            TableImporter.importFiles(db, "t", List.of(a), opts());
            assertEquals(List.of(row(1, "")), rows(db.table("t")));
        }
    }

    @Test
    void appendsToExistingRowsAndKeepsFileOrder() {
        Path a = write(dir, "a.tbl", "1|a|\n2|b|\n");
        Path b = write(dir, "b.csv", "3,c\n4,\"\"\n");
        try (Database db = Database.openOrCreate(dir.resolve("db"))) {
            db.createTable(TableSchema.parse("t", "k INTEGER NOT NULL, v VARCHAR"));
            TableImporter.importFiles(db, "t", List.of(a), opts());
            var s = TableImporter.importFiles(db, "t", List.of(b, a), opts());
            assertEquals(4, s.rows());
            assertEquals(List.of(row(1, "a"), row(2, "b"), row(3, "c"), row(4, ""), row(1, "a"), row(2, "b")),
                    rows(db.table("t")));
        }
        try (Database db = Database.open(dir.resolve("db"))) { // persisted
            assertEquals(6, db.table("t").rowCount());
        }
    }

    @Test
    void largeFileParsedInParallelChunksKeepsEveryRowInOrder() throws Exception {
        int n = 200_000;
        StringBuilder tbl = new StringBuilder();
        StringBuilder csv = new StringBuilder();
        List<List<Object>> want = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            String s = "s" + (i % 1000);
            tbl.append(i).append('|').append(i * 3L).append('|').append(s).append("|\n");
            // every 7th value holds a quoted line break, so CSV chunk boundaries must respect quotes
            String cs = i % 7 == 0 ? "\"" + s + "\nx\"" : s;
            csv.append(i).append(',').append(i * 3L).append(',').append(cs).append('\n');
            want.add(row(i, (long) i * 3, s));
        }
        Path t = write(dir, "big.tbl", tbl.toString());
        Path c = write(dir, "big.csv", csv.toString());
        TableImporter.Options small = opts().withThreads(4).withChunkBytes(8192);
        try (Database db = Database.openOrCreate(dir.resolve("db"))) {
            db.createTable(TableSchema.parse("t", "a INTEGER NOT NULL, b BIGINT, s VARCHAR"));
            TableImporter.importFiles(db, "t", List.of(t), small);
            assertEquals(want, rows(db.table("t")));

            db.createTable(TableSchema.parse("c", "a INTEGER NOT NULL, b BIGINT, s VARCHAR"));
            TableImporter.importFiles(db, "c", List.of(c), small);
            Table ct = db.table("c");
            assertEquals(n, ct.rowCount());
            for (int i = 0; i < n; i += 997) {
                String s = "s" + (i % 1000);
                assertEquals(i % 7 == 0 ? s + "\nx" : s, ct.column(2).getString(i), "row " + i);
                assertEquals(i, ct.column(0).getInt(i));
            }
        }
    }

    @Test
    void oneColumnCsvKeepsNullRows() {
        try (Database db = Database.openOrCreate(dir.resolve("db"))) {
            db.createTable(TableSchema.parse("t", "v VARCHAR"));
            Path in = write(dir, "in.csv", "a\n\n\"\"\nb\n");
            TableImporter.importFiles(db, "t", List.of(in), opts());
            assertEquals(List.of(row("a"), row((Object) null), row(""), row("b")), rows(db.table("t")));
            Path out = dir.resolve("out.csv");
            TableExporter.export(db.table("t"), out, ImportFormat.CSV, (byte) ',');
            db.createTable(TableSchema.parse("t2", "v VARCHAR"));
            TableImporter.importFiles(db, "t2", List.of(out), opts().withHeader(true));
            assertEquals(rows(db.table("t")), rows(db.table("t2")));
        }
    }

    @Test
    void exportOfNegativeZeroAndSmallDoublesReadsBack() {
        try (Database db = Database.openOrCreate(dir.resolve("db"))) {
            db.createTable(TableSchema.parse("t", "x DOUBLE"));
            Path in = write(dir, "in.csv", "-0.0\n1e-7\n123456789012345678\n0.1\n");
            TableImporter.importFiles(db, "t", List.of(in), opts());
            Path out = dir.resolve("out.csv");
            TableExporter.export(db.table("t"), out, ImportFormat.CSV, (byte) ',');
            db.createTable(TableSchema.parse("t2", "x DOUBLE"));
            TableImporter.importFiles(db, "t2", List.of(out), opts().withHeader(true));
            Table a = db.table("t");
            Table b = db.table("t2");
            for (int r = 0; r < 4; r++) {
                assertEquals(Double.doubleToLongBits(a.column(0).getDouble(r)),
                        Double.doubleToLongBits(b.column(0).getDouble(r)), "row " + r);
            }
        }
    }
}

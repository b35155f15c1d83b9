package io.tessera.data.parquet;

import io.tessera.Tessera;
import io.tessera.data.io.ImportException;
import io.tessera.data.io.InvalidUtf8;
import io.tessera.sql.SqlError;
import io.tessera.storage.Column;
import io.tessera.storage.Database;
import io.tessera.storage.Table;
import io.tessera.storage.TableSchema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Parquet in and out against DuckDB: DuckDB writes a file of every type Tessera holds (NULLs, empty strings,
 * decimals backed by INT32, INT64 and fixed-length bytes, dates, dictionary and plain strings, several row groups),
 * Tessera imports it and holds the values DuckDB reads from it; Tessera exports, DuckDB reads the same values back.
 */
class ParquetRoundTripTest {

    /** Rows of the test file; DuckDB cuts row groups of 2048 rows at least, so this gives five. */
    private static final int ROWS = 10_000;

    /** The Tessera table: DuckDB's REAL and DECIMAL(30,3) columns land in DOUBLE and DECIMAL(18,3). */
    private static final String TABLE = "i INTEGER NOT NULL, b BIGINT, x DOUBLE, r DOUBLE, m4 DECIMAL(4,1),"
            + " m DECIMAL(15,2), big DECIMAL(18,3), d DATE, f BOOLEAN, s VARCHAR, u VARCHAR NOT NULL, sm SMALLINT,"
            + " ti TINYINT";

    /** The same columns as DuckDB writes them; every fifth row NULL in each nullable column but s. */
    private static final String DUCKDB_ROWS = "SELECT i::INTEGER AS i,"
            + " CASE WHEN i % 5 = 1 THEN NULL ELSE (i - 5000) * 1000000007 END::BIGINT AS b,"
            + " CASE WHEN i % 5 = 2 THEN NULL ELSE i / 7.0 - 300 END::DOUBLE AS x,"
            + " CASE WHEN i % 5 = 3 THEN NULL ELSE i / 4.0 END::REAL AS r,"
            + " CASE WHEN i % 5 = 4 THEN NULL ELSE (i % 1999 - 999) / 10 END::DECIMAL(4,1) AS m4,"
            + " CASE WHEN i % 5 = 0 THEN NULL ELSE (i * 12345.67 - 60000000) END::DECIMAL(15,2) AS m,"
            + " CASE WHEN i % 5 = 1 THEN NULL ELSE (i * 1000003.125 - 5e9) END::DECIMAL(30,3) AS big,"
            + " CASE WHEN i % 5 = 2 THEN NULL ELSE DATE '1969-12-25' + (i * 3)::INTEGER END AS d,"
            + " CASE WHEN i % 5 = 3 THEN NULL ELSE i % 3 = 0 END AS f,"
            + " CASE WHEN i % 7 = 0 THEN NULL WHEN i % 7 = 1 THEN '' ELSE 'tag ' || (i % 11) || ' ü' END AS s,"
            + " 'row-' || i || repeat('x', i % 13) AS u,"
            + " CASE WHEN i % 5 = 4 THEN NULL ELSE (i % 65536) - 32768 END::SMALLINT AS sm,"
            + " CASE WHEN i % 5 = 0 THEN NULL ELSE (i % 256) - 128 END::TINYINT AS ti"
            + " FROM range(" + ROWS + ") t(i)";

    @TempDir
    Path dir;

    @Test
    void duckDbWritesTesseraImportsTheSameValues() throws Exception {
        Path file = dir.resolve("all.parquet");
        try (Connection duck = duckdb()) {
            exec(duck, "COPY (" + DUCKDB_ROWS + ") TO '" + file + "' (FORMAT parquet, ROW_GROUP_SIZE 2048)");
            assertTrue(scalarLong(duck, "SELECT count(DISTINCT row_group_id) FROM parquet_metadata('" + file + "')") > 2,
                    "several row groups");
            List<List<Object>> want = duckRows(duck, "SELECT * FROM read_parquet('" + file + "') ORDER BY i");
            try (Database db = Database.openOrCreate(dir.resolve("db"))) {
                db.createTable(TableSchema.parse("t", TABLE));
                var summary = ParquetImporter.importFiles(db, "t", List.of(file), 2, InvalidUtf8.ERROR);
                assertEquals(ROWS, summary.rows());
                assertEquals(want, rows(db.table("t")));
            }
        }
    }

    /**
     * Every page compression DuckDB writes, and its version 2 files (DATA_PAGE_V2, DELTA_BINARY_PACKED,
     * DELTA_LENGTH_BYTE_ARRAY, BYTE_STREAM_SPLIT and RLE_DICTIONARY values), which go through parquet-java's reader.
     */
    @Test
    void everyCompressionAndPageVersionDuckDbWritesReadsTheSame() throws Exception {
        try (Connection duck = duckdb(); Database db = Database.openOrCreate(dir.resolve("db"))) {
            List<String> options = List.of("COMPRESSION zstd", "COMPRESSION gzip", "COMPRESSION lz4_raw",
                    "COMPRESSION uncompressed", "PARQUET_VERSION V2", "PARQUET_VERSION V2, COMPRESSION zstd");
            for (int k = 0; k < options.size(); k++) {
                Path file = dir.resolve("o" + k + ".parquet");
                exec(duck, "COPY (" + DUCKDB_ROWS + ") TO '" + file + "' (FORMAT parquet, ROW_GROUP_SIZE 4096, "
                        + options.get(k) + ")");
                List<List<Object>> want = duckRows(duck, "SELECT * FROM read_parquet('" + file + "') ORDER BY i");
                db.createTable(TableSchema.parse("t" + k, TABLE));
                ParquetImporter.importFiles(db, "t" + k, List.of(file), 2, InvalidUtf8.ERROR);
                assertEquals(want, rows(db.table("t" + k)), options.get(k));
            }
        }
    }

    @Test
    void tesseraExportsDuckDbReadsTheSameValuesAndTheTypes() throws Exception {
        Path in = dir.resolve("in.parquet");
        Path out = dir.resolve("out.parquet");
        try (Connection duck = duckdb(); Database db = Database.openOrCreate(dir.resolve("db"))) {
            exec(duck, "COPY (" + DUCKDB_ROWS + ") TO '" + in + "' (FORMAT parquet)");
            db.createTable(TableSchema.parse("t", TABLE));
            ParquetImporter.importFiles(db, "t", List.of(in), 2, InvalidUtf8.ERROR);
            List<List<Object>> tessera = rows(db.table("t"));

            assertEquals(ROWS, ParquetExporter.export(db.table("t"), out, 3000));
            assertEquals(4L, scalarLong(duck, "SELECT count(DISTINCT row_group_id) FROM parquet_metadata('" + out + "')"));
            assertEquals(tessera, duckRows(duck, "SELECT * FROM read_parquet('" + out + "') ORDER BY i"));
            List<String> types = new ArrayList<>();
            try (Statement s = duck.createStatement();
                 ResultSet r = s.executeQuery("DESCRIBE SELECT * FROM read_parquet('" + out + "')")) {
                while (r.next()) {
                    types.add(r.getString(1) + " " + r.getString(2));
                }
            }
            assertEquals(List.of("i INTEGER", "b BIGINT", "x DOUBLE", "r DOUBLE", "m4 DECIMAL(4,1)",
                    "m DECIMAL(15,2)", "big DECIMAL(18,3)", "d DATE", "f BOOLEAN", "s VARCHAR", "u VARCHAR",
                    "sm SMALLINT", "ti TINYINT"), types);

            // and Tessera reads its own file back to the same values
            db.createTable(TableSchema.parse("t2", TABLE));
            ParquetImporter.importFiles(db, "t2", List.of(out), 2, InvalidUtf8.ERROR);
            assertEquals(tessera, rows(db.table("t2")));
        }
    }

    @Test
    void aColumnTesseraCannotHoldFailsNamingItAndLeavesTheTableUnchanged() throws Exception {
        Path good = dir.resolve("good.parquet");
        try (Connection duck = duckdb(); Database db = Database.openOrCreate(dir.resolve("db"))) {
            exec(duck, "COPY (SELECT i::INTEGER AS id, i::BIGINT AS v FROM range(10) t(i)) TO '" + good
                    + "' (FORMAT parquet)");
            db.createTable(TableSchema.parse("t", "id INTEGER NOT NULL, v BIGINT"));
            ParquetImporter.importFiles(db, "t", List.of(good), 2, InvalidUtf8.ERROR);
            int generation = db.table("t").generation();
            List<List<Object>> before = rows(db.table("t"));
            List<String> filesBefore = files(db, "t");

            record Case(String select, String message) {
            }
            List<Case> cases = List.of(
                    new Case("i::INTEGER AS id, [i, i] AS v",
                            "column 2 (v): the file holds BIGINT[], which a BIGINT column cannot take"),
                    new Case("i::INTEGER AS id, {'a': i} AS v",
                            "column 2 (v): the file holds STRUCT(a BIGINT), which a BIGINT column cannot take"),
                    new Case("i::INTEGER AS id, [[i]] AS v",
                            "column 2 (v): the file holds BIGINT[][], which a BIGINT column cannot take"),
                    new Case("i::INTEGER AS id, TIMETZ '10:00:00+02' + INTERVAL (i) SECOND AS v",
                            "column 2 (v): INT64 annotated TIME adjusted to UTC (a TIME WITH TIME ZONE), a type"
                            + " Tessera cannot hold"),
                    new Case("i::INTEGER AS id, TIME '10:00:00' + INTERVAL (i) SECOND AS v",
                            "column 2 (v): the file holds TIME, which a BIGINT column cannot take"),
                    new Case("i::INTEGER AS id, TIMESTAMP '2020-01-01' + INTERVAL (i) DAY AS v",
                            "column 2 (v): the file holds TIMESTAMP, which a BIGINT column cannot take"),
                    new Case("i::INTEGER AS id, 'x' || i AS v", "column 2 (v): the file holds STRING"),
                    new Case("i::INTEGER AS id, i::UBIGINT + 9223372036854775800 AS v",
                            "row 9: column 2 (v): value 9223372036854775808 is out of range for BIGINT"),
                    new Case("i::INTEGER AS id, CASE WHEN i = 9000 THEN NULL ELSE i END::BIGINT AS v, i AS extra",
                            "the file's column extra holds integers, and table t has no column of this name"),
                    new Case("i::INTEGER AS idx, i::BIGINT AS v", "column 1 (id): the file has no column of this name"),
                    new Case("CASE WHEN i = 9000 THEN NULL ELSE i END::INTEGER AS id, i::BIGINT AS v",
                            "row 9001: column 1 (id): NULL in a NOT NULL column"));
            for (int k = 0; k < cases.size(); k++) {
                Case c = cases.get(k);
                Path bad = dir.resolve("bad" + k + ".parquet");
                exec(duck, "COPY (SELECT " + c.select() + " FROM range(10000) t(i)) TO '" + bad
                        + "' (FORMAT parquet, ROW_GROUP_SIZE 2048)");
                // the good file first: its rows are read, then dropped with the rest
                ImportException e = assertThrows(ImportException.class, () -> ParquetImporter.importFiles(db, "t",
                        List.of(good, bad), 2, InvalidUtf8.ERROR), c.select());
                assertTrue(e.getMessage().startsWith(bad + ": "), e.getMessage());
                assertTrue(e.getMessage().contains(c.message()), e.getMessage());
                assertEquals(generation, db.table("t").generation(), c.select());
                assertEquals(before, rows(db.table("t")), c.select());
                assertEquals(filesBefore, files(db, "t"), c.select());
            }
        }
    }

    /**
     * TIME both ways: DuckDB writes INT64 TIME(MICROS) not adjusted to UTC, Tessera imports the same times of day,
     * exports them as the same type, and DuckDB reads them back as TIME with the same values.
     */
    @Test
    void timeColumnsRoundTripWithDuckDb() throws Exception {
        Path in = dir.resolve("times.parquet");
        Path out = dir.resolve("times-out.parquet");
        String rows = "SELECT i::INTEGER AS i, CASE WHEN i % 5 = 1 THEN NULL"
                + " ELSE TIME '00:00:00' + INTERVAL (i * 8640017) MICROSECOND END AS t,"
                + " TIME '23:59:59.999999' - INTERVAL (i) SECOND AS last FROM range(" + ROWS + ") t(i)";
        try (Connection duck = duckdb(); Database db = Database.openOrCreate(dir.resolve("db"))) {
            exec(duck, "COPY (" + rows + ") TO '" + in + "' (FORMAT parquet, ROW_GROUP_SIZE 2048)");
            List<List<Object>> want = duckRows(duck, "SELECT * FROM read_parquet('" + in + "') ORDER BY i");
            db.createTable(TableSchema.parse("t", "i INTEGER NOT NULL, t TIME, last TIME NOT NULL"));
            assertEquals(ROWS, ParquetImporter.importFiles(db, "t", List.of(in), 2, InvalidUtf8.ERROR).rows());
            assertEquals(want, rows(db.table("t")));
            assertEquals(java.time.LocalTime.of(23, 59, 59, 999_999_000), rows(db.table("t")).get(0).get(2));

            assertEquals(ROWS, ParquetExporter.export(db.table("t"), out, 3000));
            assertEquals(want, duckRows(duck, "SELECT * FROM read_parquet('" + out + "') ORDER BY i"));
            assertEquals(List.of("i INTEGER", "t TIME", "last TIME"), describe(duck, out));
        }
    }

    /** A TIME of milliseconds on INT32 (which DuckDB does not write) read as microseconds since midnight. */
    @Test
    void aTimeOfMillisecondsOnInt32ReadsAsMicroseconds() {
        org.apache.parquet.format.SchemaElement e = new org.apache.parquet.format.SchemaElement("t");
        e.setType(org.apache.parquet.format.Type.INT32);
        e.setRepetition_type(org.apache.parquet.format.FieldRepetitionType.OPTIONAL);
        e.setLogicalType(org.apache.parquet.format.LogicalType.TIME(new org.apache.parquet.format.TimeType(false,
                org.apache.parquet.format.TimeUnit.MILLIS(new org.apache.parquet.format.MilliSeconds()))));
        SourceColumn source = SourceColumn.of(e, 0);
        assertEquals(SourceColumn.Kind.TIME, source.kind());
        assertEquals(io.tessera.storage.DataType.TIME, source.natural());
        io.tessera.storage.ColumnBuilder out = new io.tessera.storage.ColumnBuilder(io.tessera.storage.DataType.TIME, 4);
        var converter = ValueConverters.create(source, io.tessera.storage.DataType.TIME, out, InvalidUtf8.ERROR);
        converter.addInt(45_296_789); // 12:34:56.789
        assertEquals(java.time.LocalTime.of(12, 34, 56, 789_000_000), out.get(0));
        IllegalArgumentException bad = assertThrows(IllegalArgumentException.class, () -> converter.addInt(86_400_000));
        assertEquals("time 86400000 (milliseconds since midnight) is outside the day", bad.getMessage());
    }

    @Test
    void aValueBeyondTheColumnsPrecisionOrScaleNamesItsRow() throws Exception {
        try (Connection duck = duckdb(); Database db = Database.openOrCreate(dir.resolve("db"))) {
            db.createTable(TableSchema.parse("t", "m DECIMAL(5,2)"));
            Path wide = dir.resolve("wide.parquet");
            exec(duck, "COPY (SELECT (i / 10)::DECIMAL(15,2) AS m FROM range(20000) t(i)) TO '" + wide
                    + "' (FORMAT parquet, ROW_GROUP_SIZE 4096)");
            ImportException e = assertThrows(ImportException.class, () -> ParquetImporter.importFiles(db, "t",
                    List.of(wide), 2, InvalidUtf8.ERROR));
            assertEquals(wide + ": row 10001: column 1 (m): value 1000.00 is out of range for DECIMAL(5,2)",
                    e.getMessage());
            Path fine = dir.resolve("fine.parquet");
            exec(duck, "COPY (SELECT CASE WHEN i = 3000 THEN 0.125 ELSE i / 100 END::DECIMAL(9,3) AS m"
                    + " FROM range(5000) t(i)) TO '" + fine + "' (FORMAT parquet)");
            e = assertThrows(ImportException.class, () -> ParquetImporter.importFiles(db, "t", List.of(fine), 2,
                    InvalidUtf8.ERROR));
            assertEquals(fine + ": row 3001: column 1 (m): value 0.125 has more fractional digits than DECIMAL(5,2)",
                    e.getMessage());
            assertEquals(0, db.table("t").rowCount());
        }
    }

    /**
     * Broken bytes anywhere (a cut file, a footer or pages overwritten) end in an import error naming the file, with
     * the table unchanged, or, where they still decode (Parquet pages carry no checksum here), in rows; never in
     * another exception.
     */
    @Test
    void aBrokenFileFailsAsAnImportErrorOrStillDecodes() throws Exception {
        Path good = dir.resolve("good.parquet");
        try (Connection duck = duckdb(); Database db = Database.openOrCreate(dir.resolve("db"))) {
            exec(duck, "COPY (" + DUCKDB_ROWS + " LIMIT 4500) TO '" + good + "' (FORMAT parquet, ROW_GROUP_SIZE 2048)");
            byte[] bytes = Files.readAllBytes(good);
            java.util.Random random = new java.util.Random(28);
            int failures = 0;
            for (int k = 0; k < 16; k++) {
                byte[] broken = bytes.clone();
                if (k == 0) {
                    broken = java.util.Arrays.copyOf(bytes, bytes.length / 2);
                } else {
                    // the footer's region in some variants, the pages in the others
                    int at = k % 3 == 0 ? bytes.length - 8 - random.nextInt(Math.min(2000, bytes.length - 12))
                            : 4 + random.nextInt(bytes.length - 12);
                    for (int i = at; i < Math.min(bytes.length - 8, at + 1 + random.nextInt(64)); i++) {
                        broken[i] = (byte) random.nextInt(256);
                    }
                }
                Path bad = Files.write(dir.resolve("broken" + k + ".parquet"), broken);
                db.createTable(TableSchema.parse("t" + k, TABLE));
                try {
                    ParquetImporter.importFiles(db, "t" + k, List.of(bad), 2, InvalidUtf8.ERROR);
                } catch (ImportException e) {
                    failures++;
                    assertTrue(e.getMessage().startsWith(bad + ": "), e.getMessage());
                    assertEquals(0, db.table("t" + k).rowCount());
                }
            }
            // with this seed 13 of the 16 fail; the others' overwritten bytes still decode
            assertTrue(failures >= 8, failures + " of 16 broken files failed");
        }
    }

    @Test
    void aFileThatIsNotParquetFailsNamingIt() throws Exception {
        Path notParquet = Files.writeString(dir.resolve("x.parquet"), "1,2\n3,4\n5,6\n7,8\n");
        try (Database db = Database.openOrCreate(dir.resolve("db"))) {
            db.createTable(TableSchema.parse("t", "id INTEGER"));
            ImportException e = assertThrows(ImportException.class, () -> ParquetImporter.importFiles(db, "t",
                    List.of(notParquet), 1, InvalidUtf8.ERROR));
            assertEquals(notParquet + ": not a Parquet file (it does not end in PAR1)", e.getMessage());
            assertEquals(0, db.table("t").rowCount());
        }
    }

    @Test
    void copyFromParquetReadsOnlyUnderTheAllowedDirectories() throws Exception {
        Path allowed = Files.createDirectories(dir.resolve("allowed"));
        Path outside = Files.createDirectories(dir.resolve("outside"));
        Path ok = allowed.resolve("ok.parquet");
        Path named = allowed.resolve("data.bin");
        Path secret = outside.resolve("secret.parquet");
        try (Connection duck = duckdb()) {
            for (Path p : List.of(ok, named, secret)) {
                exec(duck, "COPY (SELECT i::INTEGER AS id, 'n' || i AS name FROM range(3) t(i)) TO '" + p
                        + "' (FORMAT parquet)");
            }
        }
        Files.createSymbolicLink(allowed.resolve("link.parquet"), secret);
        try (Tessera t = Tessera.openOrCreate(dir.resolve("db"))) {
            t.query("CREATE TABLE c (id INTEGER, name VARCHAR)");
            String copyOk = "COPY c FROM '" + ok + "'";
            assertTrue(refused(t, copyOk).contains("allowed no directory"));
            t.allowCopyFrom(allowed);
            assertEquals(3L, ((Number) t.query(copyOk).rows().getFirst()[0]).longValue());
            assertEquals(3L, ((Number) t.query("COPY c FROM '" + named + "' (FORMAT parquet)").rows().getFirst()[0])
                    .longValue());
            String m = refused(t, "COPY c FROM '" + secret + "'");
            assertTrue(m.contains("refusing to read") && m.contains("not under a directory SQL may read"), m);
            m = refused(t, "COPY c FROM '" + allowed.resolve("link.parquet") + "'");
            assertTrue(m.contains("'link.parquet' is a symbolic link"), m);
            assertTrue(refused(t, "COPY c FROM '" + ok + "' (FORMAT parquet, HEADER)").contains("not Parquet"));
            assertEquals(List.of("n0", "n0", "n1", "n1", "n2", "n2"), t.query("SELECT name FROM c ORDER BY name")
                    .rows().stream().map(r -> (String) r[0]).toList());
        }
    }

    private static String refused(Tessera t, String sql) {
        return assertThrows(SqlError.class, () -> t.query(sql)).getMessage();
    }

    private static Connection duckdb() throws SQLException {
        return DriverManager.getConnection("jdbc:duckdb:");
    }

    private static void exec(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute(sql);
        }
    }

    private static List<String> describe(Connection duck, Path file) throws SQLException {
        List<String> types = new ArrayList<>();
        try (Statement s = duck.createStatement();
             ResultSet r = s.executeQuery("DESCRIBE SELECT * FROM read_parquet('" + file + "')")) {
            while (r.next()) {
                types.add(r.getString(1) + " " + r.getString(2));
            }
        }
        return types;
    }

    private static long scalarLong(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet r = s.executeQuery(sql)) {
            r.next();
            return r.getLong(1);
        }
    }

    /**
     * DuckDB's rows as the Java values Tessera's columns give: integers as Integer (Long for BIGINT), REAL widened
     * to Double, DECIMAL as BigDecimal with its scale (a DECIMAL(30,3) as DECIMAL(18,3) holds it), DATE as LocalDate, TIME as LocalTime.
     */
    private static List<List<Object>> duckRows(Connection c, String sql) throws SQLException {
        List<List<Object>> out = new ArrayList<>();
        try (Statement s = c.createStatement(); ResultSet r = s.executeQuery(sql)) {
            int n = r.getMetaData().getColumnCount();
            while (r.next()) {
                List<Object> row = new ArrayList<>();
                for (int i = 1; i <= n; i++) {
                    String type = r.getMetaData().getColumnTypeName(i);
                    Object v;
                    if (type.equals("INTEGER") || type.equals("SMALLINT") || type.equals("TINYINT")) {
                        v = r.getInt(i);
                    } else if (type.equals("BIGINT")) {
                        v = r.getLong(i);
                    } else if (type.equals("DOUBLE") || type.equals("FLOAT")) {
                        v = r.getDouble(i);
                    } else if (type.startsWith("DECIMAL")) {
                        v = r.getBigDecimal(i);
                    } else if (type.equals("DATE")) {
                        v = r.getObject(i, LocalDate.class);
                    } else if (type.equals("TIME")) {
                        v = r.getObject(i, java.time.LocalTime.class);
                    } else if (type.equals("BOOLEAN")) {
                        v = r.getBoolean(i);
                    } else {
                        v = r.getString(i);
                    }
                    row.add(r.wasNull() ? null : v);
                }
                out.add(row);
            }
        }
        return out;
    }

    /** Every row of a table as Java values (null for NULL), in order. */
    private static List<List<Object>> rows(Table t) {
        List<List<Object>> out = new ArrayList<>();
        for (long r = 0; r < t.rowCount(); r++) {
            List<Object> row = new ArrayList<>();
            for (Column c : t.columns()) {
                Object v = c.getObject(r);
                row.add(v instanceof BigDecimal b ? b : v);
            }
            out.add(row);
        }
        return out;
    }

    private static List<String> files(Database db, String table) throws IOException {
        try (Stream<Path> s = Files.list(db.directory().resolve(table))) {
            return s.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }
}

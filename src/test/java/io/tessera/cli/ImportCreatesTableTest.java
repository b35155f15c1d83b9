package io.tessera.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code tessera import} into a table that is not there: made from the first file's columns (the types DuckDB's
 * {@code read_csv} and {@code read_parquet} give the same files), then filled; an existing table keeps its columns.
 */
class ImportCreatesTableTest extends CapturedMainTest {

    @TempDir
    Path dir;

    @Test
    void aCsvFileMakesTheDatabaseAndTableWithSniffedDelimiterHeaderAndTypes() throws Exception {
        Path csv = dir.resolve("people.csv");
        Files.writeString(csv, "id;first name;score;day\n1;Ann;1.5;2020-01-02\n2;Bo;;2021-12-31\n");
        String db = dir.resolve("db").toString(); // not there yet
        assertEquals(0, run("import", "--db", db, "--table", "people", csv.toString()), err());
        // DuckDB's read_csv gives the columns BIGINT, VARCHAR, DOUBLE, DATE
        assertTrue(out().contains("created table people (4 columns) from " + csv + ", delimiter ';', the first line"
                + " a header: id BIGINT, first_name VARCHAR, score DOUBLE, day DATE\n"), out());
        assertTrue(out().contains("imported 2 rows into people"), out());

        // the table exists now: a headerless file is appended to it as before, nothing made
        Path more = dir.resolve("more.csv");
        Files.writeString(more, "3;Cy;2.25;2022-03-04\n");
        assertEquals(0, run("import", "--db", db, "--table", "people", "--delimiter", ";", more.toString()), err());
        assertFalse(out().contains("created"), out());
        assertTrue(out().contains("imported 1 row into people"), out());

        assertEquals(0, run("sql", "--db", db, "--format", "csv", "-c",
                "SELECT id, first_name, score, day FROM people ORDER BY id"), err() + out());
        assertEquals("id,first_name,score,day\n1,Ann,1.5,2020-01-02\n2,Bo,,2021-12-31\n3,Cy,2.25,2022-03-04\n",
                out().replace("\r\n", "\n"));
    }

    @Test
    void givenHeaderAndDelimiterAreTakenNotGuessed() throws Exception {
        Path csv = dir.resolve("t.txt");
        Files.writeString(csv, "1|2\n3|4\n"); // a first line that parses: no header unless told
        String db = dir.resolve("db").toString();
        assertEquals(0, run("import", "--db", db, "--table", "t", "--format", "csv", "--delimiter", "|", "--header",
                csv.toString()), err());
        assertTrue(out().contains("created table t (2 columns) from " + csv + ", delimiter '|', the first line a"
                + " header: _1 BIGINT, _2 BIGINT\n"), out());
        assertTrue(out().contains("imported 1 row into t"), out());
        assertEquals(0, run("import", "--db", db, "--table", "u", "--format", "csv", "--no-header", csv.toString()),
                err());
        assertTrue(out().contains("created table u (2 columns) from " + csv + ", delimiter '|', no header:"
                + " column0 BIGINT, column1 BIGINT\n"), out());
        assertTrue(out().contains("imported 2 rows into u"), out());
    }

    @Test
    void aParquetFileMakesTheTableWithoutTheColumnsTesseraCannotHold() throws Exception {
        Path parquet = dir.resolve("events.parquet");
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:"); Statement s = c.createStatement()) {
            s.execute("COPY (SELECT i::INTEGER AS id, 'n' || i AS \"event name\", DATE '2024-01-01' + i::INTEGER AS day,"
                    + " (i * 1.25)::DECIMAL(9,2) AS amount, MAP {'\\xAA'::BLOB: i} AS nested FROM range(3) t(i)) TO '" + parquet
                    + "' (FORMAT parquet)");
        }
        String db = dir.resolve("db").toString();
        assertEquals(0, run("create", "--db", db, "--table", "other", "--columns", "a INTEGER"), err());
        assertEquals(0, run("import", "--db", db, "--table", "events", parquet.toString()), err());
        // DuckDB's read_parquet gives INTEGER, VARCHAR, DATE, DECIMAL(9,2) (and the MAP of BLOB keys)
        assertTrue(out().contains("created table events (4 columns) from " + parquet + ": id INTEGER,"
                + " event_name VARCHAR, day DATE, amount DECIMAL(9,2)\n"), out());
        assertTrue(out().contains("left out column nested (a MAP whose key holds BYTES, which Tessera's structs cannot"
                + " hold)"), out());
        assertTrue(out().contains("imported 3 rows into events"), out());
        assertEquals(0, run("sql", "--db", db, "--format", "csv", "-c",
                "SELECT id, event_name, day, amount FROM events ORDER BY id"), err() + out());
        assertEquals("id,event_name,day,amount\n0,n0,2024-01-01,0.00\n1,n1,2024-01-02,1.25\n2,n2,2024-01-03,2.50\n",
                out().replace("\r\n", "\n"));
    }

    @Test
    void aTblFileNamesNoColumnsAndMakesNoTable() throws Exception {
        String db = dir.resolve("db").toString();
        assertEquals(0, run("create", "--db", db, "--table", "other", "--columns", "a INTEGER"), err());
        Path tbl = dir.resolve("t.tbl");
        Files.writeString(tbl, "1|x|\n");
        assertEquals(1, run("import", "--db", db, "--table", "t", tbl.toString()));
        assertTrue(err().contains("no table t in database " + db + ", and a .tbl file names no columns to make it"
                + " from: create it first"), err());
        assertEquals(1, run("import", "--db", dir.resolve("nodb").toString(), "--table", "t", tbl.toString()));
        assertFalse(Files.exists(dir.resolve("nodb")), "no database made for a file that makes no table");
    }

    @Test
    void aFailedImportDropsTheTableItMade() throws Exception {
        StringBuilder rows = new StringBuilder("n,s\n");
        for (int i = 0; i < 30_000; i++) {
            rows.append(i).append(",x\n");
        }
        rows.append("oops,y\n"); // beyond the sniffer's sample: the guessed BIGINT does not hold it
        Path csv = dir.resolve("bad.csv");
        Files.writeString(csv, rows);
        String db = dir.resolve("db").toString();
        assertEquals(0, run("create", "--db", db, "--table", "other", "--columns", "a INTEGER"), err());
        assertEquals(1, run("import", "--db", db, "--table", "t", csv.toString()));
        assertTrue(err().contains(csv + ":30002: column 1 (n): invalid BIGINT 'oops'"), err());
        assertEquals(0, run("tables", "--db", db), err());
        assertTrue(out().lines().anyMatch(l -> l.startsWith("other ")), out());
        assertFalse(out().lines().anyMatch(l -> l.startsWith("t ")), out());
    }
}

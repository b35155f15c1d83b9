package io.tessera.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code export --format parquet} and {@code import} of Parquet files through {@link Main#run}. */
class ParquetCommandsTest extends CapturedMainTest {

    @TempDir
    Path dir;

    @Test
    void exportAsParquetAndImportItBack() throws Exception {
        String db = dir.resolve("db").toString();
        String columns = "o_id INTEGER NOT NULL, o_name VARCHAR, o_price DECIMAL(15,2), o_date DATE";
        assertEquals(0, run("create", "--db", db, "--table", "orders", "--columns", columns), err());
        Path tbl = dir.resolve("orders.tbl");
        Files.writeString(tbl, "1|alpha|10.50|1996-01-02|\n2||0.99|1992-12-31|\n3|gamma||1998-08-02|\n");
        assertEquals(0, run("import", "--db", db, "--table", "orders", tbl.toString()), err());

        Path parquet = dir.resolve("orders.parquet");
        assertEquals(0, run("export", "--db", db, "--table", "orders", parquet.toString()), err());
        assertTrue(out().contains("exported 3 rows of orders to " + parquet), out());
        Path named = dir.resolve("orders.data");
        assertEquals(0, run("export", "--db", db, "--table", "orders", "--format", "parquet", named.toString()), err());
        assertEquals("PAR1", new String(Files.readAllBytes(named), 0, 4, StandardCharsets.US_ASCII));

        assertEquals(0, run("create", "--db", db, "--table", "copy", "--columns", columns), err());
        assertEquals(0, run("import", "--db", db, "--table", "copy", parquet.toString()), err());
        assertTrue(out().contains("imported 3 rows into copy from 1 file"), out());
        assertEquals(0, run("import", "--db", db, "--table", "copy", "--format", "parquet", named.toString()), err());
        assertEquals(0, run("sql", "--db", db, "--format", "csv", "-c",
                "SELECT o_id, o_name, o_price, o_date FROM copy ORDER BY o_id"), err() + out());
        assertEquals(String.join("\n", "o_id,o_name,o_price,o_date", "1,alpha,10.50,1996-01-02",
                "1,alpha,10.50,1996-01-02", "2,,0.99,1992-12-31", "2,,0.99,1992-12-31", "3,gamma,,1998-08-02",
                "3,gamma,,1998-08-02", ""), out().replace("\r\n", "\n"));

        assertNotEquals(0, run("import", "--db", db, "--table", "copy", "--header", parquet.toString()));
        assertTrue(err().contains("--header and --delimiter are for text files, not Parquet"), err());
        assertNotEquals(0, run("import", "--db", db, "--table", "copy", parquet.toString(), tbl.toString()));
        assertTrue(err().contains("some files end in .parquet and some do not"), err());
        assertNotEquals(0, run("import", "--db", db, "--table", "copy", "--format", "parquet", tbl.toString()));
        assertTrue(err().contains(tbl + ": not a Parquet file"), err());
    }
}

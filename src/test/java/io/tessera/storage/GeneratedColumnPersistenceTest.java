package io.tessera.storage;

import io.tessera.Tessera;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A table's generated columns are kept in the manifest with its schema: after the database is closed and opened
 * again their expressions (a renamed column renamed in them) and types are as before, the stored values read back,
 * and the next INSERT and UPDATE compute them; a manifest without them opens with columns that are not generated.
 */
class GeneratedColumnPersistenceTest {

    @Test
    void generatedColumnsSurviveCloseAndReopen(@TempDir Path dir) throws Exception {
        try (Tessera t = Tessera.openOrCreate(dir)) {
            t.query("create table items (price integer, qty integer, total as (price * qty),"
                    + " label varchar generated always as ('n=' || total::varchar) virtual)");
            t.query("insert into items values (3, 4)");
            t.query("alter table items rename column qty to amount");
        }
        try (Database db = Database.open(dir)) {
            List<ColumnSchema> columns = db.table("items").schema().columns();
            assertEquals(new ColumnSchema("total", DataType.INTEGER, true, null, "price * amount"), columns.get(2));
            assertEquals(new ColumnSchema("label", DataType.VARCHAR, true, null, "'n=' || total::varchar"),
                    columns.get(3));
            assertFalse(columns.get(0).isGenerated());
        }
        try (Tessera t = Tessera.open(dir)) {
            assertEquals("[[3, 4, 12, n=12]]", PersistedTables.rows(t.query("select * from items")));
            t.query("insert into items values (5, 6)");
            t.query("update items set price = 10 where price = 3");
            assertEquals("[[5, 6, 30, n=30], [10, 4, 40, n=40]]",
                    PersistedTables.rows(t.query("select * from items order by price")));
            Exception e = assertThrows(Exception.class, () -> t.query("insert into items (price, total) values (1, 2)"));
            assertTrue(e.getMessage().contains("Cannot insert into a generated column"), e.getMessage());
        }
    }

    @Test
    void aManifestWithoutGeneratedColumnsOpensWithColumnsThatAreNot(@TempDir Path dir) throws Exception {
        try (Tessera t = Tessera.openOrCreate(dir)) {
            t.query("create table plain (a integer, b varchar default 'z')");
            t.query("insert into plain (a) values (1)");
        }
        PersistedTables.assertManifestLacks(dir, "generated");
        try (Database db = Database.open(dir)) {
            assertTrue(db.table("plain").schema().columns().stream().noneMatch(ColumnSchema::isGenerated));
        }
        try (Tessera t = Tessera.open(dir)) {
            t.query("insert into plain values (2, 'y')");
            assertEquals("[[1, z], [2, y]]", PersistedTables.rows(t.query("select * from plain order by a")));
        }
    }
}

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
 * A table's PRIMARY KEY and UNIQUE constraints are kept in the manifest: after the database is closed and opened
 * again they are listed as before and still enforced, and a manifest without keys (written before tables had them)
 * opens with tables that have none.
 */
class TableKeysPersistenceTest {

    @Test
    void keysSurviveCloseAndReopen(@TempDir Path dir) throws Exception {
        try (Tessera t = Tessera.openOrCreate(dir)) {
            t.query("create table p (id integer primary key, code varchar unique, n integer)");
            t.query("create table pair (a integer, b integer, primary key (a, b))");
            t.query("insert into p values (1, 'x', 10)");
        }
        try (Database db = Database.open(dir)) {
            assertEquals(List.of(new TableKey(List.of("id"), true), new TableKey(List.of("code"), false)),
                    db.table("p").schema().keys());
            assertEquals(List.of(new TableKey(List.of("a", "b"), true)), db.table("pair").schema().keys());
            assertFalse(db.table("pair").schema().column("a").nullable());
        }
        try (Tessera t = Tessera.open(dir)) {
            assertEquals("[id PRI, code UNI, n null]", t.query("describe p").rows().stream()
                    .map(r -> r[0] + " " + r[3]).toList().toString());
            Exception e = assertThrows(Exception.class, () -> t.query("insert into p values (1, 'y', 11)"));
            assertTrue(e.getMessage().contains("Duplicate key \"id: 1\""), e.getMessage());
            e = assertThrows(Exception.class, () -> t.query("insert into p values (2, 'x', 11)"));
            assertTrue(e.getMessage().contains("Duplicate key \"code: x\""), e.getMessage());
            t.query("insert into p values (2, 'y', 11) on conflict do nothing");
            assertEquals("[[1, x, 10], [2, y, 11]]", PersistedTables.rows(t.query("select * from p order by id")));
        }
    }

    @Test
    void aManifestWithoutKeysOpensWithTablesThatHaveNone(@TempDir Path dir) throws Exception {
        try (Tessera t = Tessera.openOrCreate(dir)) {
            t.query("create table plain (a integer, b varchar)");
            t.query("insert into plain values (1, 'x')");
        }
        PersistedTables.assertManifestLacks(dir, "keys");
        try (Tessera t = Tessera.open(dir)) {
            t.query("insert into plain values (1, 'x')");
            assertEquals("[[2]]", PersistedTables.rows(t.query("select count(*) from plain")));
        }
    }
}

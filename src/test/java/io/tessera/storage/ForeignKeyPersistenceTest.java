package io.tessera.storage;

import io.tessera.Tessera;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A table's FOREIGN KEY constraints are kept in the manifest with its schema: after the database is closed and opened
 * again they are listed as before (the parent's key filled in where none was named, a renamed child keeping them) and
 * still enforced, on the child's INSERT and UPDATE and on the parent's DELETE, key UPDATE and DROP; a manifest without
 * them (written before tables had them) opens with tables that have none.
 */
class ForeignKeyPersistenceTest {

    @Test
    void foreignKeysSurviveCloseAndReopen(@TempDir Path dir) throws Exception {
        try (Tessera t = Tessera.openOrCreate(dir)) {
            t.query("create table parent (id integer primary key, code varchar unique)");
            t.query("create table child (id integer, pid integer references parent, pcode varchar,"
                    + " foreign key (pcode) references parent (code))");
            t.query("insert into parent values (1, 'a'), (2, 'b')");
            t.query("insert into child values (10, 1, 'b')");
            t.query("alter table child rename to kid");
        }
        try (Database db = Database.open(dir)) {
            assertEquals(List.of(new ForeignKey(List.of("pid"), "parent", List.of("id")),
                    new ForeignKey(List.of("pcode"), "parent", List.of("code"))),
                    db.table("kid").schema().foreignKeys());
            assertEquals(List.of(), db.table("parent").schema().foreignKeys());
        }
        try (Tessera t = Tessera.open(dir)) {
            PersistedTables.assertFails(t, "insert into kid values (11, 3, NULL)", "key \"id: 3\" does not exist");
            PersistedTables.assertFails(t, "insert into kid values (11, NULL, 'z')", "key \"code: z\" does not exist");
            PersistedTables.assertFails(t, "update kid set pid = 5", "key \"id: 5\" does not exist");
            PersistedTables.assertFails(t, "delete from parent where id = 1", "key \"pid: 1\" is still referenced");
            PersistedTables.assertFails(t, "update parent set code = 'c' where id = 2", "key \"pcode: b\" is still referenced");
            PersistedTables.assertFails(t, "drop table parent", "main key table of the table \"kid\"");
            t.query("insert into kid values (11, 2, NULL)");
            t.query("delete from kid where id = 10");
            t.query("delete from parent where id = 1");
            assertEquals("[[11, 2, null]]", PersistedTables.rows(t.query("select * from kid")));
            assertEquals("[[2, b]]", PersistedTables.rows(t.query("select * from parent")));
        }
    }

    @Test
    void aManifestWithoutForeignKeysOpensWithTablesThatHaveNone(@TempDir Path dir) throws Exception {
        try (Tessera t = Tessera.openOrCreate(dir)) {
            t.query("create table plain (a integer primary key, b integer)");
            t.query("insert into plain values (1, 7)");
        }
        PersistedTables.assertManifestLacks(dir, "foreign_keys");
        try (Tessera t = Tessera.open(dir)) {
            t.query("insert into plain values (2, 9)");
            t.query("delete from plain where a = 1");
            assertEquals("[[2, 9]]", PersistedTables.rows(t.query("select * from plain")));
        }
    }
}

package io.tessera.storage;

import io.tessera.Tessera;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A table's indexes (CREATE INDEX) are kept in the manifest: after the database is closed and opened again they are
 * listed as before, a UNIQUE one still enforced, their names still taken; they follow the table through writes that
 * rewrite it (UPDATE, ADD COLUMN) and go with it (DROP TABLE); a manifest without indexes (written before tables had
 * them) opens with tables that have none.
 */
class IndexPersistenceTest {

    @Test
    void indexesSurviveCloseAndReopen(@TempDir Path dir) throws Exception {
        try (Tessera t = Tessera.openOrCreate(dir)) {
            t.query("create table p (id integer, code varchar, n integer)");
            t.query("insert into p values (1, 'x', 10), (2, 'y', 10)");
            t.query("create unique index p_code on p (code)");
            t.query("create index p_n on p using art (n, id)");
            t.query("update p set n = 11 where id = 2");
            t.query("alter table p add column extra integer");
        }
        try (Database db = Database.open(dir)) {
            assertEquals(List.of(new TableIndex("p_code", List.of("code"), true, null),
                    new TableIndex("p_n", List.of("n", "id"), false, "art")), db.table("p").schema().indexes());
            assertEquals(List.of(), db.table("p").schema().keys());
            assertEquals(List.of(new TableKey(List.of("code"), false)), db.table("p").schema().enforcedKeys());
        }
        try (Tessera t = Tessera.open(dir)) {
            assertEquals("[[p_code, true, [code]], [p_n, false, [n, id]]]", PersistedTables.rows(t.query(
                    "select index_name, is_unique, expressions from duckdb_indexes() order by index_name")));
            PersistedTables.assertFails(t, "insert into p values (3, 'x', 12, null)", "Duplicate key \"code: x\"");
            PersistedTables.assertFails(t, "create index P_N on p (id)", "Index with name \"P_N\" already exists!");
            t.query("insert into p values (3, 'z', 12, null)");
            t.query("drop index p_n");
        }
        try (Tessera t = Tessera.open(dir)) {
            assertEquals("[[p_code]]", PersistedTables.rows(t.query("select index_name from duckdb_indexes()")));
            t.query("drop table p");
            t.query("create table p (id integer, code varchar)");
            t.query("insert into p values (1, 'x'), (2, 'x')"); // the old table's unique index went with it
            assertEquals("[[0]]", PersistedTables.rows(t.query("select count(*) from duckdb_indexes()")));
        }
    }

    @Test
    void aManifestWithoutIndexesOpensWithTablesThatHaveNone(@TempDir Path dir) throws Exception {
        try (Tessera t = Tessera.openOrCreate(dir)) {
            t.query("create table plain (a integer unique, b varchar)");
            t.query("insert into plain values (1, 'x')");
        }
        PersistedTables.assertManifestLacks(dir, "indexes");
        try (Tessera t = Tessera.open(dir)) {
            assertEquals("[[0]]", PersistedTables.rows(t.query("select count(*) from duckdb_indexes()")));
            PersistedTables.assertFails(t, "insert into plain values (1, 'y')", "Duplicate key \"a: 1\"");
        }
    }
}

package io.tessera.storage;

import io.tessera.Tessera;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * ALTER TABLE's changes are kept in the manifest: after the database is closed and opened again the table has its
 * new name, columns, types and keys, and its rows; the files of a dropped column and of the old name's folder are
 * deleted once no reader holds them; a write that stops before the manifest is renamed into place leaves the table
 * as it was.
 */
class AlteredTablePersistenceTest {

    @Test
    void anAlteredTableSurvivesCloseAndReopen(@TempDir Path dir) throws Exception {
        try (Tessera t = Tessera.openOrCreate(dir)) {
            t.query("create table t (id integer primary key, name varchar, n integer)");
            t.query("insert into t values (1, 'x', 10), (2, null, 20)");
            t.query("alter table t add column extra varchar default 'e'");
            t.query("alter table t rename column id to key");
            t.query("alter table t drop column name");
            t.query("alter table t alter column n type bigint using n * 2");
            t.query("alter table t alter column extra set not null");
            t.query("alter table t rename to renamed");
        }
        try (Database db = Database.open(dir)) {
            assertFalse(db.hasTable("t"));
            TableSchema schema = db.table("renamed").schema();
            // the added column keeps its DEFAULT through the later ALTERs
            assertEquals("renamed(key INTEGER NOT NULL, n BIGINT, extra VARCHAR NOT NULL DEFAULT 'e', PRIMARY KEY (key))",
                    schema.toString());
        }
        assertFalse(Files.exists(dir.resolve("t")), "the old name's folder is deleted");
        try (Stream<Path> files = Files.list(dir.resolve("renamed"))) {
            assertTrue(files.noneMatch(p -> p.getFileName().toString().startsWith("name.")),
                    "the dropped column's files are deleted");
        }
        try (Tessera t = Tessera.open(dir)) {
            assertEquals("[[1, 20, e], [2, 40, e]]", PersistedTables.rows(t.query("select * from renamed order by key")));
            Exception e = assertThrows(Exception.class, () -> t.query("insert into renamed values (1, 0, 'y')"));
            assertTrue(e.getMessage().contains("Duplicate key \"key: 1\""), e.getMessage());
            t.query("insert into renamed values (3, 0, 'y')");
            assertEquals("[[3]]", PersistedTables.rows(t.query("select count(*) from renamed")));
        }
    }

    @Test
    void aReaderKeepsTheTableAsItWasUntilItCloses(@TempDir Path dir) throws Exception {
        try (Tessera t = Tessera.openOrCreate(dir)) {
            t.query("create table t (a integer, b integer)");
            t.query("insert into t values (1, 2)");
            try (Database reader = Database.open(dir)) {
                t.query("alter table t drop column b");
                assertEquals(2, reader.table("t").schema().columns().size());
                try (Stream<Path> files = Files.list(dir.resolve("t"))) {
                    assertTrue(files.anyMatch(p -> p.getFileName().toString().startsWith("b.")),
                            "the dropped column's files stay while a reader holds them");
                }
            }
            t.query("alter table t rename column a to c");
            try (Stream<Path> files = Files.list(dir.resolve("t"))) {
                assertTrue(files.noneMatch(p -> p.getFileName().toString().startsWith("b.")),
                        "the next write deletes them");
            }
            assertEquals("[[1]]", PersistedTables.rows(t.query("select c from t")));
        }
    }

    @Test
    void aRenameThatStopsBeforeTheManifestLeavesTheTableWhole(@TempDir Path dir) throws Exception {
        try (Tessera t = Tessera.openOrCreate(dir)) {
            t.query("create table t (a integer, s varchar)");
            t.query("insert into t values (1, 'one'), (2, null)");
        }
        try (Database db = Database.open(dir)) {
            Database.beforeManifestRename = () -> {
                throw new IllegalStateException("stopped");
            };
            try {
                assertThrows(IllegalStateException.class, () -> db.renameTable("t", "u"));
                TableSchema dropped = new TableSchema("t", List.of(db.table("t").schema().columns().get(0)));
                assertThrows(IllegalStateException.class, () -> db.alterColumns("t", dropped, new int[] {0}));
            } finally {
                Database.beforeManifestRename = () -> { };
            }
        }
        try (Tessera t = Tessera.open(dir)) {
            assertEquals("[[1, one], [2, null]]", PersistedTables.rows(t.query("select * from t order by a")));
            t.query("alter table t rename to u");
            assertEquals("[[1, one], [2, null]]", PersistedTables.rows(t.query("select * from u order by a")));
        }
    }
}

package io.tessera.storage;

import io.tessera.Tessera;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A table's CHECK constraints are kept in the manifest with its schema: after the database is closed and opened again
 * they are listed as before (a name given kept, a renamed column renamed in them) and still enforced on INSERT and
 * UPDATE; a manifest without them (written before tables had them) opens with tables that have none.
 */
class CheckConstraintPersistenceTest {

    @Test
    void checksSurviveCloseAndReopen(@TempDir Path dir) throws Exception {
        try (Tessera t = Tessera.openOrCreate(dir)) {
            t.query("create table items (id integer check (id > 0), qty integer, constraint qty_ok check (qty >= 0),"
                    + " check (qty < id * 10))");
            t.query("insert into items values (1, 5)");
            t.query("alter table items rename column qty to amount");
        }
        try (Database db = Database.open(dir)) {
            assertEquals(List.of(
                    new CheckConstraint(null, "id > 0", List.of("id")),
                    new CheckConstraint("qty_ok", "amount >= 0", List.of("amount")),
                    new CheckConstraint(null, "amount < id * 10", List.of("id", "amount"))),
                    db.table("items").schema().checks());
        }
        try (Tessera t = Tessera.open(dir)) {
            assertFailsCheck(t, "insert into items values (0, 1)", "CHECK((id > 0))");
            assertFailsCheck(t, "insert into items values (2, -1)", "CHECK((amount >= 0)) (constraint qty_ok)");
            assertFailsCheck(t, "update items set amount = 10", "CHECK((amount < id * 10))");
            t.query("insert into items values (2, 19)");
            t.query("update items set amount = amount + 1 where id = 1");
            assertEquals("[[1, 6], [2, 19]]", PersistedTables.rows(t.query("select * from items order by id")));
        }
    }

    @Test
    void aManifestWithoutChecksOpensWithTablesThatHaveNone(@TempDir Path dir) throws Exception {
        try (Tessera t = Tessera.openOrCreate(dir)) {
            t.query("create table plain (a integer, b varchar)");
            t.query("insert into plain values (-1, 'x')");
        }
        PersistedTables.assertManifestLacks(dir, "checks");
        try (Tessera t = Tessera.open(dir)) {
            t.query("insert into plain values (-2, 'y')");
            assertEquals("[[2]]", PersistedTables.rows(t.query("select count(*) from plain")));
        }
    }

    private static void assertFailsCheck(Tessera t, String sql, String clause) {
        PersistedTables.assertFails(t, sql, "CHECK constraint failed on table items with expression " + clause);
    }
}

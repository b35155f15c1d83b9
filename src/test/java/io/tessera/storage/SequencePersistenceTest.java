package io.tessera.storage;

import io.tessera.Tessera;
import io.tessera.api.QueryResult;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A sequence is kept in the manifest with its state, and a column's DEFAULT with the table's schema: after the database is closed and opened again it hands out the
 * values after those it gave (a read-only SELECT's too), currval gives the last one, and a TEMP sequence is gone. A
 * manifest written before sequences were kept opens with none; two connections never hand out one value twice.
 */
class SequencePersistenceTest {

    @Test
    void aSequenceAndItsValueSurviveCloseAndReopen(@TempDir Path dir) throws Exception {
        try (Tessera t = Tessera.openOrCreate(dir)) {
            t.query("create sequence ids start 10 increment by 5 maxvalue 100 cycle");
            t.query("create temp sequence scratch");
            t.query("create table items (id bigint default nextval('ids'), name varchar default 'none')");
            assertEquals("[[10], [15], [20]]", rows(t.query("select nextval('ids') from range(3)")));
            t.query("select nextval('scratch')");
        }
        try (Database db = Database.open(dir)) {
            Sequence s = db.sequence("IDS");
            assertEquals(new Sequence("ids", 5, 1, 100, 10, true, 25, 20, true), s);
            assertEquals(List.of(s), db.sequences());
        }
        try (Tessera t = Tessera.open(dir)) {
            assertEquals("[[20, 25]]", rows(t.query("select currval('ids'), nextval('ids')")));
            // the table's defaults were kept with it
            t.query("insert into items (name) values ('a'), ('b')");
            t.query("insert into items (id) values (1)");
            assertEquals("[[1, none], [30, a], [35, b]]", rows(t.query("select * from items order by id")));
            Exception e = assertThrows(Exception.class, () -> t.query("select nextval('scratch')"));
            assertTrue(e.getMessage().contains("Sequence with name scratch does not exist!"), e.getMessage());
            t.query("drop table items");
            t.query("drop sequence ids");
        }
        try (Database db = Database.open(dir)) {
            assertEquals(List.of(), db.sequences());
        }
    }

    @Test
    void aManifestWithoutSequencesOpensWithNone(@TempDir Path dir) throws Exception {
        try (Tessera t = Tessera.openOrCreate(dir)) {
            t.query("create table plain (a integer)");
        }
        String manifest = Files.readString(dir.resolve(Manifest.FILE_NAME));
        assertFalse(manifest.contains("\"sequences\""), manifest);
        try (Tessera t = Tessera.open(dir)) {
            Exception e = assertThrows(Exception.class, () -> t.query("select nextval('s')"));
            assertTrue(e.getMessage().contains("Sequence with name s does not exist!"), e.getMessage());
        }
    }

    @Test
    void twoConnectionsNeverShareAValue(@TempDir Path dir) throws Exception {
        try (Tessera a = Tessera.openOrCreate(dir); Tessera b = Tessera.open(dir)) {
            a.query("create sequence s");
            assertEquals("[[1], [2]]", rows(a.query("select nextval('s') from range(2)")));
            // b's snapshot was read before a's values were kept: the writer lock reads the state committed since
            assertEquals("[[3], [4]]", rows(b.query("select nextval('s') from range(2)")));
            assertEquals("[[5]]", rows(a.query("select nextval('s')")));
            // many rows on all workers: each value once
            b.query("create table got as select nextval('s') as v from range(100000)");
            assertEquals("[[100000, 100000, 6, 100005]]", rows(b.query(
                    "select count(*), count(distinct v), min(v), max(v) from got")));
        }
    }

    private static String rows(QueryResult r) {
        return r.rows().stream().map(Arrays::toString).toList().toString();
    }
}

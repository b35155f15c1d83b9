package io.tessera.storage;

import io.tessera.Tessera;
import io.tessera.api.QueryResult;
import io.tessera.api.ResultColumn;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A database made before names kept their case (every table, column and view name folded to lower case when it
 * was created) opens and works unchanged: its names are found in any case and named as stored, it is appended to,
 * and a table dropped and made again with the same name in another case gets files of its own in the same folder.
 */
class LowerCaseNamesDatabaseTest {

    @Test
    void aDatabaseOfLowerCaseNamesOpensAndWorks(@TempDir Path dir) throws Exception {
        TableSchema schema = TableSchema.parse("events", "userid INTEGER NOT NULL, kind VARCHAR");
        try (Database db = Database.openOrCreate(dir); TableWriter w = db.replace(schema)) {
            RowBatch b = new RowBatch(schema, 2);
            b.column(0).appendInt(7);
            b.column(1).appendString("click");
            b.column(0).appendInt(8);
            b.column(1).appendString("view");
            w.write(b);
            w.commit();
        }
        try (Database db = Database.open(dir)) {
            db.createView(new View("clicks", "select userid from events where kind = 'click'", List.of()), false);
        }
        String manifest = Files.readString(dir.resolve(Manifest.FILE_NAME));
        assertTrue(manifest.contains("\"events/userid.g"), manifest);

        try (Tessera t = Tessera.open(dir)) {
            QueryResult r = t.query("select USERID, Kind, UserId + 1 from EVENTS order by UserID");
            assertEquals(List.of("userid", "kind", "(UserId + 1)"), names(r));
            assertEquals("[7, click, 8]", Arrays.toString(r.rows().get(0)));
            assertEquals(List.of("userid"), names(t.query("select * from CLICKS")));
            t.query("insert into Events (KIND, UserId) values ('buy', 9)");
            assertEquals(3L, ((Number) t.query("select count(*) from events").get(0, 0)).longValue());
            assertEquals("[[clicks], [events]]", rows(t.query("show tables")));
        }

        try (Tessera t = Tessera.open(dir)) {
            t.query("drop view Clicks");
            t.query("drop table Events");
            t.query("create table Events (UserId integer, Kind varchar)");
            t.query("insert into events values (1, 'new')");
            QueryResult r = t.query("select * from EVENTS");
            assertEquals(List.of("UserId", "Kind"), names(r));
            assertEquals("[[1, new]]", rows(r));
        }
        // the new table's files lie in the folder the old one had, under names of their own
        try (Stream<Path> files = Files.list(dir.resolve("events"))) {
            List<String> names = files.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".bin")).sorted()
                    .toList();
            assertEquals(2, names.size(), names.toString());
            assertTrue(names.stream().allMatch(n -> n.startsWith("kind.g") || n.startsWith("userid.g")), names.toString());
        }
        try (Tessera t = Tessera.open(dir)) {
            assertEquals("[[1, new]]", rows(t.query("select userid, KIND from events")));
            assertEquals("[[Events]]", rows(t.query("show tables")));
        }
    }

    private static List<String> names(QueryResult r) {
        return r.columns().stream().map(ResultColumn::name).toList();
    }

    private static String rows(QueryResult r) {
        return r.rows().stream().map(Arrays::toString).toList().toString();
    }
}

package io.tessera.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** create, import, export, tables and describe through {@link Main#run}. */
class ImportCommandsTest extends CapturedMainTest {

    @TempDir
    Path dir;

    @Test
    void createImportExportTablesDescribe() throws Exception {
        String db = dir.resolve("db").toString(); // does not exist yet: create makes it
        assertEquals(0, run("create", "--db", db, "--table", "orders",
                "--columns", "o_id INTEGER NOT NULL, o_name VARCHAR, o_price DECIMAL(15,2), o_date DATE"), err());
        assertTrue(out().contains("created table orders"), out());

        Path tbl = dir.resolve("orders.tbl");
        Files.writeString(tbl, "1|alpha|10.50|1996-01-02|\n2||0.99|1992-12-31|\n3|gamma||1998-08-02|\n");
        assertEquals(0, run("import", "--db", db, "--table", "orders", tbl.toString()), err());
        assertTrue(out().contains("imported 3 rows into orders"), out());

        Path csv = dir.resolve("more.txt");
        Files.writeString(csv, "o_id;o_name;o_price;o_date\n4;\"semi;colon\";1.00;2000-01-01\n");
        assertEquals(0, run("import", "--db", db, "--table", "orders", "--format", "csv", "--delimiter", ";",
                "--header", csv.toString()), err());
        assertTrue(out().contains("imported 1 row into"), out());

        assertEquals(0, run("tables", "--db", db), err());
        String tables = out();
        assertTrue(tables.lines().anyMatch(l -> l.matches("orders\\s+4\\s+4\\s+\\d+ B")), tables);

        assertEquals(0, run("describe", "--db", db, "orders"), err());
        String d = out();
        assertTrue(d.startsWith("orders: 4 rows"), d);
        // the last number: histogram buckets, one per value here; no value is frequent
        assertTrue(d.lines().anyMatch(l -> l.matches("o_id\\s+INTEGER\\s+NOT NULL\\s+0\\s+4\\s+1\\s+4\\s+4")), d);
        assertTrue(d.lines().anyMatch(l -> l.matches(
                "o_name\\s+VARCHAR\\s+NULL\\s+1\\s+3\\s+alpha\\s+semi;colon\\s+3")), d);
        assertTrue(d.lines().anyMatch(l -> l.matches(
                "o_price\\s+DECIMAL\\(15,2\\)\\s+NULL\\s+1\\s+3\\s+0\\.99\\s+10\\.50\\s+3")), d);
        assertTrue(d.lines().anyMatch(l -> l.matches(
                "o_date\\s+DATE\\s+NULL\\s+0\\s+4\\s+1992-12-31\\s+2000-01-01\\s+4")), d);

        Path outCsv = dir.resolve("orders.csv");
        assertEquals(0, run("export", "--db", db, "--table", "orders", "--format", "csv", outCsv.toString()), err());
        assertEquals("o_id,o_name,o_price,o_date\n1,alpha,10.50,1996-01-02\n2,,0.99,1992-12-31\n"
                + "3,gamma,,1998-08-02\n4,semi;colon,1.00,2000-01-01\n", Files.readString(outCsv));

        Path outTbl = dir.resolve("orders_out.tbl");
        assertEquals(0, run("export", "--db", db, "--table", "orders", outTbl.toString()), err());
        assertEquals("1|alpha|10.50|1996-01-02|\n2||0.99|1992-12-31|\n3|gamma||1998-08-02|\n"
                + "4|semi;colon|1.00|2000-01-01|\n", Files.readString(outTbl));
    }

    @Test
    void aFilesColumnNamesKeepTheirCase() throws Exception {
        String db = dir.resolve("db").toString();
        Path csv = dir.resolve("events.csv");
        Files.writeString(csv, "UserId,EventKind\n7,click\n8,buy\n");
        assertEquals(0, run("import", "--db", db, "--table", "UserEvents", csv.toString()), err());
        assertEquals(0, run("describe", "--db", db, "userevents"), err());
        assertTrue(out().startsWith("UserEvents: 2 rows"), out());
        assertTrue(out().lines().anyMatch(l -> l.startsWith("UserId ")) && out().lines()
                .anyMatch(l -> l.startsWith("EventKind ")), out());
        // a header in another case fills the columns of its names
        Path more = dir.resolve("more.csv");
        Files.writeString(more, "eventkind,USERID\nview,9\n");
        assertEquals(0, run("import", "--db", db, "--table", "USEREVENTS", "--header", more.toString()), err());
        Path out = dir.resolve("out.csv");
        assertEquals(0, run("export", "--db", db, "--table", "userEvents", "--format", "csv", out.toString()), err());
        assertEquals("UserId,EventKind\n7,click\n8,buy\n9,view\n", Files.readString(out));
    }

    @Test
    void importErrorExitsWithOneAndNamesFileLineAndColumn() throws Exception {
        String db = dir.resolve("db").toString();
        assertEquals(0, run("create", "--db", db, "--table", "t", "--columns", "a INTEGER NOT NULL, d DATE"));
        Path good = dir.resolve("good.tbl");
        Files.writeString(good, "1|1996-01-01|\n");
        Path bad = dir.resolve("bad.tbl");
        Files.writeString(bad, "2|1996-01-01|\n3|1996-13-01|\n");
        assertEquals(1, run("import", "--db", db, "--table", "t", good.toString(), bad.toString()));
        assertTrue(err().contains(bad + ":2: column 2 (d): invalid date '1996-13-01'"), err());
        assertEquals(0, run("tables", "--db", db));
        assertTrue(out().lines().anyMatch(l -> l.matches("t\\s+2\\s+0\\s+0 B")), out());
    }

    @Test
    void importIntoATableWithGeneratedColumnsPointsToCopy() throws Exception {
        String db = dir.resolve("db").toString();
        assertEquals(0, run("sql", "--db", db, "--create", "-c", "CREATE TABLE t (a INTEGER, b AS (a * 2))"), err());
        Path csv = dir.resolve("t.csv");
        Files.writeString(csv, "a\n1\n2\n");
        assertEquals(1, run("import", "--db", db, "--table", "t", csv.toString()));
        assertTrue(err().contains("table t has generated columns, which tessera import does not compute: load the"
                + " file with COPY t FROM 'file'"), err());
        assertEquals(0, run("sql", "--db", db, "--format", "csv", "-c", "SELECT count(*) FROM t"), err());
        assertTrue(out().contains("0"), out()); // the refused import wrote nothing
    }

    @Test
    void importIntoATableWithAForeignKeyChecksItsRows() throws Exception {
        Path db = dir.resolve("db");
        try (io.tessera.Tessera t = io.tessera.Tessera.openOrCreate(db)) {
            t.query("create table parent (id integer primary key)");
            t.query("insert into parent values (7)");
            t.query("create table child (id integer, pid integer references parent)");
        }
        Path bad = dir.resolve("bad.csv");
        Files.writeString(bad, "id,pid\n1,7\n2,8\n");
        assertEquals(1, run("import", "--db", db.toString(), "--table", "child", "--header", bad.toString()));
        assertTrue(err().toLowerCase(java.util.Locale.ROOT).contains("foreign key"), err());
        assertEquals(0, run("sql", "--db", db.toString(), "--format", "csv", "-c", "select count(*) as n from child"),
                err());
        assertEquals("n\n0\n", out()); // the refused import wrote nothing
        Path good = dir.resolve("good.csv");
        Files.writeString(good, "id,pid\n1,7\n2,\n");
        assertEquals(0, run("import", "--db", db.toString(), "--table", "child", "--header", good.toString()), err());
        assertEquals(0, run("sql", "--db", db.toString(), "--format", "csv", "-c",
                "select id, pid from child order by id"), err());
        assertEquals("id,pid\n1,7\n2,\n", out());
    }

    @Test
    void usageErrors() {
        String db = dir.resolve("db").toString();
        assertEquals(0, run("create", "--db", db, "--table", "t", "--columns", "a INTEGER"));
        assertEquals(1, run("create", "--db", db, "--table", "t", "--columns", "a INTEGER"));
        assertTrue(err().contains("already exists"), err());
        assertEquals(1, run("import", "--db", db, "--table", "nope", dir.resolve("x.tbl").toString()));
        assertTrue(err().contains("no table nope"), err());
        assertEquals(1, run("describe", "--db", dir.resolve("nodb").toString(), "t"));
        assertTrue(err().contains("no Tessera database"), err());
        assertEquals(1, run("import", "--db", db, "--table", "t", "--format", "xml", "f"));
        assertTrue(err().contains("unknown format 'xml'"), err());
        // an export into a directory that is not there says so
        for (String name : List.of("out.csv", "out.parquet")) {
            Path missing = dir.resolve("no-such-dir").resolve(name);
            assertEquals(1, run("export", "--db", db, "--table", "t", missing.toString()));
            assertTrue(err().contains("cannot write " + missing + ": no such directory " + missing.getParent()),
                    err());
        }
    }

    @Test
    void describeMarksEstimatedDistinctCounts() throws Exception {
        String db = dir.resolve("db").toString();
        assertEquals(0, run("create", "--db", db, "--table", "t", "--columns", "id INTEGER, k INTEGER, s VARCHAR"),
                err());
        Path tbl = dir.resolve("t.tbl");
        Files.writeString(tbl, "1|7|x|\n2|7|y|\n3|8|x|\n");
        assertEquals(0, run("import", "--db", db, "--table", "t", tbl.toString()), err());
        assertEquals(0, run("describe", "--db", db, "t"), err());
        String d = out();
        // id never repeats: its count is exact; k and s repeat, so theirs are the sketch's estimates
        assertTrue(d.lines().anyMatch(l -> l.matches("id\\s+INTEGER\\s+NULL\\s+0\\s+3\\s+1\\s+3\\s+3")), d);
        assertTrue(d.lines().anyMatch(l -> l.matches("k\\s+INTEGER\\s+NULL\\s+0\\s+~2\\s+7\\s+8\\s+2")), d);
        assertTrue(d.lines().anyMatch(l -> l.matches("s\\s+VARCHAR\\s+NULL\\s+0\\s+~2\\s+x\\s+y\\s+2")), d);
        assertTrue(d.contains("~ distinct: an estimate"), d);
    }

    @Test
    void describeShowsHistogramBucketsAndMostCommonValues() throws Exception {
        String db = dir.resolve("db").toString();
        assertEquals(0, run("create", "--db", db, "--table", "t", "--columns", "k INTEGER, s VARCHAR, n INTEGER"),
                err());
        StringBuilder rows = new StringBuilder();
        for (int i = 0; i < 200; i++) {
            // k: 7 on half the rows, 3 on a quarter, else distinct; s: it's on 60%, R on 20%; n: NULL or distinct
            rows.append(i % 2 == 0 ? 7 : i % 4 == 1 ? 3 : 1000 + i).append('|')
                    .append(i % 5 < 3 ? "it's" : i % 5 == 3 ? "R" : "s" + i).append('|')
                    .append(i < 150 ? "" : Integer.toString(i)).append("|\n");
        }
        Path tbl = dir.resolve("t.tbl");
        Files.writeString(tbl, rows);
        assertEquals(0, run("import", "--db", db, "--table", "t", tbl.toString()), err());
        assertEquals(0, run("describe", "--db", db, "t"), err());
        String d = out();
        assertTrue(d.lines().anyMatch(l -> l.matches(
                "k\\s+INTEGER\\s+NULL\\s+0\\s+~\\d+\\s+3\\s+1199\\s+52\\s+7 50%, 3 25%")), d);
        assertTrue(d.lines().anyMatch(l -> l.matches(
                "s\\s+VARCHAR\\s+NULL\\s+0\\s+~\\d+\\s+R\\s+s99\\s+\\d+\\s+'it''s' 60%, 'R' 20%")), d);
        assertTrue(d.lines().anyMatch(l -> l.matches("n\\s+INTEGER\\s+NULL\\s+150\\s+50\\s+150\\s+199\\s+50")), d);
        assertTrue(d.contains("most common: values more than twice as frequent as the average"), d);
    }

    @Test
    void humanSizes() {
        assertEquals("0 B", io.tessera.storage.ByteSizes.text(0));
        assertEquals("1023 B", io.tessera.storage.ByteSizes.text(1023));
        assertEquals("1.5 KiB", io.tessera.storage.ByteSizes.text(1536));
        assertEquals("389.1 MiB", io.tessera.storage.ByteSizes.text(408_000_000));
        assertEquals("2.0 GiB", io.tessera.storage.ByteSizes.text(2L << 30));
    }

    /**
     * Into a table with CHECK constraints the imported rows are checked before the commit: all files pass and are
     * appended, or a row of any file fails one and nothing is written, with COPY's message.
     */
    @Test
    void importChecksTheTablesCheckConstraints() throws Exception {
        String db = dir.resolve("db").toString();
        assertEquals(0, run("sql", db, "--create", "-c",
                "create table t (a integer check (a > 0), b varchar, constraint short check (length(b) < 4))"), err());
        Path good = dir.resolve("good.csv");
        Files.writeString(good, "a,b\n1,x\n2,\n,abc\n");
        assertEquals(0, run("import", "--db", db, "--table", "t", "--header", good.toString()), err());
        assertTrue(out().contains("imported 3 rows into t"), out());

        Path more = dir.resolve("more.tbl");
        Files.writeString(more, "5|y|\n");
        Path negative = dir.resolve("negative.tbl");
        Files.writeString(negative, "6|z|\n-7|w|\n");
        assertEquals(1, run("import", "--db", db, "--table", "t", more.toString(), negative.toString()));
        assertTrue(err().contains("CHECK constraint failed on table t with expression CHECK((a > 0))"), err());
        Path tooLong = dir.resolve("long.tbl");
        Files.writeString(tooLong, "8|long|\n");
        assertEquals(1, run("import", "--db", db, "--table", "t", tooLong.toString()));
        assertTrue(err().contains("CHECK constraint failed on table t with expression CHECK((length(b) < 4))"
                + " (constraint short)"), err());

        Path out = dir.resolve("out.csv");
        assertEquals(0, run("export", "--db", db, "--table", "t", "--format", "csv", out.toString()), err());
        assertEquals("a,b\n1,x\n2,\n,abc\n", Files.readString(out));
        assertEquals(0, run("import", "--db", db, "--table", "t", more.toString()), err());
        assertEquals(0, run("sql", db, "-c", "select count(*), sum(a) from t"), err());
        assertTrue(out().contains("4") && out().contains("8"), out());
    }

    /** A table with a key is refused, writing nothing: the importers write past the key's checks. */
    @Test
    void importIntoATableWithAKeyIsRefused() throws Exception {
        String db = dir.resolve("db").toString();
        assertEquals(0, run("sql", db, "--create", "-c", "create table k (id integer primary key, v varchar)"), err());
        Path dup = dir.resolve("dup.csv");
        Files.writeString(dup, "id,v\n4,a\n4,b\n");
        assertEquals(1, run("import", "--db", db, "--table", "k", "--header", dup.toString()));
        assertTrue(err().contains("table k has a PRIMARY KEY or UNIQUE constraint, which tessera import does not"
                + " check"), err());
        assertEquals(0, run("sql", db, "--format", "csv", "-c", "select count(*) as n from k"), err());
        assertEquals("n\n0\n", out());
    }

    @Test
    void importIntoATableWithAUniqueIndexIsRefused() throws Exception {
        String db = dir.resolve("db").toString();
        assertEquals(0, run("sql", db, "--create", "-c", "create table u (id integer, v varchar)"), err());
        assertEquals(0, run("sql", db, "-c", "create unique index u_id on u (id)"), err());
        Path dup = dir.resolve("dup.csv");
        Files.writeString(dup, "id,v\n4,a\n4,b\n");
        assertEquals(1, run("import", "--db", db, "--table", "u", "--header", dup.toString()));
        assertTrue(err().contains("table u has a UNIQUE index, which tessera import does not check"), err());
    }
}

package io.tessera.data.io;

import io.tessera.storage.Database;
import io.tessera.storage.TableSchema;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

import static io.tessera.data.io.ImportTestSupport.files;
import static io.tessera.data.io.ImportTestSupport.opts;
import static io.tessera.data.io.ImportTestSupport.rows;
import static io.tessera.data.io.ImportTestSupport.write;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * CSV as people write it: a header is compared with the table's columns (matched by name in any order, an error
 * naming both lists otherwise), and a first line that looks like a header, or a line that holds another common
 * delimiter, is named in the error with the option that reads it.
 */
class ImportHeaderTest {

    @TempDir
    Path dir;
    Database db;

    @BeforeEach
    void setUp() {
        db = Database.openOrCreate(dir.resolve("db"));
        db.createTable(TableSchema.parse("people", "id INTEGER, last VARCHAR, first VARCHAR"));
    }

    @AfterEach
    void tearDown() {
        db.close();
    }

    private void load(Path f, TableImporter.Options o) {
        TableImporter.importFiles(db, "people", List.of(f), o);
    }

    /** The import fails with {@code message} and leaves the table empty, with no file behind. */
    private void fails(Path f, TableImporter.Options o, String message) {
        List<String> before = files(db, "people");
        ImportException e = assertThrows(ImportException.class, () -> load(f, o));
        assertEquals(message, e.getMessage());
        assertEquals(0, db.table("people").rowCount());
        assertEquals(before, files(db, "people"));
    }

    private static List<Object> row(Object... v) {
        return Arrays.asList(v);
    }

    @Test
    void aHeaderInAnotherOrderFillsTheColumnsOfItsNames() {
        Path f = write(dir, "p.csv", "id,first,last\n1,Ann,Lee\n2,Bob,Ray\n");
        load(f, opts().withHeader(true));
        assertEquals(List.of(row(1, "Lee", "Ann"), row(2, "Ray", "Bob")), rows(db.table("people")));
    }

    @Test
    void headerNamesIgnoreCaseSpacesAndQuotes() {
        Path f = write(dir, "p.csv", "\"LAST\", Id ,\"fir\"\"st\"\n");
        fails(f, opts().withHeader(true), f + ":1: the header names the columns LAST, Id, fir\"st, table people has"
                + " id, last, first (not columns of the table: fir\"st; not in the header: first)");
        Path g = write(dir, "q.csv", "\"LAST\", Id ,\"first\"\r\nLee,1,Ann\r\n");
        load(g, opts().withHeader(true));
        assertEquals(List.of(row(1, "Lee", "Ann")), rows(db.table("people")));
    }

    @Test
    void aHeaderInTheTablesOrderReadsAsBefore() {
        Path f = write(dir, "p.tbl", "id|last|first|\n1|Lee|Ann|\n");
        load(f, opts().withHeader(true));
        assertEquals(List.of(row(1, "Lee", "Ann")), rows(db.table("people")));
    }

    @Test
    void aHeaderThatDiffersNamesBothLists() {
        Path f = write(dir, "p.csv", "id,first,name\n1,Ann,Lee\n");
        fails(f, opts().withHeader(true), f + ":1: the header names the columns id, first, name, table people has"
                + " id, last, first (not columns of the table: name; not in the header: last)");
        Path g = write(dir, "g.csv", "id,last,first,id\n1,Lee,Ann,1\n");
        fails(g, opts().withHeader(true), g + ":1: the header names the columns id, last, first, id, table people"
                + " has id, last, first (twice in the header: id)");
        Path h = write(dir, "h.csv", "id,last\n1,Lee\n");
        fails(h, opts().withHeader(true), h + ":1: the header names the columns id, last, table people has"
                + " id, last, first (not in the header: first)");
    }

    @Test
    void aHeaderWithAnotherDelimiterSaysWhichOne() {
        Path f = write(dir, "p.csv", "id;first;last\n1;Ann;Lee\n");
        fails(f, opts().withHeader(true), f + ":1: the header names the columns id;first;last, table people has"
                + " id, last, first (not columns of the table: id;first;last; not in the header: id, last, first):"
                + " the header holds ';', use --delimiter ';'");
    }

    @Test
    void eachFileIsMatchedByItsOwnHeader() {
        Path a = write(dir, "a.csv", "id,first,last\n1,Ann,Lee\n");
        Path b = write(dir, "b.csv", "last,id,first\nRay,2,Bob\n");
        TableImporter.importFiles(db, "people", List.of(a, b), opts().withHeader(true));
        assertEquals(List.of(row(1, "Lee", "Ann"), row(2, "Ray", "Bob")), rows(db.table("people")));
    }

    @Test
    void aFirstLineThatLooksLikeAHeaderSuggestsTheOption() {
        Path f = write(dir, "p.csv", "id,last,first\n1,Lee,Ann\n2,Ray,Bob\n");
        fails(f, opts(), f + ":1: column 1 (id): invalid INTEGER 'id' (the first line looks like a header: use"
                + " --header to skip it)");
        fails(f, opts().withSpelling(OptionSpelling.SQL), f + ":1: column 1 (id): invalid INTEGER 'id' (the first"
                + " line looks like a header: use HEADER to skip it)");
    }

    @Test
    void noHeaderAdviceWhereTheNextLinesFailToo() {
        Path f = write(dir, "p.csv", "x,Lee,Ann\ny,Ray,Bob\n");
        fails(f, opts(), f + ":1: column 1 (id): invalid INTEGER 'x'");
        Path g = write(dir, "g.csv", "1,Lee,Ann\nz,Ray,Bob\n");
        fails(g, opts(), g + ":2: column 1 (id): invalid INTEGER 'z'");
    }

    @Test
    void aLineWithAnotherDelimiterSuggestsIt() {
        Path f = write(dir, "p.csv", "1;Lee;Ann\n");
        fails(f, opts(), f + ":1: column 1 (id): invalid INTEGER '1;Lee;Ann' (the line holds no ',' but ';': use"
                + " --delimiter ';')");
        Path t = write(dir, "t.csv", "1\tLee\tAnn\n");
        fails(t, opts(), t + ":1: column 1 (id): invalid INTEGER '1\\x09Lee\\x09Ann' (the line holds no ',' but tab:"
                + " use --delimiter tab)");
        fails(t, opts().withSpelling(OptionSpelling.SQL), t + ":1: column 1 (id): invalid INTEGER '1\\x09Lee\\x09Ann'"
                + " (the line holds no ',' but tab: use DELIMITER '\\t')");
        Path b = write(dir, "b.csv", "id|last|first\n1|Lee|Ann\n");
        fails(b, opts(), b + ":1: column 1 (id): invalid INTEGER 'id|last|first' (the line holds no ',' but '|':"
                + " use --delimiter '|')");
    }
}

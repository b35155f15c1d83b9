package io.tessera.cli.format;

import io.tessera.storage.DataType;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The shell's shortened tables (first and last rows with a count) and expanded records ({@code \x}). */
class ShortenedResultsTest {

    private static Results numbers(int n) {
        Results r = Results.columns("n", DataType.INTEGER, "name", DataType.VARCHAR);
        for (int i = 1; i <= n; i++) {
            r.row(i, "v" + i);
        }
        return r;
    }

    @Test
    void aLongTableShowsItsFirstAndLastRowsAndHowManyThereAre() {
        assertEquals("""
                +---+------+
                | n | name |
                +---+------+
                | 1 | v1   |
                | 2 | v2   |
                | … | …    |
                | 8 | v8   |
                | 9 | v9   |
                +---+------+
                (9 rows, 4 shown)
                """, new TableFormatter(4).format(numbers(9).build()));
    }

    @Test
    void aTableWithinTheLimitIsWhole() {
        assertEquals(new TableFormatter().format(numbers(4).build()), new TableFormatter(4).format(numbers(4).build()));
        assertEquals(new TableFormatter().format(numbers(1).build()), new TableFormatter(4).format(numbers(1).build()));
        assertEquals(new TableFormatter().format(numbers(0).build()), new TableFormatter(4).format(numbers(0).build()));
    }

    @Test
    void anOddLimitShowsOneMoreRowBeforeTheCut() {
        String out = new TableFormatter(3).format(numbers(100).build());
        assertEquals("""
                +-----+------+
                |   n | name |
                +-----+------+
                |   1 | v1   |
                |   2 | v2   |
                |   … | …    |
                | 100 | v100 |
                +-----+------+
                (100 rows, 3 shown)
                """, out);
    }

    @Test
    void expandedDisplayWritesARecordPerRow() {
        assertEquals("""
                -[ RECORD 1 ]-
                n    | 1
                name | v1
                -[ RECORD 2 ]-
                n    | 2
                name | NULL
                (2 rows)
                """, new ExpandedFormatter(0).format(Results.columns("n", DataType.INTEGER, "name", DataType.VARCHAR)
                .row(1, "v1").row(2, null).build()));
    }

    @Test
    void expandedDisplayOfALongResultSaysHowManyRecordsAreLeftOut() {
        assertEquals("""
                -[ RECORD 1 ]-
                n    | 1
                name | v1
                … 7 records not shown …
                -[ RECORD 9 ]-
                n    | 9
                name | v9
                (9 rows)
                """, new ExpandedFormatter(2).format(numbers(9).build()));
    }
}

package io.tessera.cli.format;

import io.tessera.storage.DataType;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.time.LocalDate;

import static org.junit.jupiter.api.Assertions.assertEquals;

class TableFormatterTest {

    private static String table(Results r) {
        return new TableFormatter().format(r.build());
    }

    @Test
    void alignsNumbersRightAndTextLeft() {
        String out = table(Results.columns("id", DataType.INTEGER, "name", DataType.VARCHAR,
                "price", DataType.decimal(10, 2), "day", DataType.DATE)
                .row(1, "apple", new BigDecimal("12.50"), LocalDate.of(1998, 1, 2))
                .row(1000, null, null, null)
                .row(-7, "", new BigDecimal("0.05"), LocalDate.of(2024, 2, 29)));
        assertEquals("""
                +------+-------+-------+------------+
                |   id | name  | price | day        |
                +------+-------+-------+------------+
                |    1 | apple | 12.50 | 1998-01-02 |
                | 1000 | NULL  |  NULL | NULL       |
                |   -7 |       |  0.05 | 2024-02-29 |
                +------+-------+-------+------------+
                (3 rows)
                """, out);
    }

    @Test
    void emptyResultKeepsHeaderAndSaysZeroRows() {
        assertEquals("""
                +---+
                | a |
                +---+
                +---+
                (0 rows)
                """, table(Results.columns("a", DataType.BIGINT)));
    }

    @Test
    void oneRowAndDoublesAsDuckDbPrintsThem() {
        assertEquals("""
                +-------+-------+------+
                |     d |     e | b    |
                +-------+-------+------+
                | 1e+20 | 1e-07 | true |
                +-------+-------+------+
                (1 row)
                """, table(Results.columns("d", DataType.DOUBLE, "e", DataType.DOUBLE, "b", DataType.BOOLEAN)
                .row(1e20, 1e-7, true)));
    }

    @Test
    void wideCharactersAndControlCharactersKeepColumnsAligned() {
        String out = table(Results.columns("s", DataType.VARCHAR, "n", DataType.INTEGER)
                .row("漢字", 1)
                .row("a\nb", 22));
        assertEquals("""
                +------+----+
                | s    |  n |
                +------+----+
                | 漢字 |  1 |
                | a\\nb | 22 |
                +------+----+
                (2 rows)
                """, out);
    }
}

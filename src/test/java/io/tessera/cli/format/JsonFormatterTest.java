package io.tessera.cli.format;

import io.tessera.storage.DataType;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.time.LocalDate;

import static org.junit.jupiter.api.Assertions.assertEquals;

class JsonFormatterTest {

    private static String json(Results r) {
        return new JsonFormatter().format(r.build());
    }

    @Test
    void oneObjectPerRowWithTypedValues() {
        String out = json(Results.columns("id", DataType.INTEGER, "price", DataType.decimal(10, 2),
                "d", DataType.DOUBLE, "day", DataType.DATE, "ok", DataType.BOOLEAN, "name", DataType.VARCHAR)
                .row(1, new BigDecimal("12.50"), 1e20, LocalDate.of(1998, 1, 2), true, "a")
                .row(2, new BigDecimal("7.5"), 1e-7, null, false, null));
        assertEquals("""
                [
                {"id":1,"price":12.50,"d":1e+20,"day":"1998-01-02","ok":true,"name":"a"},
                {"id":2,"price":7.50,"d":1e-07,"day":null,"ok":false,"name":null}
                ]
                """, out);
    }

    @Test
    void stringsAreEscaped() {
        String out = json(Results.columns("s\"k", DataType.VARCHAR)
                .row("quote \" backslash \\ slash / nl \n cr \r tab \t bell \u0007 nul \u0000 ls \u2028 é 漢"));
        assertEquals("[\n{\"s\\\"k\":\"quote \\\" backslash \\\\ slash / nl \\n cr \\r tab \\t bell \\u0007"
                + " nul \\u0000 ls \\u2028 é 漢\"}\n]\n", out);
    }

    @Test
    void emptyResultIsAnEmptyArray() {
        assertEquals("[]\n", json(Results.columns("a", DataType.INTEGER)));
    }

    @Test
    void nonFiniteDoublesBecomeStrings() {
        String out = json(Results.columns("d", DataType.DOUBLE).row(Double.NaN).row(Double.NEGATIVE_INFINITY));
        assertEquals("[\n{\"d\":\"NaN\"},\n{\"d\":\"-Infinity\"}\n]\n", out);
    }
}

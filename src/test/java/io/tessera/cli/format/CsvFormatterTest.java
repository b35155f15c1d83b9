package io.tessera.cli.format;

import io.tessera.storage.DataType;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.time.LocalDate;

import static org.junit.jupiter.api.Assertions.assertEquals;

class CsvFormatterTest {

    private static String csv(Results r) {
        return new CsvFormatter().format(r.build());
    }

    @Test
    void quotesOnlyWhereNeeded() {
        String out = csv(Results.columns("s", DataType.VARCHAR)
                .row("plain")
                .row("a,b")
                .row("say \"hi\"")
                .row("two\nlines")
                .row("cr\rhere")
                .row(" spaced ")
                .row("it's"));
        assertEquals("""
                s
                plain
                "a,b"
                "say ""hi\"""
                "two
                lines"
                "cr\rhere"
                 spaced\s
                it's
                """, out);
    }

    @Test
    void nullIsEmptyFieldAndEmptyStringIsQuoted() {
        String out = csv(Results.columns("a", DataType.VARCHAR, "b", DataType.INTEGER)
                .row(null, null)
                .row("", 1));
        assertEquals("a,b\n,\n\"\",1\n", out);
    }

    @Test
    void doublesAreWrittenAsDuckDbWritesThem() {
        String out = csv(Results.columns("d", DataType.DOUBLE)
                .row(1e20).row(1e-7).row(-1.5e-10).row(2.0).row(0.1).row(123456789.125).row(1.7976931348623157e308)
                .row(1e15).row(1e16).row(0.0001).row(0.00001));
        String[] lines = out.split("\n");
        assertEquals("1e+20", lines[1]);
        assertEquals("1e-07", lines[2]);
        assertEquals("-1.5e-10", lines[3]);
        assertEquals("2.0", lines[4]);
        assertEquals("0.1", lines[5]);
        assertEquals("123456789.125", lines[6]);
        assertEquals("1.7976931348623157e+308", lines[7]);
        assertEquals("1000000000000000.0", lines[8]);
        assertEquals("1e+16", lines[9]);
        assertEquals("0.0001", lines[10]);
        assertEquals("1e-05", lines[11]);
        assertEquals(1.7976931348623157e308, Double.parseDouble(lines[7]));
    }

    @Test
    void decimalKeepsItsScaleAndOtherTypesTheirText() {
        String out = csv(Results.columns("price", DataType.decimal(15, 2), "day", DataType.DATE,
                "ok", DataType.BOOLEAN, "n", DataType.BIGINT)
                .row(new BigDecimal("12.50"), LocalDate.of(1998, 1, 2), true, 9_000_000_000L)
                .row(new BigDecimal("3"), LocalDate.of(2024, 12, 31), false, -1L)
                .row(new BigDecimal("1E+3"), null, null, null));
        assertEquals("""
                price,day,ok,n
                12.50,1998-01-02,true,9000000000
                3.00,2024-12-31,false,-1
                1000.00,,,
                """, out);
    }

    @Test
    void headerNamesAreQuotedLikeFields() {
        assertEquals("\"a,b\",c\n", csv(Results.columns("a,b", DataType.INTEGER, "c", DataType.INTEGER)));
    }
}

package io.tessera.plan;

import org.junit.jupiter.api.Test;

import java.util.Locale;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** An estimate after an operator reads as {@code %,d} writes it in {@code Locale.ROOT}, at every digit count. */
class PipelineRowsTest {

    @Test
    void groupsDigitsAsTheFormatterDoes() {
        long[] values = {0, 1, 9, 10, 999, 1000, 1001, 12_345, 999_999, 1_000_000, 6_001_215, 123_456_789_012L,
                -1, -999, -1000, -1_234_567, Long.MAX_VALUE, Long.MIN_VALUE};
        for (long v : values) {
            assertEquals(String.format(Locale.ROOT, "%,d", v), Pipeline.grouped(v), "value " + v);
        }
        for (long v = 1; v > 0 && v < Long.MAX_VALUE / 7; v = v * 7 + 3) {
            assertEquals(String.format(Locale.ROOT, "%,d", v), Pipeline.grouped(v), "value " + v);
        }
        assertEquals("  ~1 row", Pipeline.rows(1.2));
        assertEquals("  ~1,500,000 rows", Pipeline.rows(1_500_000));
        assertEquals("", Pipeline.rows(Double.NaN));
    }
}

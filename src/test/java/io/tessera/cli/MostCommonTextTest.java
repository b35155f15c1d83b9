package io.tessera.cli;

import io.tessera.storage.DataType;
import io.tessera.storage.Histogram;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The most common values as {@code tessera describe} prints them. */
class MostCommonTextTest {

    static Histogram of(boolean exact, Object... valueAndRows) {
        List<Histogram.MostCommon> mcv = new java.util.ArrayList<>();
        for (int i = 0; i < valueAndRows.length; i += 2) {
            mcv.add(new Histogram.MostCommon(valueAndRows[i], ((Number) valueAndRows[i + 1]).longValue()));
        }
        Object lower = valueAndRows[0] instanceof String ? "" : (Object) Long.MIN_VALUE;
        Object upper = valueAndRows[0] instanceof String ? "\uFFFF" : (Object) Long.MAX_VALUE;
        return new Histogram(lower, List.of(new Histogram.Bucket(upper, 1000, 100)), mcv, exact);
    }

    @Test
    void stringsAreQuotedAndCutNumbersFormattedByType() {
        assertEquals("'R' 25%, 'it''s' 5.0%",
                MostCommonText.of(DataType.VARCHAR, of(true, "R", 250, "it's", 50), 1000));
        assertEquals("'abcdefghijklmnop…' 1.5%",
                MostCommonText.of(DataType.VARCHAR, of(true, "abcdefghijklmnopqrstuvwxyz", 15), 1000));
        assertEquals("'a?b' 10%", MostCommonText.of(DataType.VARCHAR, of(true, "a\nb", 100), 1000));
        assertEquals("12.34 ~50%", MostCommonText.of(DataType.decimal(9, 2), of(false, 1234L, 500), 1000));
        assertEquals("1995-01-01 0.1%", MostCommonText.of(DataType.DATE, of(true, 9131L, 1), 1000));
    }

    @Test
    void afterThreeTheRestAreCounted() {
        assertEquals("1 40%, 2 30%, 3 20%, +2 more",
                MostCommonText.of(DataType.INTEGER, of(true, 1L, 400, 2L, 300, 3L, 200, 4L, 50, 5L, 40), 1000));
        assertEquals("", MostCommonText.of(DataType.INTEGER, Histogram.EMPTY, 1000));
    }
}

package io.tessera.storage;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** INTERVAL's text both ways (DuckDB's spellings, checked in intervals.test) and the order of its codes. */
class IntervalTest {

    @Test
    void codesOrderAsLengthsCompareAndDecodeToTheirParts() {
        Random r = new Random(37);
        List<Interval> values = new ArrayList<>(List.of(new Interval(Integer.MIN_VALUE, Integer.MIN_VALUE,
                Long.MIN_VALUE), new Interval(Integer.MAX_VALUE, Integer.MAX_VALUE, Long.MAX_VALUE),
                new Interval(1, 0, 0), new Interval(0, 30, 0), new Interval(0, 1, 0), new Interval(0, 0,
                Interval.MICROS_PER_DAY), new Interval(1, -29, 0), new Interval(0, 2, 0)));
        for (int i = 0; i < 2_000; i++) {
            values.add(new Interval(r.nextInt(4001) - 2000, r.nextInt(20001) - 10000,
                    r.nextLong() >> r.nextInt(64)));
        }
        for (Interval a : values) {
            String ca = a.encode();
            assertEquals(Interval.CODE_LENGTH, ca.length());
            assertEquals(a, Interval.decode(ca));
            for (int j = 0; j < 20; j++) {
                Interval b = values.get(r.nextInt(values.size()));
                String cb = b.encode();
                assertEquals(Integer.signum(a.length().compareTo(b.length())),
                        Integer.signum(Interval.key(ca).compareTo(Interval.key(cb))), a + " vs " + b);
                assertEquals(a.equals(b), ca.equals(cb));
            }
        }
        assertEquals(Interval.key(new Interval(1, 0, 0).encode()), Interval.key(new Interval(0, 30, 0).encode()));
        assertTrue(new Interval(1, -29, 0).encode().compareTo(new Interval(0, 2, 0).encode()) < 0);
    }

    @Test
    void lengthKeysOfLongsAreEqualExactlyWhereLengthsAre() {
        Random r = new Random(41);
        List<Interval> values = new ArrayList<>(List.of(new Interval(Integer.MIN_VALUE, Integer.MIN_VALUE,
                Long.MIN_VALUE), new Interval(Integer.MAX_VALUE, Integer.MAX_VALUE, Long.MAX_VALUE),
                new Interval(1, 0, 0), new Interval(0, 30, 0), new Interval(0, 0, 30 * Interval.MICROS_PER_DAY),
                new Interval(0, 1, -1), new Interval(0, 0, Interval.MICROS_PER_DAY - 1), new Interval(0, -1, 0),
                new Interval(0, 0, -Interval.MICROS_PER_DAY)));
        for (int i = 0; i < 2_000; i++) {
            // small parts, so that many lengths meet
            values.add(new Interval(r.nextInt(5) - 2, r.nextInt(121) - 60,
                    (r.nextInt(9) - 4) * Interval.MICROS_PER_DAY + r.nextInt(3) - 1));
        }
        for (Interval a : values) {
            long micros = a.lengthMicrosOfDay();
            assertTrue(micros >= 0 && micros < Interval.MICROS_PER_DAY, a.toString());
            for (Interval b : values.subList(0, 200)) {
                boolean sameKey = a.lengthDays() == b.lengthDays() && micros == b.lengthMicrosOfDay();
                assertEquals(a.length().equals(b.length()), sameKey, a + " vs " + b);
            }
        }
        assertEquals(new Interval(0, 0, -Interval.MICROS_PER_DAY).lengthDays(), new Interval(0, -1, 0).lengthDays());
    }

    @Test
    void textIsReadAndWrittenAsDuckDbDoes() {
        String[][] cases = {
                {"1 year 2 months 3 days 04:05:06", "1 year 2 months 3 days 04:05:06"},
                {"-1 day", "-1 day"}, {"1 day -1 hour", "1 day -01:00:00"}, {"0 days", "00:00:00"},
                {"1.5 seconds", "00:00:01.5"}, {"2 weeks", "14 days"}, {"1 day ago", "-1 day"},
                {"1.5 days", "1 day 12:00:00"}, {"100:00:00", "100:00:00"}, {"-04:05:06", "-04:05:06"},
                {"1 decade", "10 years"}, {"1 us", "00:00:00.000001"}, {"1 day 1 day", "2 days"},
                {"  2 MONS  ", "2 months"}, {"1day", "1 day"}, {"-3 days 04:00:00", "-3 days 04:00:00"},
        };
        for (String[] c : cases) {
            assertEquals(c[1], IntervalText.parse(c[0]).toString(), c[0]);
            assertEquals(IntervalText.parse(c[0]), IntervalText.parse(c[1]), c[1]);
        }
        for (String bad : List.of("", "abc", "1 fortnight", "+1 day", "1.5 months", "1:2:3:4", "day", "2147483648 months")) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> IntervalText.parse(bad), bad);
            assertTrue(e.getMessage().startsWith("invalid interval '" + bad + "'"), e.getMessage());
        }
    }
}

package io.tessera.data.io;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** A CSV field read into a REAL column is the float nearest its digits, never a double's rounding rounded again. */
class FieldDecoderRealTest {

    private static float real(String text) {
        byte[] b = text.getBytes(StandardCharsets.US_ASCII);
        return new FieldDecoder().parseReal(b, 0, b.length);
    }

    @Test
    void shortAndLongDigitsGiveTheNearestFloat() {
        SplittableRandom r = new SplittableRandom(7);
        for (int n = 0; n < 20_000; n++) {
            long digits = r.nextLong(1, n % 2 == 0 ? 10_000_000L : 1_000_000_000_000L);
            int scale = r.nextInt(0, 12);
            String text = java.math.BigDecimal.valueOf(n % 3 == 0 ? -digits : digits, scale).toPlainString();
            assertEquals(Float.parseFloat(text), real(text), text);
        }
    }

    @Test
    void textJustAboveAFloatMidpointRoundsUpWhereADoubleWouldRoundTwice() {
        // 1 + 2^-24 is halfway between the floats 1 and 1 + 2^-23; the digits lie a little above it, so the nearest
        // float is 1 + 2^-23, while the nearest double is the midpoint itself, which rounds to even: 1
        String text = "1.000000059604644775390625001";
        assertEquals(1.0f, (float) Double.parseDouble(text));
        assertEquals(Math.nextUp(1.0f), real(text));
    }

    @Test
    void specialWordsAndBadText() {
        assertEquals(Float.POSITIVE_INFINITY, real("1e40"));
        assertEquals(Float.NEGATIVE_INFINITY, real("-inf"));
        assertEquals(Float.NaN, real("nan"));
        assertEquals(-0.0f, real("-0"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> real("1.5x"));
        assertEquals("invalid FLOAT '1.5x'", e.getMessage());
    }
}

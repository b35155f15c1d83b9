package io.tessera.backend.cuda.ops;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** Which radix passes the GPU's sort runs: every varying digit of every word, the last word first, no other. */
class RadixPassesTest {

    @Test
    void aWordOfRandomBitsTakesEveryPass() {
        RadixPasses p = RadixPasses.plan(new long[] {0}, new long[] {-1});
        assertEquals(List.of(new RadixPasses.Word(0, List.of(0, 8, 16, 24, 32, 40, 48, 56))), p.words());
        assertEquals(8, p.passes());
        assertEquals(1, p.varyingWords());
    }

    @Test
    void constantDigitsAndWordsAreSkipped() {
        // word 0: a NULL flag that is 0 everywhere; word 1: values below 2^20 (the sign bit flipped by the
        // encoding, constant); word 2: one bit in the fourth digit varies
        long sign = Long.MIN_VALUE;
        long[] and = {0, sign, 0x0500_0000L};
        long[] or = {0, sign | 0xF_FFFFL, 0x0700_0000L};
        RadixPasses p = RadixPasses.plan(and, or);
        assertEquals(List.of(new RadixPasses.Word(2, List.of(24)), new RadixPasses.Word(1, List.of(0, 8, 16))),
                p.words());
        assertEquals(4, p.passes());
        assertEquals(2, p.varyingWords());
        assertEquals("4 passes over 2 of 3 key words (20 constant digits skipped)", p.describe(3));
    }

    @Test
    void onlyBitsThatDifferCount() {
        // every bit set in all rows (AND = OR = -1): nothing varies, whatever the value
        assertEquals(0, RadixPasses.plan(new long[] {-1, 42}, new long[] {-1, 42}).passes());
        // the top bit alone varies: one pass, at the last digit
        RadixPasses top = RadixPasses.plan(new long[] {0}, new long[] {Long.MIN_VALUE});
        assertEquals(List.of(56), top.words().get(0).shifts());
        assertThrows(IllegalArgumentException.class, () -> RadixPasses.plan(new long[1], new long[2]));
    }
}

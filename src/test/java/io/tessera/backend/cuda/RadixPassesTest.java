package io.tessera.backend.cuda;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Random;

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

    @Test
    void digitCountsGiveThePassesTheAndAndOrGive() {
        // keys with random digits, constant digits, whole constant words, and all rows equal, in 1 to 3 words
        Random r = new Random(7);
        for (int round = 0; round < 200; round++) {
            int keyWords = 1 + r.nextInt(3);
            int rows = round % 50 == 0 ? 1 : 1 + r.nextInt(300);
            long[][] keys = new long[keyWords][rows];
            for (int w = 0; w < keyWords; w++) {
                long constantMask = r.nextInt(4) == 0 ? -1L : r.nextLong() & r.nextLong();
                long fixed = r.nextLong();
                for (int i = 0; i < rows; i++) {
                    keys[w][i] = round % 10 == 0 ? fixed : (fixed & constantMask) | (r.nextLong() & ~constantMask);
                }
            }
            long[] and = new long[keyWords];
            long[] or = new long[keyWords];
            int[] counts = new int[keyWords * RadixPasses.PASSES_PER_WORD * 256];
            for (int w = 0; w < keyWords; w++) {
                and[w] = -1L;
                for (long k : keys[w]) {
                    and[w] &= k;
                    or[w] |= k;
                    for (int p = 0; p < RadixPasses.PASSES_PER_WORD; p++) {
                        counts[(w * RadixPasses.PASSES_PER_WORD + p) * 256 + (int) ((k >>> (8 * p)) & 255)]++;
                    }
                }
            }
            RadixPasses expected = RadixPasses.plan(and, or);
            assertEquals(expected, RadixPasses.fromDigitCounts(rows, keyWords, counts), "round " + round);
            if (round % 10 == 0) {
                assertEquals(0, expected.passes(), "all rows equal");
            }
        }
        assertThrows(IllegalArgumentException.class, () -> RadixPasses.fromDigitCounts(1, 2, new int[256 * 8]));
    }

    @Test
    void countsAreUnsignedSoAPlaceOfMoreThanTwoToThe31RowsIsStillConstant() {
        long rows = (1L << 32) - 2;
        int[] counts = new int[RadixPasses.PASSES_PER_WORD * 256];
        for (int p = 0; p < RadixPasses.PASSES_PER_WORD; p++) {
            counts[p * 256 + 3] = (int) rows; // negative as a Java int
        }
        counts[5 * 256 + 3] = (int) (rows - 1); // place 5: one row has another digit
        counts[5 * 256 + 4] = 1;
        assertEquals(List.of(new RadixPasses.Word(0, List.of(40))),
                RadixPasses.fromDigitCounts(rows, 1, counts).words());
    }
}

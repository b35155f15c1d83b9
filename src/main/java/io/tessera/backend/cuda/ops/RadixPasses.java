package io.tessera.backend.cuda.ops;

import java.util.ArrayList;
import java.util.List;

/**
 * The passes of an LSD radix sort over key words ({@link LargeSort}): the words from the last ORDER BY key word to
 * the first, each in digits of {@link #DIGIT_BITS} bits from its low digit to its high one, leaving out every digit
 * that is the same in all rows (it orders nothing). Which bits vary comes from each word's AND and OR over all rows:
 * a bit set in the OR and clear in the AND differs between two rows.
 */
public record RadixPasses(List<Word> words) {

    /** Bits of the digit one pass sorts by. */
    public static final int DIGIT_BITS = 8;
    /** Passes a word of 64 bits takes when no digit is skipped. */
    public static final int PASSES_PER_WORD = 64 / DIGIT_BITS;

    /** Word {@code word} (0: the first ORDER BY key word), sorted by the digits at these bit shifts, in order. */
    public record Word(int word, List<Integer> shifts) {
        public Word {
            shifts = List.copyOf(shifts);
        }
    }

    public RadixPasses {
        words = List.copyOf(words);
    }

    /**
     * The passes for words whose AND over all rows is {@code and[w]} and OR {@code or[w]}: the words in the order
     * they are sorted (the last first), those whose every digit is constant left out.
     */
    public static RadixPasses plan(long[] and, long[] or) {
        if (and.length != or.length) {
            throw new IllegalArgumentException(and.length + " ANDs and " + or.length + " ORs");
        }
        List<Word> words = new ArrayList<>();
        for (int w = and.length - 1; w >= 0; w--) {
            long varying = and[w] ^ or[w];
            List<Integer> shifts = new ArrayList<>();
            for (int shift = 0; shift < 64; shift += DIGIT_BITS) {
                if (((varying >>> shift) & ((1L << DIGIT_BITS) - 1)) != 0) {
                    shifts.add(shift);
                }
            }
            if (!shifts.isEmpty()) {
                words.add(new Word(w, shifts));
            }
        }
        return new RadixPasses(words);
    }

    /** The passes that run. */
    public int passes() {
        return words.stream().mapToInt(w -> w.shifts().size()).sum();
    }

    /** The words some of whose bits differ between rows: only they order the rows. */
    public int varyingWords() {
        return words.size();
    }

    /** What the sort does, for reports: "5 passes over 2 of 3 key words (19 constant digits skipped)". */
    public String describe(int keyWords) {
        int skipped = keyWords * PASSES_PER_WORD - passes();
        return passes() + " passes over " + varyingWords() + " of " + keyWords + " key words (" + skipped
                + " constant digits skipped)";
    }
}

package io.tessera.backend.jvm.lib;

import io.tessera.sql.LikePattern;
import io.tessera.storage.Dictionary;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

/** LIKE patterns of literal pieces and '%' match as the regular expression of the same pattern does. */
class LikeSegmentsTest {

    @Test
    void randomPatternsAgreeWithTheirRegularExpression() {
        Random r = new Random(35);
        String alphabet = "ab%\\\uD83D\uDE00.*E";
        int checked = 0;
        for (int round = 0; round < 3000; round++) {
            String pattern = random(r, "ab%_\\.*E", 1 + r.nextInt(6));
            String regex;
            try {
                regex = LikePattern.toRegex(pattern, r.nextBoolean() ? '\\' : null);
            } catch (RuntimeException endsWithEscape) {
                continue;
            }
            LikeSegments segments = LikeSegments.of(regex);
            if (segments == null) {
                continue; // a '_': stays a regular expression
            }
            Pattern p = Pattern.compile(regex, Pattern.DOTALL);
            for (int s = 0; s < 20; s++) {
                String text = random(r, alphabet, r.nextInt(8));
                assertEquals(p.matcher(text).matches(), segments.matches(text), pattern + " on " + text);
                checked++;
            }
        }
        assertEquals(true, checked > 10_000, "patterns of pieces and '%' were drawn: " + checked);
    }

    @Test
    void onlyPiecesAndPercentSignsHaveSegments() {
        assertNotNull(LikeSegments.of(LikePattern.toRegex("%special%requests%", null)));
        assertNotNull(LikeSegments.of(LikePattern.toRegex("", null)));
        assertNotNull(LikeSegments.of(LikePattern.toRegex("100\\%", '\\')));
        assertNull(LikeSegments.of(LikePattern.toRegex("a_c", null)));
        assertNull(LikeSegments.of("(?iu).*abc.*"));
    }

    @Test
    void aDictionaryMaskIsTheSameOnAllCoresAsOneByOne() {
        List<String> values = new ArrayList<>();
        Random r = new Random(13);
        for (int i = 0; i < 70_000; i++) {
            values.add(random(r, "abcs%ep", r.nextInt(12)));
        }
        Dictionary d = Dictionary.of(new java.util.TreeSet<>(values));
        for (String like : List.of("%ab%ca%", "a%", "%p", "a_c%", "%")) {
            String regex = LikePattern.toRegex(like, null);
            Pattern p = Pattern.compile(regex, Pattern.DOTALL);
            boolean[] want = new boolean[d.size()];
            for (int i = 0; i < want.length; i++) {
                want[i] = p.matcher(d.value(i)).matches();
            }
            assertArrayEquals(want, Runtime.likeMask(d, regex), like);
        }
    }

    @Test
    void aMaskTestingOnlyThePrefixsCodesAgreesWithTheRegularExpression() {
        // characters on both sides of the surrogates, and one above U+FFFF, where UTF-16 and code point order differ
        String alphabet = "ab\uE000\uFFFD\uD83D\uDE00\u00E9";
        Random r = new Random(21);
        List<String> values = new ArrayList<>();
        for (int i = 0; i < 5_000; i++) {
            values.add(random(r, alphabet, r.nextInt(6)));
        }
        Dictionary d = Dictionary.of(values);
        int tested = 0;
        for (int round = 0; round < 400; round++) {
            String literal = random(r, alphabet, 1 + r.nextInt(3));
            String like = switch (round % 4) {
                case 0 -> literal + "%";
                case 1 -> literal + "%" + random(r, alphabet, 1);
                case 2 -> literal + "%" + random(r, alphabet, 1) + "%";
                default -> literal;
            };
            String regex = LikePattern.toRegex(like, null);
            Pattern p = Pattern.compile(regex, Pattern.DOTALL);
            boolean[] want = new boolean[d.size()];
            for (int i = 0; i < want.length; i++) {
                want[i] = p.matcher(d.value(i)).matches();
                tested += want[i] ? 1 : 0;
            }
            assertArrayEquals(want, Runtime.likeMask(d, regex), like);
        }
        assertEquals(true, tested > 1_000, "patterns matched some strings: " + tested);
    }

    @Test
    void aPrefixOfNoStringMatchesNothingAndOneOfAllMatchesAll() {
        Dictionary d = Dictionary.ofSorted(new String[] {"forest green", "forest pink", "forestry"});
        assertArrayEquals(new boolean[3], Runtime.likeMask(d, LikePattern.toRegex("fox%", null)));
        assertArrayEquals(new boolean[3], Runtime.likeMask(d, LikePattern.toRegex("a%", null)));
        assertArrayEquals(new boolean[3], Runtime.likeMask(d, LikePattern.toRegex("z%", null)));
        assertArrayEquals(new boolean[] {true, true, true}, Runtime.likeMask(d, LikePattern.toRegex("forest%", null)));
        assertArrayEquals(new boolean[] {true, true, false},
                Runtime.likeMask(d, LikePattern.toRegex("forest %", null)));
        assertArrayEquals(new boolean[] {false, true, false},
                Runtime.likeMask(d, LikePattern.toRegex("forest%k", null)));
    }

    private static String random(Random r, String alphabet, int length) {
        StringBuilder sb = new StringBuilder();
        int[] cps = alphabet.codePoints().toArray();
        for (int i = 0; i < length; i++) {
            sb.appendCodePoint(cps[r.nextInt(cps.length)]);
        }
        return sb.toString();
    }
}

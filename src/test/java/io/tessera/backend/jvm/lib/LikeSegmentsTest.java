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

    private static String random(Random r, String alphabet, int length) {
        StringBuilder sb = new StringBuilder();
        int[] cps = alphabet.codePoints().toArray();
        for (int i = 0; i < length; i++) {
            sb.appendCodePoint(cps[r.nextInt(cps.length)]);
        }
        return sb.toString();
    }
}

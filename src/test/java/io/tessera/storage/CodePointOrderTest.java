package io.tessera.storage;

import org.junit.jupiter.api.Test;

import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The code point order of strings, and the dictionary that keeps it. */
class CodePointOrderTest {

    /** Code points from the ranges where UTF-16 order and code point order part, and around them. */
    private static final int[] POINTS = {'a', 'z', 0x7F, 0xE9, 0x4E2D, 0xD7FF, 0xE000, 0xFF5A, 0xFFFD, 0xFFFF,
            0x10000, 0x1D538, 0x1F600, 0x10FFFF};

    @Test
    void ordersAsCodePointsDo() {
        assertTrue(CodePointOrder.compare("ｚ", "😀") < 0, "U+FF5A before U+1F600");
        assertTrue("ｚ".compareTo("😀") > 0, "unlike UTF-16 order");
        assertTrue(CodePointOrder.compare("😀", "\uFFFF") > 0);
        assertEquals(0, CodePointOrder.compare("中文😀", "中文😀"));
        assertTrue(CodePointOrder.compare("ab", "abc") < 0);
        Random r = new Random(25);
        for (int i = 0; i < 20_000; i++) {
            String a = random(r);
            String b = random(r);
            int want = Integer.signum(Arrays.compare(a.codePoints().toArray(), b.codePoints().toArray()));
            assertEquals(want, Integer.signum(CodePointOrder.compare(a, b)), a + " vs " + b);
            assertEquals(want, Integer.signum(Arrays.compareUnsigned(a.getBytes(StandardCharsets.UTF_8),
                    b.getBytes(StandardCharsets.UTF_8))), "the order of UTF-8 bytes");
        }
    }

    @Test
    void dictionaryLookupsFollowTheOrder() {
        Random r = new Random(6);
        List<String> strings = new ArrayList<>();
        for (int i = 0; i < 500; i++) {
            strings.add(random(r));
        }
        Dictionary d = Dictionary.of(strings);
        for (int i = 1; i < d.size(); i++) {
            assertTrue(CodePointOrder.compare(d.value(i - 1), d.value(i)) < 0);
        }
        for (String s : strings) {
            int c = d.code(s);
            assertEquals(s, d.value(c));
            assertEquals(c, d.lowerBound(s));
            assertEquals(c + 1, d.upperBound(s));
        }
        Dictionary two = Dictionary.of(List.of("😀", "ｚ"));
        assertEquals("ｚ", two.value(0));
        assertEquals(1, two.lowerBound("\uFFFF"));
        assertEquals(1, two.upperBound("ｚ"));
        assertEquals(-1, two.code("\uFFFF"));
    }

    @Test
    void anOldFormDictionaryInUtf16OrderIsRefusedNotMisread() {
        byte[] file = OldDictionaryForm.encode("a", "😀", "ｚ"); // String.compareTo order
        StorageException e = assertThrows(StorageException.class,
                () -> Dictionary.open(MemorySegment.ofArray(file), "b.dict"));
        assertTrue(e.getMessage().contains("b.dict") && e.getMessage().contains("code point order"), e.getMessage());
        String[] back = {"a", "ｚ", "😀"};
        Dictionary ok = Dictionary.open(MemorySegment.ofArray(OldDictionaryForm.encode(back)), "b");
        assertEquals(List.of(back), List.of(ok.value(0), ok.value(1), ok.value(2)));
    }

    private static String random(Random r) {
        StringBuilder sb = new StringBuilder();
        int n = r.nextInt(4);
        for (int i = 0; i < n; i++) {
            int p = POINTS[r.nextInt(POINTS.length)];
            int q = r.nextBoolean() ? p : p - 1;
            sb.appendCodePoint(q >= Character.MIN_SURROGATE && q <= Character.MAX_SURROGATE ? p : q);
        }
        return sb.toString();
    }
}

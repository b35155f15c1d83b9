package io.tessera.storage;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;

class Utf8SortTest {

    /** Sorts {@code values} with Utf8Sort and checks the order against {@link CodePointOrder}, repeats next to each other. */
    static void assertSorted(List<String> values) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int[] starts = new int[values.size() + 1];
        for (int i = 0; i < values.size(); i++) {
            starts[i] = out.size();
            out.writeBytes(values.get(i).getBytes(StandardCharsets.UTF_8));
        }
        starts[values.size()] = out.size();
        int[] order = Utf8Sort.order(out.toByteArray(), starts, values.size());
        List<String> sorted = new ArrayList<>(values);
        sorted.sort(CodePointOrder.ORDER);
        List<String> actual = new ArrayList<>();
        for (int i : order) {
            actual.add(values.get(i));
        }
        assertEquals(sorted, actual);
    }

    @Test
    void ordersByCodePointWithSharedPrefixesZerosAndRepeats() {
        String[] pieces = {"", "\0", "a", "b", "é", "ｚ", "😀", "carefully ", "final ", "deposits "};
        SplittableRandom r = new SplittableRandom(5);
        List<String> values = new ArrayList<>();
        for (int i = 0; i < 20_000; i++) {
            StringBuilder sb = new StringBuilder();
            int n = r.nextInt(8);
            for (int k = 0; k < n; k++) {
                sb.append(pieces[r.nextInt(pieces.length)]);
            }
            values.add(sb.toString());
        }
        assertSorted(values);
    }

    @Test
    void longCommonPrefixesAndManyEqualValues() {
        String prefix = "x".repeat(300);
        List<String> values = new ArrayList<>();
        for (int i = 0; i < 5_000; i++) {
            values.add(prefix + (i % 7 == 0 ? "" : "\0".repeat(i % 5)) + (i % 3));
            values.add(prefix.substring(0, i % 300));
        }
        assertSorted(values);
        assertSorted(List.of());
        assertSorted(List.of("only"));
    }
}

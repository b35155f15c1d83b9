package io.tessera.storage;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.lang.foreign.Arena;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The compact dictionary a VARCHAR column is written through: the same codes, order and file as the
 * {@link Dictionary} of the same strings, for strings with ASCII, accents, CJK, U+E000-U+FFFF and supplementary
 * characters (where UTF-16 order and code point order differ), empty strings and duplicates.
 */
class DictionaryBuilderTest {

    @TempDir
    Path dir;

    static final String[] PIECES = {"", "a", "b", "ab", "z", "é", "中", "文", "\uE000", "\uFF5A", "\uFFFD",
            "\uD83D\uDE00", "\uD800\uDC00", "~", " ", "0"};

    @Test
    void sameOrderAndFileAsDictionary() throws Exception {
        Random rnd = new Random(25);
        List<String> input = new ArrayList<>();
        for (int i = 0; i < 20_000; i++) {
            StringBuilder b = new StringBuilder();
            for (int k = rnd.nextInt(5); k > 0; k--) {
                b.append(PIECES[rnd.nextInt(PIECES.length)]);
            }
            input.add(b.toString());
        }
        DictionaryBuilder d = new DictionaryBuilder("c");
        LinkedHashSet<String> distinct = new LinkedHashSet<>();
        java.util.Map<String, Integer> codes = new java.util.HashMap<>();
        for (String s : input) {
            codes.putIfAbsent(s, codes.size());
            distinct.add(s);
            assertEquals(codes.get(s), d.add(s), s);
        }
        assertEquals(distinct.size(), d.size());
        String[] sorted = distinct.toArray(new String[0]);
        Arrays.sort(sorted, CodePointOrder::compare); // dictionaries are in code point order, not UTF-16's
        int[] order = d.sortedOrder();
        String[] got = new String[order.length];
        for (int k = 0; k < order.length; k++) {
            got[k] = d.value(order[k]);
        }
        assertArrayEquals(sorted, got);

        Path file = dir.resolve("d.dict");
        long[] lengthAndCrc = d.write(file, order);
        byte[] expected = DictionaryFile.encode(sorted);
        assertArrayEquals(expected, Files.readAllBytes(file));
        assertEquals(expected.length, lengthAndCrc[0]);
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ); Arena a = Arena.ofConfined()) {
            assertEquals(Database.crc32c(ch.map(FileChannel.MapMode.READ_ONLY, 0, ch.size(), a)), lengthAndCrc[1]);
        }
    }
}

package io.tessera.storage;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A stored dictionary read in place, in both file forms: the same sizes, values, codes and bounds as the dictionary
 * of the same strings held on the heap, for empty strings, characters above U+FFFF and U+E000-U+FFFF (where UTF-16
 * order differs), and keys it does not hold (lone surrogates among them); and offsets past 2 GB.
 */
class MappedDictionaryTest {

    static final String[] PIECES = {"", "a", "b", "ab", "z", "é", "中", "\uE000", "\uFF5A", "\uFFFF",
            "\uD83D\uDE00", "\uD800\uDC00", "\uDBFF\uDFFF", "~", " ", "\u0000", "\u007F", "\u0080", "\u07FF", "\u0800"};

    @TempDir
    Path dir;

    static String random(Random r, int pieces) {
        StringBuilder b = new StringBuilder();
        for (int k = r.nextInt(pieces + 1); k > 0; k--) {
            b.append(PIECES[r.nextInt(PIECES.length)]);
        }
        return b.toString();
    }

    @Test
    void bothFormsAnswerAsTheHeapDictionary() {
        Random r = new Random(35);
        List<String> strings = new ArrayList<>();
        for (int i = 0; i < 3_000; i++) {
            strings.add(random(r, 4));
        }
        Dictionary heap = Dictionary.of(strings);
        String[] sorted = new String[heap.size()];
        for (int c = 0; c < sorted.length; c++) {
            sorted[c] = heap.value(c);
        }
        assertEquals("", sorted[0]);
        List<String> keys = new ArrayList<>(strings);
        for (int i = 0; i < 3_000; i++) {
            keys.add(random(r, 5));
        }
        keys.addAll(List.of("\uD800", "a\uDC00", "\uDBFF", "\uFFFF\uFFFF\uFFFF\uFFFF\uFFFF\uFFFF", "zzzzzzzz"));
        for (byte[] file : List.of(DictionaryFile.encode(sorted), OldDictionaryForm.encode(sorted))) {
            Dictionary mapped = Dictionary.open(MemorySegment.ofArray(file), "t.dict");
            assertEquals(heap.size(), mapped.size());
            for (int c = 0; c < sorted.length; c++) {
                assertEquals(sorted[c], mapped.value(c));
            }
            for (String k : keys) {
                assertEquals(heap.code(k), mapped.code(k), k);
                assertEquals(heap.lowerBound(k), mapped.lowerBound(k), k);
                assertEquals(heap.upperBound(k), mapped.upperBound(k), k);
            }
            assertThrows(IndexOutOfBoundsException.class, () -> mapped.value(sorted.length));
        }
    }

    @Test
    void aSmallDictionaryKeepsWhatItDecodedAndALargeOneDecodesAgain() {
        String[] small = {"AMERICA", "ASIA", "EUROPE"};
        Dictionary d = Dictionary.open(MemorySegment.ofArray(DictionaryFile.encode(small)), "small.dict");
        for (int c = 0; c < small.length; c++) {
            String first = d.value(c);
            assertEquals(small[c], first);
            assertSame(first, d.value(c), "code " + c + " decoded again");
        }
        // over the strings' limit: every read decodes, and answers the same
        int n = MappedDictionary.DECODED_MAX_STRINGS + 1;
        String[] many = new String[n];
        for (int i = 0; i < n; i++) {
            many[i] = String.format("k%06d", i);
        }
        Dictionary big = Dictionary.open(MemorySegment.ofArray(DictionaryFile.encode(many)), "big.dict");
        String a = big.value(n - 1);
        assertEquals(many[n - 1], a);
        assertEquals(a, big.value(n - 1));
        assertNotSame(a, big.value(n - 1));
    }

    @Test
    void emptyDictionaryInBothForms() {
        for (byte[] file : List.of(DictionaryFile.encode(new String[0]), OldDictionaryForm.encode())) {
            Dictionary d = Dictionary.open(MemorySegment.ofArray(file), "e.dict");
            assertEquals(0, d.size());
            assertEquals(-1, d.code(""));
            assertEquals(0, d.lowerBound("x"));
            assertEquals(0, d.upperBound(""));
        }
    }

    @Test
    void theCurrentFormIsWrittenWith64BitOffsets() {
        byte[] file = DictionaryFile.encode(new String[] {"", "ab", "😀"});
        ByteBuffer b = ByteBuffer.wrap(file).order(ByteOrder.LITTLE_ENDIAN);
        assertEquals(DictionaryFile.MAGIC, b.getInt(0));
        assertEquals(3L, b.getLong(8));
        assertEquals(List.of(0L, 0L, 2L, 6L), List.of(b.getLong(16), b.getLong(24), b.getLong(32), b.getLong(40)));
        assertEquals(48 + 6, file.length);
    }

    @Test
    void damagedFilesAreRefusedByName() {
        byte[] file = DictionaryFile.encode(new String[] {"a", "b"});
        byte[] cut = java.util.Arrays.copyOf(file, file.length - 1);
        StorageException e = assertThrows(StorageException.class,
                () -> Dictionary.open(MemorySegment.ofArray(cut), "cut.dict"));
        assertTrue(e.getMessage().contains("cut.dict"), e.getMessage());
        byte[] bad = file.clone();
        bad[0] = (byte) 0xFF;
        assertThrows(StorageException.class, () -> Dictionary.open(MemorySegment.ofArray(bad), "bad.dict"));
    }

    /**
     * A dictionary whose first string is 2^31 + 5 NUL characters (a hole in a sparse file, so the test writes only a
     * few bytes): every later string lies past 2 GB, where int offsets would wrap.
     */
    @Test
    void stringsPast2GbAreFoundAndRead() throws Exception {
        String[] tail = {"a", "b", "é", "😀"};
        long first = (1L << 31) + 5;
        Path p = dir.resolve("big.dict");
        long dataAt = DictionaryFile.headerBytes(tail.length + 1);
        List<Long> offsets = new ArrayList<>(List.of(0L, first));
        ByteBuffer bytes = ByteBuffer.allocate(64);
        for (String s : tail) {
            bytes.put(s.getBytes(StandardCharsets.UTF_8));
            offsets.add(first + bytes.position());
        }
        ByteBuffer header = ByteBuffer.allocate((int) dataAt).order(ByteOrder.LITTLE_ENDIAN);
        header.putInt(DictionaryFile.MAGIC).putInt(0).putLong(tail.length + 1);
        offsets.forEach(header::putLong);
        try (FileChannel ch = FileChannel.open(p, StandardOpenOption.CREATE_NEW, StandardOpenOption.READ,
                StandardOpenOption.WRITE, StandardOpenOption.SPARSE); Arena arena = Arena.ofConfined()) {
            ch.write(header.flip(), 0);
            ch.write(bytes.flip(), dataAt + first);
            MemorySegment seg = ch.map(FileChannel.MapMode.READ_ONLY, 0, ch.size(), arena);
            Dictionary d = Dictionary.open(seg, "big.dict");
            assertEquals(5, d.size());
            for (int i = 0; i < tail.length; i++) {
                assertEquals(tail[i], d.value(i + 1));
                assertEquals(i + 1, d.code(tail[i]));
            }
            assertEquals(-1, d.code("c"));
            assertEquals(3, d.lowerBound("c"));
            assertEquals(0, d.lowerBound(""));
            assertEquals(-1, d.code(""));
            assertEquals(1, d.lowerBound("\u0001"));
            assertEquals(5, d.upperBound("😀"));
            assertThrows(StorageException.class, () -> d.value(0)); // longer than a Java string can be
        }
    }
}

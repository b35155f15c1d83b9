package io.tessera.storage;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The tournament that merges a column's runs decides matches by offset-value codes and finds repeats from them:
 * shapes where those codes tie or are 0 (the same strings in many runs, empty strings, strings that are prefixes of
 * others or end in zero bytes, bytes above 0x7f where eight-byte words are compared, one distinct value), and trees of
 * 1 to 40 runs, merged through {@link DictionaryMerge} and checked against the dictionary of all the strings; parts'
 * runs keep each successor's first difference in its slot, runs of strings written in order do not (DictionaryMergeTest
 * merges both).
 */
class RunTournamentTest {

    @TempDir
    Path dir;

    @Test
    void theSameStringsInManyRunsGetOneCodeEach() throws Exception {
        Random r = new Random(41);
        List<String> shared = new ArrayList<>();
        for (int i = 0; i < 60; i++) {
            shared.add("furiously regular " + MappedDictionaryTest.random(r, 3));
        }
        List<List<String>> parts = new ArrayList<>();
        for (int p = 0; p < 23; p++) {
            List<String> part = new ArrayList<>(shared);
            for (int i = 0; i < 20; i++) {
                part.add("furiously regular " + MappedDictionaryTest.random(r, 4) + p);
            }
            parts.add(part);
        }
        mergeAndCheck(parts, "shared");
    }

    @Test
    void emptyStringsPrefixesAndZeroBytesMergeInOrder() throws Exception {
        String[] words = {"", "\0", "a", "a\0", "a\0\0", "ab", "abcdefgh", "abcdefgh\0", "abcdefghi", "abcdefgh" + "ij",
                "abcdefghijklmnop", "abcdefghijklmnopq", "b", "abcdefgg", "abcdefgi"};
        Random r = new Random(42);
        List<List<String>> parts = new ArrayList<>();
        for (int p = 0; p < 7; p++) {
            List<String> part = new ArrayList<>();
            for (String w : words) {
                if (r.nextInt(3) > 0) {
                    part.add(w);
                }
            }
            parts.add(part);
        }
        parts.add(List.of(""));
        parts.add(List.of(words));
        mergeAndCheck(parts, "prefixes");
    }

    @Test
    void bytesAboveAsciiCompareUnsigned() throws Exception {
        String[] tails = {"z", "~", "é", "ü", "中", "😀", "\u007f", "\u0080", "ÿ", "Ā"};
        Random r = new Random(43);
        List<List<String>> parts = new ArrayList<>();
        for (int p = 0; p < 5; p++) {
            List<String> part = new ArrayList<>();
            for (int i = 0; i < 200; i++) {
                String head = r.nextBoolean() ? "abcdefgh" : "abcdefghabcdefg"; // the byte at 8 or 15
                part.add(head + tails[r.nextInt(tails.length)] + tails[r.nextInt(tails.length)]);
            }
            parts.add(part);
        }
        mergeAndCheck(parts, "non-ASCII");
    }

    @Test
    void oneDistinctValueInEveryRun() throws Exception {
        for (String v : new String[] {"", "x", "a longer value than eight bytes"}) {
            List<List<String>> parts = new ArrayList<>();
            for (int p = 0; p < 6; p++) {
                parts.add(List.of(v, v));
            }
            DictionaryMerge.Result result = mergeAndCheck(parts, "one value '" + v + "'");
            assertEquals(1, result.size());
        }
    }

    @Test
    void treesOfOneToFortyRunsAllDistinctOrRepeating() throws Exception {
        Random r = new Random(44);
        for (int k = 1; k <= 40; k += k < 8 ? 1 : 7) {
            for (boolean distinct : new boolean[] {true, false}) {
                List<List<String>> parts = new ArrayList<>();
                for (int p = 0; p < k; p++) {
                    List<String> part = new ArrayList<>();
                    for (int i = 0; i < 150; i++) {
                        // a small alphabet: long common prefixes, ties of codes between runs
                        StringBuilder sb = new StringBuilder();
                        for (int len = r.nextInt(30); len > 0; len--) {
                            sb.append((char) ('a' + r.nextInt(3)));
                        }
                        part.add(distinct ? sb.append('#').append(p).toString() : sb.toString());
                    }
                    parts.add(part);
                }
                mergeAndCheck(parts, k + " runs, " + (distinct ? "distinct" : "repeating"));
            }
        }
    }

    /** A successor's first difference from the string before it, as a run's slot keeps it for the merge. */
    @Test
    void aSuccessorsFirstDifferenceIsKeptInItsSlot() {
        assertEquals(2 << 9 | ('d' + 1), successor("abc", "abd"));
        assertEquals(2 << 9 | ('c' + 1), successor("ab", "abc"));
        assertEquals(0 << 9 | ('b' + 1), successor("", "b"));
        assertEquals(9 << 9 | (0xc3 + 1), successor("abcdefghiz", "abcdefghié")); // the byte unsigned
        assertEquals(0, successor("same", "same"));
        assertEquals(0, successor("abd", "abc")); // not above: left to the merge
        byte[] far = new byte[(1 << 22) + 2];
        byte[] farther = far.clone();
        farther[far.length - 1] = 1;
        assertEquals(0, RunTournament.successor(far, 0, far.length, farther, 0, farther.length)); // too far to keep
    }

    private static int successor(String prev, String s) {
        byte[] p = ("xx" + prev).getBytes(java.nio.charset.StandardCharsets.UTF_8);
        byte[] b = ("yyy" + s).getBytes(java.nio.charset.StandardCharsets.UTF_8);
        return RunTournament.successor(p, 2, p.length, b, 3, b.length - 3);
    }

    /**
     * Sorts each part into a run, merges the runs; the file holds the dictionary of all strings and each string's
     * slot its code in it.
     */
    private DictionaryMerge.Result mergeAndCheck(List<List<String>> parts, String what) throws Exception {
        List<String> all = new ArrayList<>();
        parts.forEach(all::addAll);
        Dictionary expected = Dictionary.of(all);
        StringRuns runs = new StringRuns(dir.resolve("t.runs.tmp"));
        try (Arena arena = Arena.ofShared()) {
            List<StringRuns.Run> list = new ArrayList<>();
            List<StringRuns.Sorted> sorted = new ArrayList<>();
            for (List<String> part : parts) {
                StringRuns.Sorted s = runs.add(part);
                sorted.add(s);
                list.add(s.run());
            }
            MemorySegment seg = runs.map(arena);
            Path file = dir.resolve("t.dict");
            DictionaryMerge.Result result = DictionaryMerge.merge(seg, list, file, "t");
            assertEquals(expected.size(), result.size(), what);
            assertEquals(expected.value(0), result.min(), what);
            assertEquals(expected.value(expected.size() - 1), result.max(), what);
            try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
                Dictionary merged = Dictionary.open(ch.map(FileChannel.MapMode.READ_ONLY, 0, ch.size(), arena),
                        "t.dict");
                assertEquals(StorageRoundTripTest.strings(expected), StorageRoundTripTest.strings(merged), what);
            }
            for (int p = 0; p < parts.size(); p++) {
                List<String> part = parts.get(p);
                for (int i = 0; i < part.size(); i++) {
                    assertEquals(expected.code(part.get(i)),
                            DictionaryMerge.code(seg, sorted.get(p).run(), sorted.get(p).rank()[i]),
                            what + ": " + part.get(i));
                }
            }
            return result;
        } finally {
            runs.discard();
        }
    }
}

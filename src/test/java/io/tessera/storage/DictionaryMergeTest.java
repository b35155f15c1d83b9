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
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Sorted runs merged into a dictionary file: strings written in order, cut into runs of a few bytes each (as those
 * past {@link StringRuns#MAX_RUN_BYTES} are), beside parts' runs; the merged file is the dictionary of all their
 * strings, and each run string's slot holds its code in it.
 */
class DictionaryMergeTest {

    @TempDir
    Path dir;

    @Test
    void runsCutSmallMergeIntoTheDictionaryOfAllTheirStrings() throws Exception {
        Random r = new Random(36);
        DictionaryBuilder inOrder = new DictionaryBuilder("c");
        List<String> all = new ArrayList<>();
        for (int i = 0; i < 2_000; i++) {
            String s = MappedDictionaryTest.random(r, 4);
            inOrder.add(s);
            all.add(s);
        }
        List<List<String>> parts = new ArrayList<>();
        for (int p = 0; p < 3; p++) {
            List<String> part = new ArrayList<>();
            for (int i = 0; i < 700; i++) {
                part.add(MappedDictionaryTest.random(r, 5));
            }
            parts.add(part);
            all.addAll(part);
        }
        Dictionary expected = Dictionary.of(all);

        StringRuns runs = new StringRuns(dir.resolve("c.runs.tmp"));
        try (Arena arena = Arena.ofShared()) {
            int[] order = inOrder.sortedOrder();
            List<StringRuns.Run> cut = runs.add(inOrder, order, 64);
            assertTrue(cut.size() > 10, "runs of at most 64 bytes: " + cut.size());
            List<StringRuns.Run> list = new ArrayList<>(cut);
            List<StringRuns.Sorted> sortedParts = new ArrayList<>();
            for (List<String> part : parts) {
                StringRuns.Sorted s = runs.add(part);
                sortedParts.add(s);
                list.add(s.run());
            }
            MemorySegment seg = runs.map(arena);
            Path file = dir.resolve("c.dict");
            DictionaryMerge.Result result = DictionaryMerge.merge(seg, list, file, "c");
            assertEquals(expected.size(), result.size());
            assertEquals(expected.value(0), result.min());
            assertEquals(expected.value(expected.size() - 1), result.max());
            try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
                assertEquals(ch.size(), result.length());
                MemorySegment written = ch.map(FileChannel.MapMode.READ_ONLY, 0, ch.size(), arena);
                assertEquals(result.crc(), Database.crc32c(written));
                assertEquals(DictionaryFile.MAGIC, written.get(DictionaryFile.INT, 0));
                Dictionary merged = Dictionary.open(written, "c.dict");
                assertEquals(StorageRoundTripTest.strings(expected), StorageRoundTripTest.strings(merged));
            }
            int s = 0;
            for (StringRuns.Run run : cut) {
                for (int i = 0; i < run.count(); i++, s++) {
                    assertEquals(expected.code(inOrder.value(order[s])), DictionaryMerge.code(seg, run, i));
                }
            }
            assertEquals(order.length, s);
            for (int p = 0; p < parts.size(); p++) {
                List<String> part = parts.get(p);
                StringRuns.Sorted sorted = sortedParts.get(p);
                for (int i = 0; i < part.size(); i++) {
                    assertEquals(expected.code(part.get(i)),
                            DictionaryMerge.code(seg, sorted.run(), sorted.rank()[i]), part.get(i));
                }
            }
        } finally {
            runs.discard();
        }
    }

    /**
     * Strings that agree in their first 24 to 40 bytes (the runs' next strings tie on their first difference from the
     * string merged before), some ending in zero bytes and many repeated across runs: every duplicate gets one code,
     * in order.
     */
    @Test
    void stringsSharingLongPrefixesMergeInOrder() throws Exception {
        Random r = new Random(37);
        String[] tails = {"", "\0", "a", "a\0", "b", "é", "zz", "\0\0"};
        List<List<String>> parts = new ArrayList<>();
        List<String> all = new ArrayList<>();
        for (int p = 0; p < 9; p++) {
            List<String> part = new ArrayList<>();
            for (int i = 0; i < 600; i++) {
                StringBuilder sb = new StringBuilder("carefully final deposits"); // 24 bytes
                int extra = r.nextInt(17); // to 40 bytes
                for (int k = 0; k < extra; k++) {
                    sb.append((char) ('a' + r.nextInt(2)));
                }
                sb.append(tails[r.nextInt(tails.length)]);
                part.add(sb.toString());
            }
            parts.add(part);
            all.addAll(part);
        }
        Dictionary expected = Dictionary.of(all);
        StringRuns runs = new StringRuns(dir.resolve("d.runs.tmp"));
        try (Arena arena = Arena.ofShared()) {
            List<StringRuns.Run> list = new ArrayList<>();
            List<StringRuns.Sorted> sortedParts = new ArrayList<>();
            for (List<String> part : parts) {
                StringRuns.Sorted sorted = runs.add(part);
                sortedParts.add(sorted);
                list.add(sorted.run());
            }
            MemorySegment seg = runs.map(arena);
            Path file = dir.resolve("d.dict");
            DictionaryMerge.Result result = DictionaryMerge.merge(seg, list, file, "d");
            assertEquals(expected.size(), result.size());
            try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
                Dictionary merged = Dictionary.open(ch.map(FileChannel.MapMode.READ_ONLY, 0, ch.size(), arena),
                        "d.dict");
                assertEquals(StorageRoundTripTest.strings(expected), StorageRoundTripTest.strings(merged));
            }
            for (int p = 0; p < parts.size(); p++) {
                List<String> part = parts.get(p);
                for (int i = 0; i < part.size(); i++) {
                    assertEquals(expected.code(part.get(i)),
                            DictionaryMerge.code(seg, sortedParts.get(p).run(), sortedParts.get(p).rank()[i]),
                            part.get(i));
                }
            }
        } finally {
            runs.discard();
        }
    }

    /**
     * Parts of more than {@link Utf8Buckets#MIN_BYTES} of strings, which are sorted bucket by bucket on their first
     * two bytes (empty and one-byte strings, zero bytes and repeats among them), and one whose strings all share
     * their first two bytes, sorted whole: each part's run holds its distinct strings in order, and the merge gives
     * every string its code in the dictionary of all.
     */
    @Test
    void largePartsSortedInBucketsMergeInOrder() throws Exception {
        Random r = new Random(38);
        List<List<String>> parts = new ArrayList<>();
        List<String> all = new ArrayList<>();
        for (int p = 0; p < 3; p++) {
            List<String> part = new ArrayList<>();
            while (part.size() < 120_000) {
                String s = p == 2 ? "xx" + MappedDictionaryTest.random(r, 12) : MappedDictionaryTest.random(r, 12);
                part.add(s);
                if (r.nextInt(10) == 0) {
                    part.add(s);
                }
            }
            parts.add(part);
            all.addAll(part);
        }
        Dictionary expected = Dictionary.of(all);
        StringRuns runs = new StringRuns(dir.resolve("e.runs.tmp"));
        try (Arena arena = Arena.ofShared()) {
            List<StringRuns.Run> list = new ArrayList<>();
            List<StringRuns.Sorted> sortedParts = new ArrayList<>();
            for (int p = 0; p < parts.size(); p++) {
                java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
                List<String> part = parts.get(p);
                int[] starts = new int[part.size() + 1];
                for (int i = 0; i < part.size(); i++) {
                    starts[i] = out.size();
                    out.writeBytes(part.get(i).getBytes(java.nio.charset.StandardCharsets.UTF_8));
                }
                starts[part.size()] = out.size();
                byte[] bytes = out.toByteArray();
                assertTrue(bytes.length > Utf8Buckets.MIN_BYTES, "bytes of part " + p + ": " + bytes.length);
                Utf8Buckets buckets = Utf8Buckets.of(bytes, starts, part.size());
                assertEquals(p == 2, buckets == null, "part " + p + " sorted whole");
                if (buckets != null) {
                    assertTrue(buckets.count() > 100, "buckets of part " + p + ": " + buckets.count());
                }
                StringRuns.Sorted sorted = runs.add(bytes, starts, part.size());
                assertEquals(Dictionary.of(part).size(), sorted.run().count());
                sortedParts.add(sorted);
                list.add(sorted.run());
            }
            MemorySegment seg = runs.map(arena);
            Path file = dir.resolve("e.dict");
            DictionaryMerge.Result result = DictionaryMerge.merge(seg, list, file, "e");
            assertEquals(expected.size(), result.size());
            try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
                Dictionary merged = Dictionary.open(ch.map(FileChannel.MapMode.READ_ONLY, 0, ch.size(), arena),
                        "e.dict");
                assertEquals(StorageRoundTripTest.strings(expected), StorageRoundTripTest.strings(merged));
            }
            for (int p = 0; p < parts.size(); p++) {
                List<String> part = parts.get(p);
                for (int i = 0; i < part.size(); i++) {
                    assertEquals(expected.code(part.get(i)),
                            DictionaryMerge.code(seg, sortedParts.get(p).run(), sortedParts.get(p).rank()[i]),
                            part.get(i));
                }
            }
        } finally {
            runs.discard();
        }
    }

    /**
     * Strings of hundreds of kilobytes that differ only in their last bytes, beside short ones and repeats: merged in
     * order, each string's bytes placed whole.
     */
    @Test
    void longStringsMergeInOrder() throws Exception {
        Random r = new Random(39);
        List<List<String>> parts = new ArrayList<>();
        List<String> all = new ArrayList<>();
        for (int p = 0; p < 3; p++) {
            List<String> part = new ArrayList<>();
            for (int i = 0; i < 40; i++) {
                int len = r.nextInt(3) == 0 ? 1 + r.nextInt(40) : 100_000 + r.nextInt(300_000);
                StringBuilder sb = new StringBuilder(len);
                for (int k = 0; k < len; k++) {
                    sb.append(k < len - 3 ? 'q' : (char) ('a' + r.nextInt(2)));
                }
                part.add(sb.toString());
                if (r.nextInt(4) == 0) {
                    part.add(sb.toString());
                }
            }
            parts.add(part);
            all.addAll(part);
        }
        Dictionary expected = Dictionary.of(all);
        StringRuns runs = new StringRuns(dir.resolve("f.runs.tmp"));
        try (Arena arena = Arena.ofShared()) {
            List<StringRuns.Run> list = new ArrayList<>();
            List<StringRuns.Sorted> sortedParts = new ArrayList<>();
            for (List<String> part : parts) {
                StringRuns.Sorted sorted = runs.add(part);
                sortedParts.add(sorted);
                list.add(sorted.run());
            }
            MemorySegment seg = runs.map(arena);
            Path file = dir.resolve("f.dict");
            DictionaryMerge.Result result = DictionaryMerge.merge(seg, list, file, "f");
            assertEquals(expected.size(), result.size());
            try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
                Dictionary merged = Dictionary.open(ch.map(FileChannel.MapMode.READ_ONLY, 0, ch.size(), arena),
                        "f.dict");
                assertEquals(StorageRoundTripTest.strings(expected), StorageRoundTripTest.strings(merged));
            }
            for (int p = 0; p < parts.size(); p++) {
                List<String> part = parts.get(p);
                for (int i = 0; i < part.size(); i++) {
                    assertEquals(expected.code(part.get(i)),
                            DictionaryMerge.code(seg, sortedParts.get(p).run(), sortedParts.get(p).rank()[i]));
                }
            }
        } finally {
            runs.discard();
        }
    }
}

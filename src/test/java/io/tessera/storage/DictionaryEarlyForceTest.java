package io.tessera.storage;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A dictionary whose ranges are forced as they are placed (every file, here) is the same file as one forced whole at
 * the end, with the same CRC, and every range's force has ended when the merge's syncs are awaited.
 */
class DictionaryEarlyForceTest {

    @TempDir
    Path dir;

    @AfterEach
    void restore() {
        DictionaryMerge.earlyForceBytes = 64L << 20;
    }

    @Test
    void rangesForcedAsTheyArePlacedWriteTheSameFile() throws Exception {
        Random r = new Random(5);
        List<List<String>> parts = new ArrayList<>();
        for (int p = 0; p < 6; p++) {
            List<String> part = new ArrayList<>();
            for (int i = 0; i < 40_000; i++) {
                part.add("quickly ironic packages " + MappedDictionaryTest.random(r, 12));
            }
            parts.add(part);
        }
        DictionaryMerge.Result whole = merge(parts, "whole");
        DictionaryMerge.earlyForceBytes = 0;
        DictionaryMerge.Result early = merge(parts, "early");
        assertEquals(whole, early);
        assertArrayEquals(Files.readAllBytes(dir.resolve("whole.dict")), Files.readAllBytes(dir.resolve("early.dict")));
    }

    private DictionaryMerge.Result merge(List<List<String>> parts, String name) throws Exception {
        StringRuns runs = new StringRuns(dir.resolve(name + ".runs.tmp"));
        try (Arena arena = Arena.ofShared()) {
            List<StringRuns.Run> list = new ArrayList<>();
            for (List<String> part : parts) {
                list.add(runs.add(part).run());
            }
            MemorySegment seg = runs.map(arena);
            return DictionaryMerge.merge(seg, list, dir.resolve(name + ".dict"), "c");
        } finally {
            runs.discard();
        }
    }
}

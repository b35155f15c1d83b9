package io.tessera.storage;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The merge's ranges hold about equal numbers of run strings however the runs are shaped: one large run beside many
 * small ones (a previous version's dictionary beside appended parts, a file's last row group), strings sharing long
 * prefixes (TPC-H's comments come from a small grammar of words), and the same strings in many runs, which must stay
 * in one range. Counts only: each range's strings, their sum, and the runs cut in order.
 */
class RangeCutTest {

    @TempDir
    Path dir;

    @Test
    void oneLargeRunBesideManySmallOnesIsCutEvenly() throws Exception {
        Random r = new Random(7);
        List<List<String>> parts = new ArrayList<>();
        parts.add(strings(r, 120_000));
        for (int p = 0; p < 40; p++) {
            parts.add(strings(r, 1_500));
        }
        assertBalanced(parts, 64, 1.1);
        assertBalanced(parts, 8, 1.1);
    }

    @Test
    void runsOfEqualSizeSharingLongPrefixesAreCutEvenly() throws Exception {
        Random r = new Random(8);
        List<List<String>> parts = new ArrayList<>();
        for (int p = 0; p < 16; p++) {
            parts.add(strings(r, 10_000));
        }
        parts.add(strings(r, 37)); // a last, small part
        assertBalanced(parts, 64, 1.1);
    }

    @Test
    void theSameStringInEveryRunFallsIntoOneRange() throws Exception {
        Random r = new Random(9);
        List<List<String>> parts = new ArrayList<>();
        for (int p = 0; p < 12; p++) {
            List<String> part = strings(r, 5_000);
            part.add("the same in every part");
            parts.add(part);
        }
        int[] last = new int[parts.size()];
        int[][] bound = cut(parts, 32, last);
        // the range of each run's "the same in every part": one for all runs
        int range = -1;
        for (int k = 0; k < parts.size(); k++) {
            int q = 0;
            while (bound[q + 1][k] <= last[k]) {
                q++;
            }
            assertTrue(bound[q][k] <= last[k] && last[k] < bound[q + 1][k]);
            if (k == 0) {
                range = q;
            }
            assertEquals(range, q, "run " + k);
        }
    }

    /** {@code n} strings of a few words of a small grammar after a long shared prefix, as TPC-H comments are. */
    private static List<String> strings(Random r, int n) {
        String[] words = {"furiously", "carefully", "final", "regular", "express", "ironic", "pending", "deposits",
                "accounts", "packages", "requests", "sleep", "haggle", "about", "the", "blithely", "quickly"};
        List<String> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            StringBuilder s = new StringBuilder("carefully final deposits sleep furiously about the ");
            int k = 2 + r.nextInt(5);
            for (int w = 0; w < k; w++) {
                s.append(words[r.nextInt(words.length)]).append(' ');
            }
            s.append(String.format(Locale.ROOT, "%d", r.nextInt(1000)));
            out.add(s.toString());
        }
        return out;
    }

    private void assertBalanced(List<List<String>> parts, int ranges, double most) throws Exception {
        int[][] bound = cut(parts, ranges);
        long[] count = RangeCut.counts(bound);
        assertEquals(ranges, count.length);
        long total = Arrays.stream(count).sum();
        long max = Arrays.stream(count).max().orElseThrow();
        assertTrue(max * ranges <= most * total,
                "largest range " + max + " of a mean " + total / ranges + ": " + Arrays.toString(count));
    }

    private int[][] cut(List<List<String>> parts, int ranges) throws Exception {
        return cut(parts, ranges, new int[parts.size()]);
    }

    /** Cuts the parts' runs; {@code last[k]}: the index in run k of part k's last string. */
    private int[][] cut(List<List<String>> parts, int ranges, int[] last) throws Exception {
        StringRuns runs = new StringRuns(dir.resolve("c" + ranges + ".runs.tmp"));
        try (Arena arena = Arena.ofShared()) {
            List<StringRuns.Run> list = new ArrayList<>();
            long strings = 0;
            for (List<String> part : parts) {
                StringRuns.Sorted sorted = runs.add(part);
                StringRuns.Run run = sorted.run();
                last[list.size()] = sorted.rank()[part.size() - 1];
                list.add(run);
                strings += run.count();
            }
            MemorySegment seg = runs.map(arena);
            int[][] bound = RangeCut.cut(seg, list, ranges);
            assertEquals(strings, Arrays.stream(RangeCut.counts(bound)).sum());
            for (int k = 0; k < list.size(); k++) {
                assertEquals(0, bound[0][k]);
                assertEquals(list.get(k).count(), bound[ranges][k]);
            }
            return bound;
        } finally {
            runs.discard();
        }
    }
}

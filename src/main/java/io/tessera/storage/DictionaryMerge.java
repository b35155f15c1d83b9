package io.tessera.storage;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.Future;

/**
 * Merges the sorted runs of a VARCHAR column ({@link StringRuns}) into its dictionary file on all cores. The value
 * space is cut into ranges of about equal string counts ({@link RangeCut}); each range merges its share of every run
 * on one thread (a tournament of the runs decided by offset-value codes, {@link RunTournament}), the threads claiming
 * ranges largest first ({@link ClaimedTasks}), numbering the distinct strings it meets and writing each run string's
 * number beside it (~number where the string was met before). A prefix sum over the ranges' counts and byte totals
 * then gives each range the place of its codes and bytes in the file, which the ranges fill, again in parallel, and
 * the file's CRC is taken in pieces on all cores ({@link Crc32cParts}). Afterwards each run string's slot holds its
 * code in the dictionary.
 */
final class DictionaryMerge {

    private static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    /** Strings a range merges at least, so that cutting costs little beside merging. */
    private static final long MIN_RANGE = 1 << 16;
    /** Strings a range merges at most, so that what placing it notes per distinct string (12 bytes) stays small. */
    private static final long MAX_RANGE = 1 << 22;
    /**
     * File bytes from which each range is forced once placed. The kernel would keep the written pages in memory
     * until the commit's last force, which then waits for the disk to write the whole file with the cores idle; a
     * range forced early is written while the other ranges are still placed and the column's codes rewritten.
     */
    static volatile long forceRangesFrom = 64L << 20;

    /** The written dictionary: its file's length and CRC-32C, its size, and its first and last string. */
    record Result(long length, long crc, int size, String min, String max) {
    }

    private final MemorySegment runs;
    private final List<StringRuns.Run> list;
    /** Per range r and run k: the run's strings [bound[r][k], bound[r + 1][k]) fall in the range. */
    private int[][] bound;
    private int[] codes;
    private long[] bytes;

    private DictionaryMerge(MemorySegment runs, List<StringRuns.Run> list) {
        this.runs = runs;
        this.list = list;
    }

    /** Merges {@code list}, stored in {@code runs}, into a dictionary file at {@code file}; names {@code column}. */
    static Result merge(MemorySegment runs, List<StringRuns.Run> list, Path file, String column) throws IOException {
        try (FileSyncs syncs = new FileSyncs(file.toString())) {
            Result r = merge(runs, list, file, column, syncs);
            syncs.await();
            return r;
        }
    }

    /** As {@link #merge(MemorySegment, List, Path, String)}, handing the forcing of the file to {@code syncs}. */
    static Result merge(MemorySegment runs, List<StringRuns.Run> list, Path file, String column, FileSyncs syncs)
            throws IOException {
        return new DictionaryMerge(runs, list).run(file, column, syncs);
    }

    private Result run(Path file, String column, FileSyncs syncs) throws IOException {
        long total = 0;
        for (StringRuns.Run r : list) {
            total += r.count();
        }
        int ranges = (int) Math.max(1, Math.max(total / MAX_RANGE,
                Math.min(4L * Runtime.getRuntime().availableProcessors(), total / MIN_RANGE)));
        bound = RangeCut.cut(runs, list, ranges);
        codes = new int[ranges];
        bytes = new long[ranges];
        // the largest ranges first, each thread claiming the next: no range left to one thread at the end
        int[] order = ClaimedTasks.largestFirst(RangeCut.counts(bound));
        ClaimedTasks.run(order, this::number);
        long[] codeBase = new long[ranges + 1];
        long[] byteBase = new long[ranges + 1];
        for (int r = 0; r < ranges; r++) {
            codeBase[r + 1] = codeBase[r] + codes[r];
            byteBase[r + 1] = byteBase[r] + bytes[r];
        }
        long n = codeBase[ranges];
        if (n > DictionaryFile.MAX_SIZE) {
            throw new StorageException("column " + column + " has " + n + " distinct strings; a column holds at most "
                    + DictionaryFile.MAX_SIZE);
        }
        long dataAt = DictionaryFile.headerBytes(n);
        long length = dataAt + byteBase[ranges];
        FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ,
                StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING, LinkOption.NOFOLLOW_LINKS);
        Arena arena = Arena.ofShared();
        boolean handedOver = false;
        // a large file's ranges are forced as they are placed, so the disk writes beside the placing
        List<Future<?>> rangeForces = Collections.synchronizedList(new ArrayList<>());
        try {
            MemorySegment dict = ch.map(FileChannel.MapMode.READ_WRITE, 0, length, arena);
            DictionaryFile.putHeader(dict, n);
            dict.set(DictionaryFile.LONG, DictionaryFile.offsetAt(n), byteBase[ranges]);
            ClaimedTasks.run(order, r -> {
                place(r, dict, (int) codeBase[r], byteBase[r], dataAt);
                if (length >= forceRangesFrom && syncs.durable()) {
                    rangeForces.add(syncs.submit(() -> forceRange(dict, codeBase[r], codes[r],
                            dataAt + byteBase[r], bytes[r])));
                }
            });
            long crc = Crc32cParts.of(dict);
            DictionaryFile.Layout layout = DictionaryFile.layout(dict, file.toString());
            String min = n == 0 ? null : layout.string(dict, 0);
            String max = n == 0 ? null : layout.string(dict, (int) n - 1);
            // forced on a sync thread while the column's codes are rewritten; it then closes file and mapping
            syncs.submitForceAndClose(dict, ch, arena, List.copyOf(rangeForces));
            handedOver = true;
            return new Result(length, crc, (int) n, min, max);
        } finally {
            if (!handedOver) {
                FileSyncs.awaitQuietly(rangeForces); // no thread forces the mapping when it is closed
                try {
                    ch.close();
                } finally {
                    arena.close();
                }
            }
        }
    }

    /** A placed range's offsets and bytes forced to disk (the pages they share with the ranges beside too). */
    private static void forceRange(MemorySegment dict, long codeBase, int codeCount, long bytesAt, long byteCount) {
        if (codeCount > 0) {
            dict.asSlice(DictionaryFile.offsetAt(codeBase), 8L * codeCount).force();
        }
        if (byteCount > 0) {
            dict.asSlice(bytesAt, byteCount).force();
        }
    }

    // ------------------------------------------------------------------ numbering a range

    /**
     * Merges range {@code r} of every run: the distinct strings get numbers from 0 in order, written into each run
     * string's code slot; counts them and their bytes.
     */
    private void number(int r) {
        RunTournament t = new RunTournament(runs, list, bound[r], bound[r + 1]);
        int code = -1;
        long byteCount = 0;
        for (int q = t.winner(); q >= 0; q = t.advance(q)) {
            boolean repeat = t.repeats(q);
            if (!repeat) {
                code++;
                byteCount += t.length(q);
            }
            // a repeat as ~number: place copies each string's bytes from its first occurrence only
            runs.set(INT, list.get(q).codeAt(t.next[q]), repeat ? ~code : code);
        }
        codes[r] = code + 1;
        bytes[r] = byteCount;
    }

    // ------------------------------------------------------------------ placing a range in the file

    /**
     * Writes range {@code r}'s codes (its numbers plus {@code codeBase}) into the run slots, its strings' offsets and
     * bytes into the dictionary file. One pass over the runs' shares, {@value #CHUNK} strings at a time through
     * arrays (small loops, quick to compile), notes where each distinct string's first occurrence lies and how long
     * it is; the file is then written in code order, offsets and bytes front to back.
     */
    private void place(int r, MemorySegment dict, int codeBase, long byteBase, long dataAt) {
        int n = codes[r];
        long[] source = new long[n];
        int[] length = new int[n];
        int[] code = new int[CHUNK];
        int[] offset = new int[CHUNK + 1];
        for (int q = 0; q < list.size(); q++) {
            StringRuns.Run run = list.get(q);
            for (int from = bound[r][q]; from < bound[r + 1][q]; from += CHUNK) {
                int k = Math.min(CHUNK, bound[r + 1][q] - from);
                MemorySegment.copy(runs, INT, run.codeAt(from), code, 0, k);
                MemorySegment.copy(runs, INT, run.offsetsAt() + 4L * from, offset, 0, k + 1);
                firsts(run.bytesAt(), codeBase, code, offset, k, source, length);
                MemorySegment.copy(code, 0, runs, INT, run.codeAt(from), k);
            }
        }
        long[] slot = new long[Math.min(n, CHUNK)];
        long at = byteBase;
        for (int from = 0; from < n; from += CHUNK) {
            int k = Math.min(CHUNK, n - from);
            at = copyStrings(dict, dataAt, at, from, k, source, length, slot);
            MemorySegment.copy(slot, 0, dict, DictionaryFile.LONG, DictionaryFile.offsetAt(codeBase + from), k);
        }
    }

    /** Strings of a run's share read into arrays at a time in {@link #place}. */
    private static final int CHUNK = 1 << 13;

    /**
     * Notes where a chunk's first occurrences (numbers as written, not ~number) lie and their lengths, and makes each
     * number a code.
     */
    private static void firsts(long bytesAt, int codeBase, int[] code, int[] offset, int k, long[] source,
                               int[] length) {
        for (int i = 0; i < k; i++) {
            int c = code[i];
            if (c >= 0) {
                source[c] = bytesAt + offset[i];
                length[c] = offset[i + 1] - offset[i];
            } else {
                c = ~c;
            }
            code[i] = codeBase + c;
        }
    }

    /**
     * Copies the bytes of a range's strings {@code [from, from + k)} (its numbers) to the file from {@code at} on,
     * their offsets into {@code slot}; where the next string's bytes go.
     */
    private long copyStrings(MemorySegment dict, long dataAt, long at, int from, int k, long[] source, int[] length,
                             long[] slot) {
        for (int i = 0; i < k; i++) {
            slot[i] = at;
            int len = length[from + i];
            MemorySegment.copy(runs, source[from + i], dict, dataAt + at, len);
            at += len;
        }
        return at;
    }

    /** The codes in the merged dictionary of every string of {@code run}, read in one copy. */
    static int[] codes(MemorySegment runs, StringRuns.Run run) {
        int[] code = new int[run.count()];
        MemorySegment.copy(runs, INT, run.codeAt(0), code, 0, code.length);
        return code;
    }

    /** The code in the merged dictionary of string {@code i} of {@code run}. */
    static int code(MemorySegment runs, StringRuns.Run run, int i) {
        return runs.get(INT, run.codeAt(i));
    }
}

package io.tessera.storage;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.List;

/**
 * A tournament (loser tree) over the next strings of some sorted runs ({@link StringRuns}), each run read from a
 * first to an end index: yields the runs' strings in order, each telling whether it equals the one before it.
 *
 * <p>Matches are decided by offset-value codes, as numbers: a string's code against a base not above it says where
 * it first differs from the base (a later place is closer to the base, so smaller) and its byte there. Every string
 * on the path the winner left by has its code against that winner, as has the winner's successor in its run (their
 * first difference found once, in neighbouring bytes); two strings of different codes against one base are ordered
 * by their codes alone, and the loser's code against the winner is the one it had. Only equal codes look at the
 * strings' bytes, from past their common place. A code of 0 means equal to the base: the winner equals the string
 * output before it. A run's parse records each successor's first difference in the string's slot ({@link #successor}),
 * so that the merge reads the strings' bytes only where codes tie.
 */
final class RunTournament {

    private static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfLong BIG_LONG = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);
    /** Above any place in a string: a code is {@code (LIMIT - place) << 9 | byte + 1}, the end of a string 0. */
    private static final long LIMIT = 1L << 32;
    /** The code of a run with no string left: above every other. */
    private static final long DONE = Long.MAX_VALUE;

    private final MemorySegment runs;
    private final List<StringRuns.Run> list;
    private final int k;
    /** Run q's next string's index in it, and the index it ends before. */
    final int[] next;
    private final int[] end;
    /** Where run q's next string's bytes start in {@code runs}, and its length. */
    private final long[] start;
    private final int[] length;
    /** Run q's next string's offset-value code (see above). */
    private final long[] code;
    /** tree[0]: the winner; tree[1 .. k-1]: the loser of the match at that node (leaves are k + run). */
    private final int[] tree;
    /** Whether a string was output: the first is coded against the empty string, not against one output. */
    private boolean advanced;

    /** The runs of {@code list} in {@code runs}, run q from string {@code from[q]} to before {@code to[q]}. */
    RunTournament(MemorySegment runs, List<StringRuns.Run> list, int[] from, int[] to) {
        this.runs = runs;
        this.list = list;
        this.k = list.size();
        next = from.clone();
        end = to.clone();
        start = new long[k];
        length = new int[k];
        code = new long[k];
        tree = new int[Math.max(1, k)];
        for (int q = 0; q < k; q++) {
            if (load(q)) {
                // against the empty string, which is below every string
                code[q] = length[q] == 0 ? 0 : code(0, byteAt(start[q], length[q], 0));
            }
        }
        int[] winners = new int[2 * k];
        for (int q = 0; q < k; q++) {
            winners[k + q] = q;
        }
        for (int n = k - 1; n >= 1; n--) {
            int a = winners[2 * n];
            int b = winners[2 * n + 1];
            boolean aWins = wins(a, b);
            winners[n] = aWins ? a : b;
            tree[n] = aWins ? b : a;
        }
        if (k >= 2) {
            tree[0] = winners[1];
        }
    }

    /** Places from which a successor's first difference is not kept in its slot (it would not fit in an int). */
    private static final int MAX_KEPT = 1 << 22;

    /**
     * What a run's slot keeps of string {@code s} ({@code len} bytes at {@code from}) before the merge: where it first
     * differs from {@code prev} (bytes {@code [prevFrom, prevTo)}), the string before it in the run, which is below
     * it: {@code place << 9 | byte + 1}; 0 (the merge finds it) where the place is too far.
     */
    static int successor(byte[] prev, int prevFrom, int prevTo, byte[] s, int from, int len) {
        int at = Arrays.mismatch(prev, prevFrom, prevTo, s, from, from + len);
        if (at < 0 || at >= MAX_KEPT || at >= len
                || (prevFrom + at < prevTo && (prev[prevFrom + at] & 0xff) > (s[from + at] & 0xff))) {
            return 0; // equal, too far, or below prev (not a successor): left to the merge
        }
        return at << 9 | ((s[from + at] & 0xff) + 1);
    }

    /** The run holding the smallest next string, or -1 when every run is merged. */
    int winner() {
        return k == 0 || code[tree[0]] == DONE ? -1 : tree[0];
    }

    /** Whether the winner equals the string output before it (never true of the first). */
    boolean repeats(int q) {
        return advanced && code[q] == 0;
    }

    /** The length in bytes of run q's next string. */
    int length(int q) {
        return length[q];
    }

    /** Moves run {@code q} (the winner) on to its next string and replays its matches; the new winner. */
    int advance(int q) {
        advanced = true;
        long prevStart = start[q];
        int prevLength = length[q];
        next[q]++;
        if (load(q)) {
            int kept = runs.get(INT, list.get(q).codeAt(next[q]));
            if (kept != 0) {
                code[q] = code(kept >>> 9, kept & 511);
            } else {
                // a run's strings are distinct and ascending: the successor differs from the winner somewhere
                int at = mismatch(prevStart, prevLength, start[q], length[q], 0);
                code[q] = code(at, byteAt(start[q], length[q], at));
            }
        }
        int w = q;
        for (int n = (q + k) >>> 1; n >= 1; n >>>= 1) {
            int t = tree[n];
            if (wins(t, w)) {
                tree[n] = w;
                w = t;
            }
        }
        tree[0] = w;
        return winner();
    }

    /** Reads run q's next string's place and length; false (and its code DONE) when the run has none left. */
    private boolean load(int q) {
        if (next[q] >= end[q]) {
            code[q] = DONE;
            return false;
        }
        StringRuns.Run run = list.get(q);
        long offsets = run.offsetsAt() + 4L * next[q];
        int from = runs.get(INT, offsets);
        start[q] = run.bytesAt() + from;
        length[q] = runs.get(INT, offsets + 4) - from;
        return true;
    }

    /**
     * Whether a's string comes before b's, both coded against one base; the loser's code is made its code against the
     * winner. Equal strings: the lower run first, the other then coded 0.
     */
    private boolean wins(int a, int b) {
        long x = code[a];
        long y = code[b];
        if (x != y) {
            return x < y;
        }
        if (x == DONE || x == 0) {
            return a < b; // both done, or both equal to the base and so to each other
        }
        int from = (int) (LIMIT - (x >>> 9)) + 1;
        int at = mismatch(start[a], length[a], start[b], length[b], from);
        if (at < 0) {
            code[a < b ? b : a] = 0;
            return a < b;
        }
        int ba = byteAt(start[a], length[a], at);
        int bb = byteAt(start[b], length[b], at);
        if (ba < bb) {
            code[b] = code(at, bb);
            return true;
        }
        code[a] = code(at, ba);
        return false;
    }

    private static long code(int at, int byteOrEnd) {
        return (LIMIT - at) << 9 | byteOrEnd;
    }

    /** The byte at {@code at} of a string plus one, or 0 past its end (a shorter string sorts first). */
    private int byteAt(long s, int len, int at) {
        return at < len ? (runs.get(ValueLayout.JAVA_BYTE, s + at) & 0xff) + 1 : 0;
    }

    /**
     * The first place from {@code from} where two strings differ (a byte, or one's end), -1 when they are equal;
     * they agree before {@code from}. Eight bytes at a time.
     */
    private int mismatch(long a, int la, long b, int lb, int from) {
        int n = Math.min(la, lb);
        int i = from;
        for (; i + 8 <= n; i += 8) {
            long x = runs.get(BIG_LONG, a + i);
            long y = runs.get(BIG_LONG, b + i);
            if (x != y) {
                return i + (Long.numberOfLeadingZeros(x ^ y) >>> 3);
            }
        }
        for (; i < n; i++) {
            if (runs.get(ValueLayout.JAVA_BYTE, a + i) != runs.get(ValueLayout.JAVA_BYTE, b + i)) {
                return i;
            }
        }
        return la == lb ? -1 : n;
    }
}

package io.tessera.backend.jvm.lib;

import io.tessera.backend.lower.Substrings;
import io.tessera.sql.SqlError;

import java.text.BreakIterator;
import java.text.Normalizer;
import java.util.Locale;

/**
 * DuckDB's grapheme functions, counted in the extended grapheme clusters of Unicode's segmentation (the JDK's
 * character BreakIterator), with the rules LEFT, RIGHT and SUBSTRING have for code points; and NFC_NORMALIZE.
 */
public final class UnicodeRuntime {

    private UnicodeRuntime() {
    }

    /** The offsets in s where its clusters start, and s's length last: one more than the clusters. */
    private static int[] boundaries(String s) {
        BreakIterator clusters = BreakIterator.getCharacterInstance(Locale.ROOT);
        clusters.setText(s);
        int[] bounds = new int[s.length() + 1];
        int n = 0;
        for (int b = clusters.first(); b != BreakIterator.DONE; b = clusters.next()) {
            bounds[n++] = b;
        }
        return java.util.Arrays.copyOf(bounds, n);
    }

    public static long lengthGrapheme(String s) {
        return s.isEmpty() ? 0 : boundaries(s).length - 1;
    }

    /** LEFT_GRAPHEME: the first n clusters; a negative n leaves out the last -n. */
    public static String leftGrapheme(String s, long n) {
        int[] b = boundaries(s);
        long size = b.length - 1;
        long keep = n >= 0 ? Math.min(n, size) : Math.max(0, size + Math.max(n, -size));
        return s.substring(0, b[(int) keep]);
    }

    /** RIGHT_GRAPHEME: the last n clusters; a negative n leaves out the first -n. */
    public static String rightGrapheme(String s, long n) {
        int[] b = boundaries(s);
        long size = b.length - 1;
        long skip = n >= 0 ? Math.max(0, size - n) : Math.min(size, -Math.max(n, -size));
        return s.substring(b[(int) skip]);
    }

    /** SUBSTRING_GRAPHEME without a length: the clusters from start to the end. */
    public static String substringGrapheme(String s, long start) {
        return substringGrapheme(s, start, Substrings.MAX_POSITION);
    }

    /**
     * SUBSTRING_GRAPHEME: the clusters from start (1 the first, a negative one counted back from the end) for length
     * (a negative length the clusters before start), as SUBSTRING takes code points.
     */
    public static String substringGrapheme(String s, long start, long length) {
        if (!Substrings.inRange(start)) {
            throw new SqlError("Substring offset outside of supported range (> " + Substrings.MAX_POSITION + ")");
        }
        if (!Substrings.inRange(length)) {
            throw new SqlError("Substring length outside of supported range (> " + Substrings.MAX_POSITION + ")");
        }
        int[] b = boundaries(s);
        long size = b.length - 1;
        long p = start > 0 ? start : start == 0 ? 0 : size + 1 + start;
        long lo = length >= 0 ? p : p + length;
        long hi = length >= 0 ? p + length : p;
        long from = Math.max(lo, 1) - 1;
        long to = Math.min(hi, size + 1) - 1;
        return from >= to ? "" : s.substring(b[(int) from], b[(int) to]);
    }

    /** NFC_NORMALIZE: Unicode's canonical composition (an e and a combining acute accent as one é). */
    public static String nfcNormalize(String s) {
        return Normalizer.normalize(s, Normalizer.Form.NFC);
    }
}

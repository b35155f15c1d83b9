package io.tessera.backend.jvm.lib;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HashMap;
import java.util.Map;

/**
 * DuckDB's string comparisons (on UTF-8 bytes, as DuckDB compares them), digests and TRANSLATE (on code points).
 */
public final class StringDistanceRuntime {

    private StringDistanceRuntime() {
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    public static long levenshtein(String s, String t) {
        byte[] a = bytes(s);
        byte[] b = bytes(t);
        long[] prev = new long[b.length + 1];
        long[] cur = new long[b.length + 1];
        for (int j = 0; j <= b.length; j++) {
            prev[j] = j;
        }
        for (int i = 1; i <= a.length; i++) {
            cur[0] = i;
            for (int j = 1; j <= b.length; j++) {
                long substitute = prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1);
                cur[j] = Math.min(substitute, Math.min(prev[j], cur[j - 1]) + 1);
            }
            long[] swap = prev;
            prev = cur;
            cur = swap;
        }
        return prev[b.length];
    }

    /** The unrestricted Damerau-Levenshtein distance (Lowrance and Wagner): a transposed pair may be edited again. */
    public static long damerauLevenshtein(String s, String t) {
        byte[] a = bytes(s);
        byte[] b = bytes(t);
        int inf = a.length + b.length;
        int[][] d = new int[a.length + 2][b.length + 2];
        d[0][0] = inf;
        for (int i = 0; i <= a.length; i++) {
            d[i + 1][0] = inf;
            d[i + 1][1] = i;
        }
        for (int j = 0; j <= b.length; j++) {
            d[0][j + 1] = inf;
            d[1][j + 1] = j;
        }
        Map<Byte, Integer> lastRow = new HashMap<>();
        for (int i = 1; i <= a.length; i++) {
            int lastMatchCol = 0;
            for (int j = 1; j <= b.length; j++) {
                int i1 = lastRow.getOrDefault(b[j - 1], 0);
                int j1 = lastMatchCol;
                int cost = 1;
                if (a[i - 1] == b[j - 1]) {
                    cost = 0;
                    lastMatchCol = j;
                }
                d[i + 1][j + 1] = Math.min(Math.min(d[i][j] + cost, d[i + 1][j] + 1),
                        Math.min(d[i][j + 1] + 1, d[i1][j1] + (i - i1 - 1) + 1 + (j - j1 - 1)));
            }
            lastRow.put(a[i - 1], i);
        }
        return d[a.length + 1][b.length + 1];
    }

    public static long hamming(String s, String t) {
        byte[] a = bytes(s);
        byte[] b = bytes(t);
        if (a.length == 0 && b.length == 0) {
            throw new IllegalArgumentException("Mismatch Function: Strings must be of length > 0!");
        }
        if (a.length != b.length) {
            throw new IllegalArgumentException("Mismatch Function: Strings must be of equal length!");
        }
        long differ = 0;
        for (int i = 0; i < a.length; i++) {
            if (a[i] != b[i]) {
                differ++;
            }
        }
        return differ;
    }

    public static double jaro(String s, String t) {
        return jaroOf(bytes(s), bytes(t));
    }

    private static double jaroOf(byte[] a, byte[] b) {
        if (a.length == 0 || b.length == 0) {
            return 0.0;
        }
        int window = Math.max(0, Math.max(a.length, b.length) / 2 - 1);
        boolean[] aMatched = new boolean[a.length];
        boolean[] bMatched = new boolean[b.length];
        int matches = 0;
        for (int i = 0; i < a.length; i++) {
            int from = Math.max(0, i - window);
            int to = Math.min(b.length - 1, i + window);
            for (int j = from; j <= to; j++) {
                if (!bMatched[j] && a[i] == b[j]) {
                    aMatched[i] = true;
                    bMatched[j] = true;
                    matches++;
                    break;
                }
            }
        }
        if (matches == 0) {
            return 0.0;
        }
        int transposed = 0;
        int k = 0;
        for (int i = 0; i < a.length; i++) {
            if (aMatched[i]) {
                while (!bMatched[k]) {
                    k++;
                }
                if (a[i] != b[k]) {
                    transposed++;
                }
                k++;
            }
        }
        double m = matches;
        return (m / a.length + m / b.length + (m - transposed / 2.0) / m) / 3.0;
    }

    /** Jaro's similarity raised by a common prefix of up to 4 bytes, scale 0.1, where it is above 0.7. */
    public static double jaroWinkler(String s, String t) {
        byte[] a = bytes(s);
        byte[] b = bytes(t);
        double jaro = jaroOf(a, b);
        if (jaro <= 0.7) {
            return jaro;
        }
        int prefix = 0;
        while (prefix < 4 && prefix < a.length && prefix < b.length && a[prefix] == b[prefix]) {
            prefix++;
        }
        return jaro + prefix * 0.1 * (1.0 - jaro);
    }

    public static long bitLength(String s) {
        return 8L * bytes(s).length;
    }

    public static String sha1(String s) {
        return digest("SHA-1", s);
    }

    public static String sha256(String s) {
        return digest("SHA-256", s);
    }

    private static String digest(String algorithm, String s) {
        try {
            return java.util.HexFormat.of().formatHex(MessageDigest.getInstance(algorithm).digest(bytes(s)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(algorithm + " is not available", e);
        }
    }

    /** Each code point of s found in from replaced by the one at its place in to, dropped where to is shorter. */
    public static String translate(String s, String from, String to) {
        int[] source = from.codePoints().toArray();
        int[] target = to.codePoints().toArray();
        StringBuilder out = new StringBuilder(s.length());
        s.codePoints().forEach(c -> {
            int at = -1;
            for (int i = 0; i < source.length; i++) {
                if (source[i] == c) {
                    at = i;
                    break;
                }
            }
            if (at < 0) {
                out.appendCodePoint(c);
            } else if (at < target.length) {
                out.appendCodePoint(target[at]);
            }
        });
        return out.toString();
    }

    /**
     * JACCARD: the distinct UTF-8 bytes both strings have over those either has, as DuckDB compares them (of bytes,
     * so that 'é' and 'e' share nothing); an error where either is empty.
     */
    public static double jaccard(String s, String t) {
        byte[] a = bytes(s);
        byte[] b = bytes(t);
        if (a.length == 0 || b.length == 0) {
            throw new IllegalArgumentException("Jaccard Function: An argument too short!");
        }
        java.util.BitSet x = new java.util.BitSet(256);
        java.util.BitSet y = new java.util.BitSet(256);
        for (byte c : a) {
            x.set(c & 0xFF);
        }
        for (byte c : b) {
            y.set(c & 0xFF);
        }
        java.util.BitSet both = (java.util.BitSet) x.clone();
        both.and(y);
        x.or(y);
        return (double) both.cardinality() / x.cardinality();
    }
}

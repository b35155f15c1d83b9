package io.tessera.backend.jvm.lib;

import java.nio.charset.StandardCharsets;

/**
 * DuckDB's GLOB ({@code s GLOB pattern}, {@code s ~~~ pattern}) on the strings' UTF-8 bytes, as DuckDB matches them:
 * {@code *} any bytes, {@code ?} one byte (so not one character beyond ASCII), {@code [abc]} and {@code [a-z]} one byte
 * of a set ({@code [!...]} not of it; a {@code ]} first in the set and a {@code -} last are themselves), {@code \x} the
 * byte x itself; every other byte itself, case counted. A set without its closing {@code ]}, or a {@code \} at the
 * end, matches nothing. The pattern is a value, read at run time.
 */
final class GlobMatch {

    private GlobMatch() {
    }

    static boolean matches(String s, String pattern) {
        return matches(s.getBytes(StandardCharsets.UTF_8), pattern.getBytes(StandardCharsets.UTF_8));
    }

    /**
     * The greedy match with one point to go back to: where the last {@code *} was, and the byte of {@code s} it next
     * takes, when what follows it fails.
     */
    private static boolean matches(byte[] s, byte[] p) {
        int si = 0;
        int pi = 0;
        int starP = -1;
        int starS = -1;
        while (si < s.length) {
            if (pi < p.length && p[pi] == '*') {
                starP = ++pi;
                starS = si;
                continue;
            }
            int next = pi < p.length ? step(s[si], p, pi) : FAIL;
            if (next == INVALID) {
                return false;
            }
            if (next != FAIL) {
                si++;
                pi = next;
                continue;
            }
            if (starP < 0) {
                return false;
            }
            pi = starP;
            si = ++starS;
        }
        while (pi < p.length && p[pi] == '*') {
            pi++;
        }
        return pi == p.length;
    }

    /** {@link #step}'s answer where the byte does not match at that point. */
    private static final int FAIL = -1;
    /** {@link #step}'s answer where the pattern is one that matches nothing (a set not closed, a last {@code \}). */
    private static final int INVALID = -2;

    /** Where the pattern goes on after matching byte {@code c} at {@code pi} (not a {@code *}), or FAIL or INVALID. */
    private static int step(byte c, byte[] p, int pi) {
        switch (p[pi]) {
            case '?' -> {
                return pi + 1;
            }
            case '\\' -> {
                if (pi + 1 == p.length) {
                    return INVALID;
                }
                return p[pi + 1] == c ? pi + 2 : FAIL;
            }
            case '[' -> {
                return set(c, p, pi + 1);
            }
            default -> {
                return p[pi] == c ? pi + 1 : FAIL;
            }
        }
    }

    /** A set from {@code i} (just after its {@code [}) to its {@code ]}: where the pattern goes on, or FAIL or INVALID. */
    private static int set(byte c, byte[] p, int i) {
        boolean negated = i < p.length && p[i] == '!';
        if (negated) {
            i++;
        }
        int first = i;
        boolean in = false;
        int u = c & 0xff;
        while (i < p.length) {
            if (p[i] == ']' && i > first) {
                return in != negated ? i + 1 : FAIL;
            }
            int lo = p[i] & 0xff;
            if (i + 2 < p.length && p[i + 1] == '-' && p[i + 2] != ']') {
                in |= u >= lo && u <= (p[i + 2] & 0xff);
                i += 3;
            } else {
                in |= u == lo;
                i++;
            }
        }
        return INVALID;
    }
}

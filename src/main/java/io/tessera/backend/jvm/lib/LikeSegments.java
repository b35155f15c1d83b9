package io.tessera.backend.jvm.lib;

import java.util.ArrayList;
import java.util.List;

/**
 * A LIKE pattern whose only wildcard is {@code %}, matched as its literal pieces in order ({@code String.startsWith},
 * {@code indexOf}, {@code endsWith}) instead of by a regular expression: {@code '%special%requests%'} over millions
 * of distinct comments is a search for two substrings, where the regular expression backtracks.
 *
 * <p>It reads the regular expression {@code sql.LikePattern.toRegex} makes ({@code .*} for {@code %}, {@code .} for
 * {@code _}, each other character quoted as {@code \Qc\E}); a pattern with {@code _} or in any other form has no
 * segments ({@link #of} returns null) and stays a regular expression.
 */
public final class LikeSegments {
    private final String[] pieces;
    private final boolean anchoredStart;
    private final boolean anchoredEnd;

    private LikeSegments(String[] pieces, boolean anchoredStart, boolean anchoredEnd) {
        this.pieces = pieces;
        this.anchoredStart = anchoredStart;
        this.anchoredEnd = anchoredEnd;
    }

    /** The pattern of {@code regex} as literal pieces between {@code %}s, or null where it has another form. */
    public static LikeSegments of(String regex) {
        List<String> pieces = new ArrayList<>();
        StringBuilder literal = new StringBuilder();
        boolean startsWithAny = regex.startsWith(".*");
        boolean endsWithAny = false;
        int i = 0;
        while (i < regex.length()) {
            if (regex.startsWith(".*", i)) {
                pieces.add(literal.toString());
                literal.setLength(0);
                i += 2;
                endsWithAny = true;
            } else if (regex.startsWith("\\Q", i)) {
                int end = regex.indexOf("\\E", i + 2);
                if (end < 0) {
                    return null;
                }
                literal.append(regex, i + 2, end);
                i = end + 2;
                endsWithAny = false;
            } else {
                return null; // '_' (a '.'), flags or anything else: a regular expression
            }
        }
        pieces.add(literal.toString());
        return new LikeSegments(pieces.toArray(new String[0]), !startsWithAny, !endsWithAny);
    }

    /**
     * The literal every match starts with: the first piece where no {@code %} precedes it, else empty. Where the
     * pattern is that literal and one {@code %} ({@link #onlyPrefix}), every string starting with it matches.
     */
    public String prefix() {
        return anchoredStart ? pieces[0] : "";
    }

    /** Whether the pattern is {@code 'literal%'}: a string matches exactly when it starts with {@link #prefix}. */
    public boolean onlyPrefix() {
        return anchoredStart && !anchoredEnd && pieces.length == 2 && pieces[1].isEmpty();
    }

    /** Whether {@code s} matches: the first piece at the start and the last at the end unless a {@code %} frees them. */
    public boolean matches(String s) {
        int n = pieces.length;
        if (n == 1) { // no '%' at all: the whole string
            return s.equals(pieces[0]);
        }
        String first = pieces[0];
        String last = pieces[n - 1];
        if (anchoredStart && !s.startsWith(first)) {
            return false;
        }
        int from = anchoredStart ? first.length() : 0;
        int to = s.length();
        if (anchoredEnd) {
            if (!s.endsWith(last) || s.length() - last.length() < from) {
                return false;
            }
            to = s.length() - last.length();
        }
        // the pieces between, each leftmost after the one before, within [from, to)
        for (int p = anchoredStart ? 1 : 0; p < (anchoredEnd ? n - 1 : n); p++) {
            String piece = pieces[p];
            if (piece.isEmpty()) {
                continue;
            }
            int at = s.indexOf(piece, from);
            if (at < 0 || at + piece.length() > to) {
                return false;
            }
            from = at + piece.length();
        }
        return true;
    }
}

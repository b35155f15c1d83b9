package io.tessera.sql;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.TreeSet;

/**
 * The names closest to a misspelt one, for an error's "did you mean": the known names within a few edits of it
 * (insertions, deletions, substitutions and swaps of two neighbouring letters, ignoring case), the closest first.
 */
public final class DidYouMean {

    /** At most this many names are suggested (those at the smallest distance, in name order). */
    private static final int MAX_SUGGESTIONS = 3;

    private DidYouMean() {
    }

    /**
     * {@code "; did you mean x?"} (or {@code x, y or z}) for the names closest to {@code name}, or the empty string
     * where none is close: a name of up to 4 letters may be one edit away, up to 8 two, longer ones three.
     */
    public static String hint(String name, Collection<String> known) {
        List<String> close = closest(name, known);
        if (close.isEmpty()) {
            return "";
        }
        StringBuilder s = new StringBuilder("; did you mean ");
        for (int i = 0; i < close.size(); i++) {
            s.append(i == 0 ? "" : i == close.size() - 1 ? " or " : ", ").append(close.get(i));
        }
        return s.append('?').toString();
    }

    /** The known names closest to {@code name} within the allowed distance, or none. */
    static List<String> closest(String name, Collection<String> known) {
        int length = name.length();
        return closest(name, known, length <= 4 ? 1 : length <= 8 ? 2 : 3);
    }

    /** The known names closest to {@code name} at most {@code limit} edits away, or none. */
    static List<String> closest(String name, Collection<String> known, int limit) {
        String n = name.toLowerCase(Locale.ROOT);
        int best = limit + 1;
        TreeSet<String> at = new TreeSet<>();
        for (String k : known) {
            String lower = k.toLowerCase(Locale.ROOT);
            if (lower.equals(n)) {
                continue; // the same name is no suggestion (it failed for another reason)
            }
            int d = distance(n, lower);
            if (d < best) {
                best = d;
                at.clear();
            }
            if (d == best) {
                at.add(k);
            }
        }
        return best > limit ? List.of() : new ArrayList<>(at).subList(0, Math.min(MAX_SUGGESTIONS, at.size()));
    }

    /** The optimal string alignment distance: edits of one character, and swaps of two adjacent ones. */
    static int distance(String a, String b) {
        int[][] d = new int[a.length() + 1][b.length() + 1];
        for (int i = 0; i <= a.length(); i++) {
            d[i][0] = i;
        }
        for (int j = 0; j <= b.length(); j++) {
            d[0][j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                int v = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
                if (i > 1 && j > 1 && a.charAt(i - 1) == b.charAt(j - 2) && a.charAt(i - 2) == b.charAt(j - 1)) {
                    v = Math.min(v, d[i - 2][j - 2] + 1);
                }
                d[i][j] = v;
            }
        }
        return d[a.length()][b.length()];
    }
}

package io.tessera.cli;

import java.util.List;
import java.util.Locale;

/**
 * The known name closest to a misspelt one, for "did you mean": a name the typed word starts or that starts it
 * ({@code --form}, {@code --formats} for {@code --format}), an abbreviation either way ({@code --database} holds the
 * letters of {@code --db} in order, from the same first letter), else a name within a few edits.
 */
final class Suggestions {

    private Suggestions() {
    }

    /** The closest of {@code known} to {@code typed}, or null when none is close. */
    static String closest(String typed, List<String> known) {
        String t = bare(typed);
        if (t.isEmpty()) {
            return null;
        }
        String best = null;
        int bestScore = Integer.MAX_VALUE;
        for (String k : known) {
            String n = bare(k);
            if (n.isEmpty()) {
                continue;
            }
            if (n.equals(t)) {
                return k; // -db for --db
            }
            int score = score(t, n);
            if (score < bestScore) {
                bestScore = score;
                best = k;
            }
        }
        return bestScore == Integer.MAX_VALUE ? null : best;
    }

    /**
     * Lower is closer; {@link Integer#MAX_VALUE} when not close at all. Prefixes first, then abbreviations, then
     * edit distance (at most a third of the longer word, and at least 1 or 2 by length).
     */
    static int score(String typed, String name) {
        if (typed.startsWith(name) || name.startsWith(typed)) {
            return Math.abs(typed.length() - name.length());
        }
        if (typed.charAt(0) == name.charAt(0) && (inOrder(name, typed) || inOrder(typed, name))) {
            return 100 + Math.abs(typed.length() - name.length());
        }
        int d = distance(typed, name);
        int limit = Math.max(typed.length() <= 4 ? 1 : 2, Math.max(typed.length(), name.length()) / 3);
        return d <= limit ? 1000 + d : Integer.MAX_VALUE;
    }

    /** Whether the letters of {@code shorter} occur in {@code longer} in their order. */
    private static boolean inOrder(String shorter, String longer) {
        int i = 0;
        for (int j = 0; j < longer.length() && i < shorter.length(); j++) {
            if (longer.charAt(j) == shorter.charAt(i)) {
                i++;
            }
        }
        return i == shorter.length() && shorter.length() >= 2;
    }

    /** Levenshtein distance. */
    static int distance(String a, String b) {
        int[] prev = new int[b.length() + 1];
        int[] cur = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            prev[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            cur[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int same = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                cur[j] = Math.min(Math.min(cur[j - 1] + 1, prev[j] + 1), prev[j - 1] + same);
            }
            int[] t = prev;
            prev = cur;
            cur = t;
        }
        return prev[b.length()];
    }

    private static String bare(String s) {
        int i = 0;
        while (i < s.length() && (s.charAt(i) == '-' || s.charAt(i) == '\\' || s.charAt(i) == '.')) {
            i++;
        }
        return s.substring(i).toLowerCase(Locale.ROOT);
    }
}

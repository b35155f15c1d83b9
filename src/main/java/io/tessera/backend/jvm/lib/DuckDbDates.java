package io.tessera.backend.jvm.lib;

import java.util.Locale;

/**
 * The texts of a date that DuckDB's CAST to DATE reads besides a calendar date's digits: {@code epoch}
 * (1970-01-01) and a date of the years BC ({@code 0001-01-01 (BC)}, the day after 0001-12-31 (BC), year 0 of the
 * proleptic calendar, which {@code 0000-01-01} also names). DuckDB's {@code infinity} and {@code -infinity} are
 * refused: a Tessera date is a day.
 */
final class DuckDbDates {
    private DuckDbDates() {
    }

    private static final String BC = "(BC)";
    private static final java.util.regex.Pattern DATE = java.util.regex.Pattern.compile("([0-9]{1,7})-([0-9]{1,2})-([0-9]{1,2})");

    /** The days since 1970-01-01 of such text (trimmed), or null where it is none of them. */
    static Integer special(String t) {
        String lower = t.toLowerCase(Locale.ROOT);
        if (lower.equals("epoch")) {
            return 0;
        }
        if (lower.equals("infinity") || lower.equals("-infinity")) {
            throw new IllegalArgumentException("unsupported: the date '" + t + "' (DuckDB's infinite date)");
        }
        if (!t.endsWith(BC) || t.length() == BC.length()
                || !Character.isWhitespace(t.charAt(t.length() - BC.length() - 1))) {
            return null;
        }
        java.util.regex.Matcher m = DATE.matcher(t.substring(0, t.length() - BC.length()).strip());
        int year = m.matches() ? Integer.parseInt(m.group(1)) : 0;
        if (year < 1) {
            return null; // 0000-01-01 (BC) names no day
        }
        try {
            // the day of that year BC, by its own leap years (5 BC, year -4, has a February 29)
            return io.tessera.storage.Values.checkedDate(java.time.LocalDate.of(1 - year,
                    Integer.parseInt(m.group(2)), Integer.parseInt(m.group(3))).toEpochDay(), t);
        } catch (java.time.DateTimeException e) {
            throw new IllegalArgumentException("invalid date '" + t + "'", e);
        }
    }
}

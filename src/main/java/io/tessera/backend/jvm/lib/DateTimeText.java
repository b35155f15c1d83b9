package io.tessera.backend.jvm.lib;

import io.tessera.storage.Timestamps;
import io.tessera.storage.Values;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The spellings of a date, or a date and time, that DuckDB's CAST of text to DATE or TIMESTAMP reads beyond
 * {@code yyyy-mm-dd[ hh:mm[:ss[.f]]]}: the date's parts separated by {@code /} or a space as well as {@code -}
 * (the same twice: {@code 2024/1/1}), and for a DATE a time of day after it, which the date drops ({@code '2024-01-01 10:00:00'::DATE} is 2024-01-01). Each is rewritten into the
 * form {@link Timestamps#parse} reads, which then decides (an hour of 25 or text after the time still fails).
 */
final class DateTimeText {
    private DateTimeText() {
    }

    private static final Pattern SPELLING = Pattern.compile(
            "([0-9]{1,7})([-/ ])([0-9]{1,2})\\2([0-9]{1,2})(?:(?:T| +)([0-9]{1,2}):([0-9]{1,2})(?::([0-9]{1,2})(\\.[0-9]+)?)?)?(.*)");

    /** The date of such text (trimmed) as days since 1970-01-01, or null where the text is no such spelling. */
    static Integer days(String t) {
        Matcher m = matched(t);
        if (m == null) {
            return null;
        }
        if (m.group(5) == null) {
            // a date alone: DATE's range, wider than TIMESTAMP's, its year of at least 4 digits
            String year = m.group(1);
            return Values.parseDate("0".repeat(Math.max(0, 4 - year.length())) + date(m));
        }
        Timestamps.parse(canonical(m)); // the whole text must read, its time of day too
        return Timestamps.days(Timestamps.parse(date(m)));
    }

    /** The microseconds of such text (trimmed), or null where the text is no such spelling. */
    static Long micros(String t) {
        String c = canonical(t);
        return c == null ? null : Timestamps.parse(c);
    }

    /** Such text (trimmed) in the form {@link Timestamps#parse} reads, its offset kept; null where it is none. */
    static String canonical(String t) {
        Matcher m = matched(t);
        return m == null ? null : canonical(m);
    }

    /** The parts of such text, or null; after a date without a time only spaces ({@code 2024-01-01T} is none). */
    private static Matcher matched(String t) {
        Matcher m = SPELLING.matcher(t);
        return m.matches() && (m.group(5) != null || m.group(9).isBlank()) ? m : null;
    }

    private static String date(Matcher m) {
        return m.group(1) + "-" + two(m.group(3)) + "-" + two(m.group(4));
    }

    private static String canonical(Matcher m) {
        StringBuilder b = new StringBuilder(date(m));
        if (m.group(5) != null) {
            b.append(' ').append(two(m.group(5))).append(':').append(two(m.group(6)));
            if (m.group(7) != null) {
                b.append(':').append(two(m.group(7)));
                if (m.group(8) != null) {
                    b.append(m.group(8));
                }
            }
        }
        return b.append(m.group(9)).toString();
    }

    private static String two(String digits) {
        return digits.length() == 1 ? "0" + digits : digits;
    }
}

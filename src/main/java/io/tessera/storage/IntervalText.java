package io.tessera.storage;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Locale;

/**
 * Reads an INTERVAL from the text DuckDB reads: numbers with units ({@code 1 year 2 months 3 days}, {@code 90 minutes},
 * {@code 1.5 hours}, {@code 2 weeks}, abbreviations such as {@code mon}, {@code h}, {@code m}, {@code us}), a time
 * of day's form ({@code 04:05:06.5}, {@code -04:05}, {@code 100:00:00}), repeated units added, and {@code ago}
 * negating the whole. Anything else is an error that names the text, never a guess.
 */
public final class IntervalText {
    private IntervalText() {
    }

    public static Interval parse(String text) {
        String s = text.strip().toLowerCase(Locale.ROOT);
        boolean ago = false;
        if (s.endsWith(" ago")) {
            ago = true;
            s = s.substring(0, s.length() - 4).strip();
        }
        if (s.isEmpty()) {
            throw invalid(text);
        }
        long months = 0;
        long days = 0;
        long micros = 0;
        int i = 0;
        int n = s.length();
        while (i < n) {
            if (s.charAt(i) == ' ') {
                i++;
                continue;
            }
            int start = i;
            if (s.charAt(i) == '-') {
                i++;
            }
            int digits = i;
            while (i < n && (Character.isDigit(s.charAt(i)) || s.charAt(i) == '.')) {
                i++;
            }
            if (i == digits) {
                throw invalid(text);
            }
            if (i < n && s.charAt(i) == ':') {
                while (i < n && s.charAt(i) != ' ') {
                    i++;
                }
                micros = Math.addExact(micros, time(s.substring(start, i), text));
                continue;
            }
            BigDecimal amount;
            try {
                amount = new BigDecimal(s.substring(start, i));
            } catch (NumberFormatException e) {
                throw invalid(text);
            }
            while (i < n && s.charAt(i) == ' ') {
                i++;
            }
            int u = i;
            while (i < n && Character.isLetter(s.charAt(i))) {
                i++;
            }
            String unit = s.substring(u, i);
            long perUnit = switch (unit) {
                case "us", "usec", "usecs", "microsecond", "microseconds" -> 1;
                case "ms", "msec", "msecs", "millisecond", "milliseconds" -> 1_000;
                case "s", "sec", "secs", "second", "seconds" -> Interval.MICROS_PER_SECOND;
                case "m", "min", "mins", "minute", "minutes" -> Interval.MICROS_PER_MINUTE;
                case "h", "hr", "hrs", "hour", "hours" -> Interval.MICROS_PER_HOUR;
                default -> 0;
            };
            if (perUnit != 0) {
                micros = Math.addExact(micros, exact(amount.multiply(BigDecimal.valueOf(perUnit)), text));
                continue;
            }
            int dayUnit = switch (unit) {
                case "d", "day", "days" -> 1;
                case "w", "week", "weeks" -> 7;
                default -> 0;
            };
            if (dayUnit != 0) {
                BigDecimal d = amount.multiply(BigDecimal.valueOf(dayUnit));
                BigDecimal whole = d.setScale(0, RoundingMode.DOWN);
                days = Math.addExact(days, exact(whole, text));
                micros = Math.addExact(micros, exact(d.subtract(whole).multiply(BigDecimal.valueOf(Interval.MICROS_PER_DAY)), text));
                continue;
            }
            int monthUnit = switch (unit) {
                case "mon", "mons", "month", "months" -> 1;
                case "quarter", "quarters" -> 3;
                case "y", "yr", "yrs", "year", "years" -> 12;
                case "decade", "decades" -> 120;
                case "century", "centuries" -> 1_200;
                case "millennium", "millennia", "millenniums" -> 12_000;
                default -> throw new IllegalArgumentException("invalid interval '" + text + "': unknown unit '"
                        + unit + "'");
            };
            if (amount.stripTrailingZeros().scale() > 0) {
                throw new IllegalArgumentException("invalid interval '" + text + "': a fraction of " + unit
                        + " (write it in smaller units)");
            }
            months = Math.addExact(months, exact(amount.multiply(BigDecimal.valueOf(monthUnit)), text));
        }
        Interval v;
        try {
            v = new Interval(Math.toIntExact(months), Math.toIntExact(days), micros);
        } catch (ArithmeticException e) {
            throw new IllegalArgumentException("invalid interval '" + text + "': out of range");
        }
        return ago ? v.negate() : v;
    }

    /** [-]H:MM[:SS[.ffffff]] as microseconds. */
    private static long time(String t, String text) {
        boolean negative = t.startsWith("-");
        String[] parts = (negative ? t.substring(1) : t).split(":", -1);
        if (parts.length < 2 || parts.length > 3 || parts[0].isEmpty() || parts[0].contains(".")
                || !parts[1].matches("\\d{1,2}") || parts.length == 3 && !parts[2].matches("\\d{1,2}(\\.\\d+)?")) {
            throw invalid(text);
        }
        long micros = Math.addExact(Math.multiplyExact(Long.parseLong(parts[0]), Interval.MICROS_PER_HOUR),
                Long.parseLong(parts[1]) * Interval.MICROS_PER_MINUTE);
        if (parts.length == 3) {
            BigDecimal sec = new BigDecimal(parts[2]).multiply(BigDecimal.valueOf(Interval.MICROS_PER_SECOND));
            micros = Math.addExact(micros, sec.setScale(0, RoundingMode.DOWN).longValueExact());
        }
        return negative ? -micros : micros;
    }

    private static long exact(BigDecimal v, String text) {
        try {
            return v.setScale(0, RoundingMode.DOWN).longValueExact();
        } catch (ArithmeticException e) {
            throw new IllegalArgumentException("invalid interval '" + text + "': out of range");
        }
    }

    private static IllegalArgumentException invalid(String text) {
        return new IllegalArgumentException("invalid interval '" + text + "'");
    }
}

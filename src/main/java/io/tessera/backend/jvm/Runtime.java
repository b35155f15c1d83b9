package io.tessera.backend.jvm;

import io.tessera.storage.CodePointOrder;
import io.tessera.storage.Dictionary;
import io.tessera.storage.Values;

import java.time.LocalDate;
import java.time.temporal.IsoFields;
import java.util.regex.Pattern;

/** Helpers that generated code calls for what is not worth writing inline. */
public final class Runtime {
    private Runtime() {
    }

    public static int extract(String unit, int days) {
        LocalDate d = LocalDate.ofEpochDay(days);
        return switch (unit) {
            case "YEAR" -> d.getYear();
            case "QUARTER" -> (d.getMonthValue() - 1) / 3 + 1;
            case "MONTH" -> d.getMonthValue();
            case "DAY" -> d.getDayOfMonth();
            case "DOW" -> d.getDayOfWeek().getValue() % 7 + 1; // SQL: Sunday = 1
            case "DOY" -> d.getDayOfYear();
            case "WEEK" -> d.get(IsoFields.WEEK_OF_WEEK_BASED_YEAR);
            default -> throw new IllegalArgumentException("EXTRACT " + unit);
        };
    }

    public static int addMonths(int days, long months) {
        return (int) LocalDate.ofEpochDay(days).plusMonths(months).toEpochDay();
    }

    /** For each code of the dictionary, whether its string matches the pattern. */
    public static boolean[] likeMask(Dictionary d, String regex) {
        Pattern p = Pattern.compile(regex, Pattern.DOTALL);
        boolean[] m = new boolean[d.size()];
        for (int i = 0; i < m.length; i++) {
            m[i] = p.matcher(d.value(i)).matches();
        }
        return m;
    }

    /** Which codes of a dictionary are one of these strings (an IN list over a dictionary column). */
    public static boolean[] inMask(Dictionary d, String[] values) {
        boolean[] m = new boolean[d.size()];
        for (String v : values) {
            int code = d.code(v);
            if (code >= 0) {
                m[code] = true;
            }
        }
        return m;
    }

    /**
     * Ranks of two dictionaries' codes in their merged order, so codes of different dictionaries compare as their
     * strings do: result[0][codeA] vs result[1][codeB].
     */
    public static int[][] mergedRanks(Dictionary a, Dictionary b) {
        int[] ra = new int[a.size()];
        int[] rb = new int[b.size()];
        int i = 0;
        int j = 0;
        int rank = 0;
        while (i < ra.length || j < rb.length) {
            int c = i >= ra.length ? 1 : j >= rb.length ? -1 : CodePointOrder.compare(a.value(i), b.value(j));
            if (c == 0) {
                ra[i++] = rank;
                rb[j++] = rank;
            } else if (c < 0) {
                ra[i++] = rank;
            } else {
                rb[j++] = rank;
            }
            rank++;
        }
        return new int[][] {ra, rb};
    }

    /** For each code of {@code from}, the code of the same string in {@code to}, or -1. */
    public static int[] codeMap(Dictionary from, Dictionary to) {
        int[] m = new int[from.size()];
        for (int i = 0; i < m.length; i++) {
            m[i] = to.code(from.value(i));
        }
        return m;
    }

    public static ArithmeticException divisionByZero() {
        return new ArithmeticException("division by zero");
    }

    public static long div(long a, long b) {
        if (b == 0) {
            throw divisionByZero();
        }
        return a / b;
    }

    public static int div(int a, int b) {
        if (b == 0) {
            throw divisionByZero();
        }
        return a / b;
    }

    public static long mod(long a, long b) {
        if (b == 0) {
            throw divisionByZero();
        }
        return a % b;
    }

    public static int mod(int a, int b) {
        if (b == 0) {
            throw divisionByZero();
        }
        return a % b;
    }

    /** Rescales an unscaled decimal by 10^shift (shift may be negative: rounds half away from zero). */
    public static long rescale(long v, int shift) {
        if (shift >= 0) {
            return Math.multiplyExact(v, Values.pow10(shift));
        }
        long p = Values.pow10(-shift);
        long q = v / p;
        long r = v % p;
        if (Math.abs(r) * 2 >= p) {
            q += v < 0 ? -1 : 1;
        }
        return q;
    }

    /** DOUBLE to an integer kind, rounding half away from zero, failing when it does not fit. */
    public static long doubleToLong(double d, long min, long max) {
        if (Double.isNaN(d)) {
            throw new ArithmeticException("cannot convert NaN to an integer");
        }
        double r = Math.round(d);
        if (d < 0 && d - Math.floor(d) == 0.5) {
            r = Math.floor(d);
        }
        if (r < min || r > max) {
            throw new ArithmeticException("value " + d + " out of range");
        }
        return (long) r;
    }

    public static long checkRange(long v, long min, long max) {
        if (v < min || v > max) {
            throw new ArithmeticException("value " + v + " out of range");
        }
        return v;
    }

    public static String decimalToString(long unscaled, int scale) {
        return Values.formatDecimal(unscaled, scale);
    }

    public static String dateToString(int days) {
        return LocalDate.ofEpochDay(days).toString();
    }

    public static String doubleToString(double d) {
        return Values.formatDouble(d);
    }

    public static long parseLong(String s) {
        return Values.parseLong(s.trim(), Long.MIN_VALUE, Long.MAX_VALUE, "integer");
    }

    public static double parseDouble(String s) {
        try {
            return Double.parseDouble(s.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("invalid number '" + s + "'");
        }
    }

    public static long parseDecimal(String s, int precision, int scale) {
        return Values.parseDecimal(s.trim(), precision, scale);
    }

    public static int parseDate(String s) {
        return Values.parseDate(s.trim());
    }
}

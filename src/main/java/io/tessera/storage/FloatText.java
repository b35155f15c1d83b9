package io.tessera.storage;

/**
 * DOUBLE and REAL values as text, digit for digit as DuckDB 2.0 writes them (in results, CSV, and CAST to VARCHAR):
 * the shortest digits that read back as the value ({@link GrisuDigits}, else {@link ExactDigits}), written out where
 * the first digit's power of ten lies in [-4, 16) ({@code 0.0001}, {@code 100.0}, {@code 1000000000000000.0}), else
 * with an exponent of at least two digits ({@code 1e+16}, {@code 1.5e-07}); {@code nan}, {@code -nan} (a NaN whose
 * sign bit is set), {@code inf}, {@code -inf}, {@code -0.0}.
 *
 * <p>A REAL's digits are the shortest for the float where Grisu finds them; where it gives up (a tie between two
 * shortest candidates, as 1160166.25 between 1160166.2 and 1160166.3, or digits on a boundary, as 241435000 for
 * 241435008) DuckDB writes the shortest digits of the double the float widens to, and so does this (1160166.25,
 * 241435008.0). About one float in 25 of those with six to nine digits before the point is such a case.
 */
public final class FloatText {
    private FloatText() {
    }

    /** A DOUBLE's text. */
    public static String ofDouble(double d) {
        return of(d, false);
    }

    /** A REAL's text ({@code d} is rounded to float first). */
    public static String ofReal(double d) {
        return of((float) d, true);
    }

    private static String of(double d, boolean real) {
        if (Double.isNaN(d)) {
            return Double.doubleToRawLongBits(d) < 0 ? "-nan" : "nan";
        }
        if (Double.isInfinite(d)) {
            return d > 0 ? "inf" : "-inf";
        }
        if (d == 0) {
            return 1 / d < 0 ? "-0.0" : "0.0";
        }
        double abs = Math.abs(d);
        DecimalDigits digits = new DecimalDigits();
        if (!GrisuDigits.shortest(abs, real, digits)) {
            // DuckDB's exact method then takes a REAL as a double; Grisu finds a double's digits as the exact method
            // does, faster, where it does not give up in turn (nearly always for a float's double)
            int estimate = digits.exponent;
            if (!real || !GrisuDigits.shortest(abs, false, digits)) {
                ExactDigits.shortest(abs, estimate, digits);
            }
        }
        return layout(digits, d < 0);
    }

    /** The digits laid out as DuckDB does (fmt's general format with a decimal point always shown). */
    static String layout(DecimalDigits digits, boolean negative) {
        byte[] text = new byte[digits.count + 26];
        int n = 0;
        if (negative) {
            text[n++] = '-';
        }
        int count = digits.count;
        int first = digits.firstExponent();
        int start = n;
        if (first >= -4 && first < 16) {
            if (first < 0) { // 0.00ddd
                text[n++] = '0';
                text[n++] = '.';
                for (int i = -1; i > first; i--) {
                    text[n++] = '0';
                }
                n = writeDigits(digits.significand, count, text, n);
            } else if (digits.exponent >= 0) { // ddd000.0
                n = writeDigits(digits.significand, count, text, n);
                for (int i = 0; i < digits.exponent; i++) {
                    text[n++] = '0';
                }
                text[n++] = '.';
                text[n++] = '0';
            } else { // dd.ddd
                n = writeDigits(digits.significand, count, text, n + 1);
                System.arraycopy(text, start + 1, text, start, first + 1);
                text[start + first + 1] = '.';
            }
        } else { // d.ddde+XX
            n = writeDigits(digits.significand, count, text, n + 1);
            text[start] = text[start + 1];
            if (count > 1) {
                text[start + 1] = '.';
            } else {
                n--;
            }
            text[n++] = 'e';
            text[n++] = (byte) (first < 0 ? '-' : '+');
            int e = Math.abs(first);
            if (e >= 100) {
                text[n++] = (byte) ('0' + e / 100);
            }
            text[n++] = (byte) ('0' + e / 10 % 10);
            text[n++] = (byte) ('0' + e % 10);
        }
        return new String(text, 0, n, java.nio.charset.StandardCharsets.ISO_8859_1);
    }

    /** {@code count} digits of {@code significand} (zeros on the left as needed) at {@code at}; the end. */
    private static int writeDigits(long significand, int count, byte[] text, int at) {
        long rest = significand;
        for (int i = at + count - 1; i >= at; i--) {
            text[i] = (byte) ('0' + rest % 10);
            rest /= 10;
        }
        return at + count;
    }
}

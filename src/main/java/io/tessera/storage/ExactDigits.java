package io.tessera.storage;

import java.math.BigInteger;

/**
 * The shortest digits of a double where {@link GrisuDigits} gives up, as DuckDB's Steele and White free-format method
 * (FPP², 1990) finds them in exact integers: digits of the value generated from a first power of ten until the digits
 * so far, or they with the last one raised, lie within the value's boundaries (boundaries count as within for an even
 * significand, which reads back by rounding to even); where both do, the nearer, a tie to the even last digit. Always
 * a double's boundaries, also for a REAL, as DuckDB's method has it. The same digits come from the JDK faster, where
 * there are more than two.
 */
final class ExactDigits {
    private ExactDigits() {
    }

    /**
     * The digits of {@code v} (positive, finite, not zero) into {@code out}: the JDK's, which are the shortest and
     * nearest as this method's (Double.toString since JDK 19) but never fewer than two, where they have more than two
     * significant digits; else this method's own ({@link #exact}).
     */
    static void shortest(double v, int firstExponent, DecimalDigits out) {
        if (!fromJdk(Double.toString(v), out)) {
            exact(v, firstExponent, out);
        }
    }

    /** The significant digits of the JDK's text of a double into {@code out}; false where they are two or fewer. */
    static boolean fromJdk(String text, DecimalDigits out) {
        long significand = 0;
        int count = 0;
        int fractionDigits = 0;
        boolean fraction = false;
        int i = 0;
        for (; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '.') {
                fraction = true;
            } else if (c >= '0' && c <= '9') {
                if (count > 0 || c != '0') {
                    significand = significand * 10 + (c - '0');
                    count++;
                }
                if (fraction) {
                    fractionDigits++;
                }
            } else {
                break; // 'E'
            }
        }
        int exponent = i < text.length() ? Integer.parseInt(text, i + 1, text.length(), 10) : 0;
        exponent -= fractionDigits;
        while (count > 0 && significand % 10 == 0) {
            significand /= 10;
            count--;
            exponent++;
        }
        if (count <= 2) {
            return false;
        }
        out.significand = significand;
        out.count = count;
        out.exponent = exponent;
        return true;
    }

    /**
     * The digits of {@code v} (positive, finite, not zero) into {@code out} by FPP² in exact integers, starting at
     * the power of ten {@code firstExponent}: Grisu's estimate, from the upper boundary, which is the value's or one
     * above (then the first digit is a zero, as in DuckDB).
     */
    static void exact(double v, int firstExponent, DecimalDigits out) {
        long bits = Double.doubleToRawLongBits(v);
        long f = bits & ((1L << 52) - 1);
        int biased = (int) (bits >>> 52);
        boolean lowerCloser = f == 0 && biased > 1;
        if (biased != 0) {
            f += 1L << 52;
        } else {
            biased = 1;
        }
        int e = biased - 1075;
        // numerator / denominator is the value over 10^firstExponent; lower and upper the distances to the
        // boundaries on that scale, all doubled (quadrupled where the lower boundary is closer) to stay integers
        int shift = lowerCloser ? 2 : 1;
        BigInteger significand = BigInteger.valueOf(f << shift);
        BigInteger numerator;
        BigInteger denominator;
        BigInteger lower;
        if (e >= 0) {
            numerator = significand.shiftLeft(e);
            lower = BigInteger.ONE.shiftLeft(e);
            // scaled as the numerator; DuckDB's method doubles it only, and so writes a power of two of 2^53 or more
            // where Grisu gives up on one with a first digit past 9 (A.070116948172427e+242 for 2^806): not followed
            denominator = BigInteger.TEN.pow(firstExponent).shiftLeft(shift);
        } else if (firstExponent < 0) {
            BigInteger scale = BigInteger.TEN.pow(-firstExponent);
            numerator = scale.multiply(significand);
            lower = scale;
            denominator = BigInteger.ONE.shiftLeft(shift - e);
        } else {
            numerator = significand;
            lower = BigInteger.ONE;
            denominator = BigInteger.TEN.pow(firstExponent).shiftLeft(shift - e);
        }
        BigInteger upper = lowerCloser ? lower.shiftLeft(1) : lower;
        boolean even = (f & 1) == 0;
        long digits = 0;
        int count = 0;
        for (;;) {
            BigInteger[] qr = numerator.divideAndRemainder(denominator);
            int digit = qr[0].intValue();
            numerator = qr[1];
            int toLower = numerator.compareTo(lower);
            boolean low = even ? toLower <= 0 : toLower < 0;
            int toNext = numerator.add(upper).compareTo(denominator);
            boolean high = even ? toNext >= 0 : toNext > 0;
            count++;
            if (low || high) {
                if (!low) {
                    digit++;
                } else if (high) {
                    int half = numerator.shiftLeft(1).compareTo(denominator);
                    if (half > 0 || (half == 0 && digit % 2 != 0)) {
                        digit++;
                    }
                }
                out.significand = digits * 10 + digit;
                out.count = count;
                out.exponent = firstExponent - (count - 1);
                return;
            }
            digits = digits * 10 + digit;
            numerator = numerator.multiply(BigInteger.TEN);
            lower = lower.multiply(BigInteger.TEN);
            upper = lowerCloser ? upper.multiply(BigInteger.TEN) : lower;
        }
    }
}

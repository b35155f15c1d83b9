package io.tessera.storage;

import java.math.BigInteger;

/**
 * The shortest digits of a DOUBLE or REAL by Loitsch's Grisu3 (2010), in the form DuckDB 2.0 prints with (the fmt
 * library 6 it builds in): 64-bit approximations of the value's boundaries scaled by a cached power of ten, digits
 * generated from the upper boundary until they lie within the boundaries, the last digit then moved toward the
 * value. Where the approximation cannot prove the digits shortest and nearest (a tie between two candidates, digits
 * on or close to a boundary) it gives up, and the caller uses {@link ExactDigits}. A REAL's boundaries are its float
 * neighbours' midpoints; when it gives up, DuckDB's exact method takes the REAL as the double it widens to, which is
 * why DuckDB prints 1160166.25 where 1160166.2 reads back as the same float.
 *
 * <p>Every quantity is an unsigned 64-bit number; the boundaries of the search, the rounding of each product and the
 * tests that give up are those of fmt 6, so that the same values give up as in DuckDB.
 */
final class GrisuDigits {
    private GrisuDigits() {
    }

    private static final long IMPLICIT_BIT = 1L << 52;
    private static final long FRACTION_MASK = IMPLICIT_BIT - 1;
    /** The lowest binary exponent of a scaled value (alpha in Grisu); the highest is -32. */
    private static final int MIN_EXPONENT = -60;
    /** The powers of ten cached: 10^-348, 10^-340, ..., 10^340. */
    private static final int FIRST_CACHED_POWER = -348;
    private static final int CACHED_POWER_STEP = 8;
    private static final int CACHED_POWERS = 87;
    /** Each cached power's 64 significant bits (the highest set), rounded to nearest, and their binary exponent. */
    private static final long[] POWER_SIGNIFICANDS = new long[CACHED_POWERS];
    private static final int[] POWER_EXPONENTS = new int[CACHED_POWERS];
    private static final long[] POWERS_OF_TEN = new long[20];

    static {
        for (int i = 0; i < CACHED_POWERS; i++) {
            int k = FIRST_CACHED_POWER + i * CACHED_POWER_STEP;
            BigInteger numerator = k >= 0 ? BigInteger.TEN.pow(k) : BigInteger.ONE;
            BigInteger denominator = k >= 0 ? BigInteger.ONE : BigInteger.TEN.pow(-k);
            // 10^k = numerator / denominator = significand * 2^exponent with 2^63 <= significand < 2^64
            int exponent = numerator.bitLength() - denominator.bitLength() - 64;
            BigInteger scaled = exponent >= 0 ? numerator : numerator.shiftLeft(-exponent);
            BigInteger divisor = exponent >= 0 ? denominator.shiftLeft(exponent) : denominator;
            if (scaled.compareTo(divisor.shiftLeft(64)) >= 0) {
                exponent++;
                divisor = divisor.shiftLeft(1);
            } else if (scaled.compareTo(divisor.shiftLeft(63)) < 0) {
                exponent--;
                scaled = scaled.shiftLeft(1);
            }
            BigInteger[] qr = scaled.divideAndRemainder(divisor);
            BigInteger q = qr[1].shiftLeft(1).compareTo(divisor) >= 0 ? qr[0].add(BigInteger.ONE) : qr[0];
            POWER_SIGNIFICANDS[i] = q.longValue();
            POWER_EXPONENTS[i] = exponent;
        }
        long p = 1;
        for (int i = 0; i < POWERS_OF_TEN.length; i++) {
            POWERS_OF_TEN[i] = p;
            p *= 10; // 10^19 wraps to the unsigned value it is
        }
    }

    /** The cached power's significand and exponent, for tests. */
    static long cachedPowerSignificand(int index) {
        return POWER_SIGNIFICANDS[index];
    }

    static int cachedPowerExponent(int index) {
        return POWER_EXPONENTS[index];
    }

    /**
     * The shortest digits of {@code v} (positive, finite, not zero; a REAL's value when {@code real}) into {@code out},
     * or false where Grisu gives up.
     */
    static boolean shortest(double v, boolean real, DecimalDigits out) {
        long bits = Double.doubleToRawLongBits(v);
        long f = bits & FRACTION_MASK;
        int biased = (int) (bits >>> 52);
        boolean lowerCloser = f == 0 && biased > 1; // a power of two: the neighbour below is half as far
        if (biased != 0) {
            f += IMPLICIT_BIT;
        } else {
            biased = 1;
        }
        int e = biased - 1075;
        long lower;
        long upper;
        int upperExponent;
        if (real) {
            int minNormalExponent = -125 - 53; // a float's smallest normal exponent in a double's significand
            long halfUlp = 1L << 28;
            if (minNormalExponent > e) {
                halfUlp <<= minNormalExponent - e;
            }
            upper = f + halfUlp;
            upperExponent = e;
            while ((upper & IMPLICIT_BIT) == 0) {
                upper <<= 1;
                upperExponent--;
            }
            upper <<= 11;
            upperExponent -= 11;
            lower = (f - (halfUlp >>> (f == IMPLICIT_BIT && e > minNormalExponent ? 1 : 0))) << (e - upperExponent);
        } else {
            upper = (f << 1) + 1;
            upperExponent = e - 1;
            while ((upper & (IMPLICIT_BIT << 1)) == 0) {
                upper <<= 1;
                upperExponent--;
            }
            upper <<= 10;
            upperExponent -= 10;
            int lowerExponent = lowerCloser ? e - 2 : e - 1;
            lower = (lowerCloser ? (f << 2) - 1 : (f << 1) - 1) << (lowerExponent - upperExponent);
        }
        long w = f;
        int we = e;
        while ((w & IMPLICIT_BIT) == 0) {
            w <<= 1;
            we--;
        }
        w <<= 11;
        we -= 11;

        // the cached power that brings the value's exponent into [MIN_EXPONENT, -32]
        int minimum = MIN_EXPONENT - (we + 64);
        int index = (int) (((long) (minimum + 63) * 0x4d104d42L + 0xffffffffL) >> 32);
        index = (index - FIRST_CACHED_POWER - 1) / CACHED_POWER_STEP + 1;
        int cachedExp10 = FIRST_CACHED_POWER + index * CACHED_POWER_STEP;
        long c = POWER_SIGNIFICANDS[index];
        w = multiply(w, c);
        int scaledExponent = we + POWER_EXPONENTS[index] + 64;
        lower = multiply(lower, c) - 1;
        upper = multiply(upper, c) + 1;
        boolean found = generate(upper, scaledExponent, upper - lower, upper - w, out);
        out.exponent -= cachedExp10;
        return found;
    }

    /**
     * Where Grisu gave up, the power of ten of the first digit of the upper boundary it had, which the exact method
     * starts from as DuckDB's does; valid only after {@link #shortest} returned false.
     */
    static int estimate(DecimalDigits failed) {
        return failed.exponent;
    }

    /** lhs * rhs / 2^64, rounded to nearest with ties up. */
    private static long multiply(long lhs, long rhs) {
        long high = Math.unsignedMultiplyHigh(lhs, rhs);
        return (lhs * rhs) < 0 ? high + 1 : high;
    }

    /**
     * Grisu's digit generation from the scaled upper boundary {@code value * 2^e}: {@code error} is the width of the
     * region outside which no number reads back as the value, {@code diff} the distance from the value to the upper
     * boundary. On failure, {@code out.exponent} holds the estimate {@link #estimate} reads.
     */
    private static boolean generate(long value, int e, long error, long diff, DecimalDigits out) {
        int shift = -e;
        long one = 1L << shift;
        long integral = value >>> shift;
        long fractional = value & (one - 1);
        int exp = digitCount(integral); // kappa
        long digits = 0;
        int size = 0;
        // integral part: at most 10 digits
        while (exp > 0) {
            long divisor = POWERS_OF_TEN[exp - 1];
            long digit = integral / divisor;
            integral %= divisor;
            exp--;
            digits = digits * 10 + digit;
            size++;
            long remainder = (integral << shift) + fractional;
            if (Long.compareUnsigned(remainder, error) < 0) {
                return finish(digits, size, exp, POWERS_OF_TEN[exp] << shift, remainder, error, diff, 1, out);
            }
        }
        // fractional part
        for (;;) {
            fractional *= 10;
            error *= 10;
            long digit = fractional >>> shift;
            fractional &= one - 1;
            exp--;
            digits = digits * 10 + digit;
            size++;
            if (Long.compareUnsigned(fractional, error) < 0) {
                return finish(digits, size, exp, one, fractional, error, diff, POWERS_OF_TEN[-exp], out);
            }
        }
    }

    /** Grisu3's round_weed: the last digit moved toward the value, and whether the digits are proven right. */
    private static boolean finish(long digits, int size, int exp, long divisor, long remainder, long error, long diff,
                                  long unit, DecimalDigits out) {
        out.exponent = exp + size - 1; // the estimate, in case of failure (before the cached power is taken off)
        long up = (diff - 1) * unit;
        while (Long.compareUnsigned(remainder, up) < 0 && Long.compareUnsigned(error - remainder, divisor) >= 0
                && (Long.compareUnsigned(remainder + divisor, up) < 0
                || Long.compareUnsigned(up - remainder, remainder + divisor - up) >= 0)) {
            digits--;
            remainder += divisor;
        }
        long down = (diff + 1) * unit;
        if (Long.compareUnsigned(remainder, down) < 0 && Long.compareUnsigned(error - remainder, divisor) >= 0
                && (Long.compareUnsigned(remainder + divisor, down) < 0
                || Long.compareUnsigned(down - remainder, remainder + divisor - down) > 0)) {
            return false;
        }
        if (Long.compareUnsigned(2 * unit, remainder) > 0 || Long.compareUnsigned(remainder, error - 4 * unit) > 0) {
            return false;
        }
        out.significand = digits;
        out.count = size;
        out.exponent = exp;
        return true;
    }

    private static int digitCount(long n) {
        int count = 1;
        while (count < 10 && n >= POWERS_OF_TEN[count]) {
            count++;
        }
        return count;
    }
}

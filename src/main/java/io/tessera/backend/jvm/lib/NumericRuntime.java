package io.tessera.backend.jvm.lib;

/** The numeric functions generated code calls ({@code plan.NumericFunction}), as DuckDB computes them. */
public final class NumericRuntime {
    private NumericRuntime() {
    }

    /** LOG2: exact for powers of two, where the quotient of two logarithms may miss the integer by a bit. */
    public static double log2(double x) {
        if (x > 0 && Double.isFinite(x) && x == Math.scalb(1.0, Math.getExponent(x))) {
            return Math.getExponent(x);
        }
        return Math.log(x) / Math.log(2);
    }

    /** LOG(b, x): the logarithm of x to base b. */
    public static double log(double b, double x) {
        return Math.log(x) / Math.log(b);
    }

    /** GCD: never negative; the magnitude of -2^63 does not fit a BIGINT. */
    public static long gcd(long a, long b) {
        while (b != 0) {
            long r = a % b;
            a = b;
            b = r;
        }
        if (a == Long.MIN_VALUE) {
            throw new ArithmeticException("Overflow on abs(" + a + ") in GCD");
        }
        return Math.abs(a);
    }

    /** LCM: never negative, 0 where either is 0; beyond a BIGINT an error. */
    public static long lcm(long a, long b) {
        if (a == 0 || b == 0) {
            return 0;
        }
        try {
            return Math.absExact(Math.multiplyExact(a / gcd(a, b), b));
        } catch (ArithmeticException e) {
            throw new ArithmeticException("LCM value is out of range");
        }
    }

    /** EVEN: away from zero to the next even integer (EVEN(1.5) is 2, EVEN(2.1) is 4, EVEN(-0.5) is -2). */
    public static double even(double x) {
        double v = Math.ceil(Math.abs(x));
        if (v % 2 != 0) {
            v += 1;
        }
        return Math.copySign(v, x);
    }

    /** The largest n whose n! a BIGINT holds. */
    private static final int LARGEST_FACTORIAL = 20;

    /** FACTORIAL: n!, 1 for 0; an error below 0 (as DuckDB's) and past 20!, which a BIGINT cannot hold. */
    /**
     * {@code v << n} at a signed integer type of {@code bits} bits, as DuckDB shifts: an error where v or n is
     * negative, n is the width or more (v not 0) or the result passes the type's largest value.
     */
    public static long shiftLeft(long v, long n, int bits) {
        if (v < 0) {
            throw new ArithmeticException("cannot left-shift a negative number (" + v + " << " + n + ")");
        }
        if (n < 0) {
            throw new ArithmeticException("cannot left-shift by a negative number (" + v + " << " + n + ")");
        }
        if (n >= bits) {
            if (v == 0) {
                return 0;
            }
            throw new ArithmeticException("left-shift count " + n + " is out of range (" + v + " << " + n + ")");
        }
        if (n > 0 && v >= 1L << (bits - 1 - n)) {
            throw new ArithmeticException("overflow in left shift (" + v + " << " + n + ")");
        }
        return v << n;
    }

    /** {@code v >> n} at an integer type of {@code bits} bits: arithmetic, 0 where n is negative or the width or more. */
    public static long shiftRight(long v, long n, int bits) {
        return n < 0 || n >= bits ? 0 : v >> n;
    }

    public static long factorial(long n) {
        if (n < 0) {
            throw new ArithmeticException("factorial of a negative number is undefined");
        }
        if (n > LARGEST_FACTORIAL) {
            throw new ArithmeticException("factorial(" + n + ") is out of range: a BIGINT holds up to "
                    + LARGEST_FACTORIAL + "! (Tessera has no HUGEINT)");
        }
        long f = 1;
        for (int i = 2; i <= n; i++) {
            f *= i;
        }
        return f;
    }

    /** The generator of the morsel this thread runs where its query is seeded (setseed), else null. */
    private static final ThreadLocal<java.util.SplittableRandom> SEEDED = new ThreadLocal<>();

    /** RANDOM: a new value in [0, 1) on every call; from the morsel's own generator where the query is seeded. */
    public static double random() {
        java.util.SplittableRandom seeded = SEEDED.get();
        return seeded != null ? seeded.nextDouble() : java.util.concurrent.ThreadLocalRandom.current().nextDouble();
    }

    /**
     * Seeds the random() values of the morsel this thread runs next: from the query's seed, the pipeline and the
     * morsel's first source row, so that each row's values are the same whichever worker runs the morsel.
     */
    public static void seedMorsel(long querySeed, int pipeline, long firstRow) {
        SEEDED.set(new java.util.SplittableRandom(querySeed ^ (pipeline * 0xBF58476D1CE4E5B9L)
                ^ (firstRow * 0x94D049BB133111EBL)));
    }

    /** Ends this thread's seeded morsels: its random() values are unseeded again. */
    public static void unseed() {
        SEEDED.remove();
    }

    /** The inverse hyperbolic sine; Java's Math has none. */
    public static double asinh(double x) {
        if (Double.isInfinite(x)) {
            return x;
        }
        // of |x|, the sign put back, so that large negative x do not cancel to 0
        double a = Math.abs(x);
        double r = a > 1e8 ? Math.log(a) + Math.log(2) : Math.log1p(a + a * a / (1 + Math.sqrt(1 + a * a)));
        return Math.copySign(r, x);
    }

    /** The inverse hyperbolic cosine: NaN below 1. */
    public static double acosh(double x) {
        if (x < 1) {
            return Double.NaN;
        }
        return x > 1e8 ? Math.log(x) + Math.log(2) : Math.log(x + Math.sqrt(x * x - 1));
    }

    /** The inverse hyperbolic tangent: infinite at 1 and -1, NaN beyond them. */
    public static double atanh(double x) {
        return 0.5 * Math.log1p(2 * x / (1 - x));
    }
}

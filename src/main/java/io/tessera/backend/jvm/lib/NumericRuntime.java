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

    /** GAMMA: C's tgamma; (x-1)! exactly at the positive integers up to 171, NaN at the negative integers. */
    public static double gamma(double x) {
        if (Double.isNaN(x) || x == Double.POSITIVE_INFINITY) {
            return x;
        }
        if (x == 0) {
            return Math.copySign(Double.POSITIVE_INFINITY, x);
        }
        if (x < 0 && x == Math.rint(x) || x == Double.NEGATIVE_INFINITY) {
            return Double.NaN;
        }
        if (x == Math.rint(x) && x <= 171) {
            double f = 1; // (x-1)! as a product of exact integers, as a correctly rounded tgamma gives
            for (int i = 2; i < x; i++) {
                f *= i;
            }
            return f;
        }
        if (x < 0.5) { // the reflection formula: gamma(x) gamma(1 - x) = pi / sin(pi x)
            return Math.PI / (sinPi(x) * gamma(1 - x));
        }
        if (x > 171.7) {
            return Double.POSITIVE_INFINITY;
        }
        // Lanczos' series at x - 1, its power split in two halves so that 171.6 does not overflow before the product
        double t = x - 0.5 + LANCZOS_G;
        double half = Math.pow(t, (x - 0.5) / 2);
        return SQRT_TWO_PI * half * (half * Math.exp(-t)) * lanczosSum(x - 1);
    }

    /** LGAMMA: C's lgamma, the natural logarithm of gamma's magnitude; infinite at 0 and the negative integers. */
    public static double lgamma(double x) {
        if (Double.isNaN(x)) {
            return x;
        }
        if (Double.isInfinite(x) || x <= 0 && x == Math.rint(x)) {
            return Double.POSITIVE_INFINITY;
        }
        if (x == 1 || x == 2) {
            return 0;
        }
        if (x < 0.5) { // the reflection formula, as logarithms of magnitudes
            return Math.log(Math.PI / Math.abs(sinPi(x))) - lgamma(1 - x);
        }
        if (x <= 171 && x == Math.rint(x)) {
            return Math.log(gamma(x));
        }
        double t = x - 0.5 + LANCZOS_G;
        return LOG_SQRT_TWO_PI + (x - 0.5) * Math.log(t) - t + Math.log(lanczosSum(x - 1));
    }

    /** sin(pi x), exact at the integers and half-integers, where Math.sin(Math.PI * x) is off by a rounding. */
    private static double sinPi(double x) {
        double r = x - 2 * Math.floor(x / 2); // in [0, 2)
        if (r == 0 || r == 1) {
            return 0;
        }
        if (r == 0.5) {
            return 1;
        }
        if (r == 1.5) {
            return -1;
        }
        return Math.sin(Math.PI * r);
    }

    private static final double LANCZOS_G = 7;
    private static final double SQRT_TWO_PI = Math.sqrt(2 * Math.PI);
    private static final double LOG_SQRT_TWO_PI = 0.5 * Math.log(2 * Math.PI);
    /** The coefficients of Lanczos' approximation for g = 7 and nine terms (relative error about 1e-15). */
    private static final double[] LANCZOS = {0.99999999999980993, 676.5203681218851, -1259.1392167224028,
        771.32342877765313, -176.61502916214059, 12.507343278686905, -0.13857109526572012,
        9.9843695780195716e-6, 1.5056327351493116e-7};

    private static double lanczosSum(double z) {
        double sum = LANCZOS[0];
        for (int i = 1; i < LANCZOS.length; i++) {
            sum += LANCZOS[i] / (z + i);
        }
        return sum;
    }

    /** HASH's value of a NULL argument. */
    public static final long NULL_HASH = 0x5bd1e9955bd1e995L;

    /** HASH of an integer (or an exact number's unscaled value, a boolean's 0 or 1): splitmix64's finalizer. */
    public static long hash(long v) {
        long z = v + 0x9E3779B97F4A7C15L;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    /** HASH of a DOUBLE: of its bits, every NaN one value and -0.0 as 0.0 (they are equal). */
    public static long hash(double v) {
        return hash(Double.doubleToLongBits(v == 0 ? 0.0 : v) ^ 0x7FF0000000000000L);
    }

    /** HASH of a string: FNV-1a over its characters, mixed. */
    public static long hash(String s) {
        long h = 0xcbf29ce484222325L;
        for (int i = 0; i < s.length(); i++) {
            h = (h ^ s.charAt(i)) * 0x100000001b3L;
        }
        return hash(h ^ s.length());
    }

    /** Two hashes as one, in their order (HASH of several values). */
    public static long combineHashes(long a, long b) {
        return hash(a * 31 + b);
    }
}

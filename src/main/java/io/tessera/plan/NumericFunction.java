package io.tessera.plan;

/** The numeric functions of {@link Op#NUMERIC}, each as DuckDB computes it; a NULL argument gives NULL. */
public enum NumericFunction {
    /** (x): the logarithm to base 10 or 2, a DOUBLE (-Infinity at 0, NaN below it, as DuckDB). */
    LOG10,
    LOG2,
    /** (b, x): the logarithm of x to base b, a DOUBLE. */
    LOG,
    /** (x): the bits set in an integer's two's complement at its type's width (the argument's bits), a TINYINT. */
    BIT_COUNT,
    /** (a, b): the greatest common divisor and least common multiple of two BIGINTs; an overflow is an error. */
    GCD,
    LCM,
    /** (x): x rounded away from zero to the next even integer, a DOUBLE. */
    EVEN,
    /** (x): whether a number is NaN, infinite, neither (exact numbers are finite). */
    ISNAN,
    ISINF,
    ISFINITE,
    /**
     * (x): whether a number's sign bit is set: below zero, and of a DOUBLE also -0.0 (an exact number's zero, even
     * written -0.0, has none).
     */
    SIGNBIT,
    /** (n): n! of a BIGINT, a BIGINT: an error below 0 and past 20! (DuckDB's HUGEINT goes to 33!). */
    FACTORIAL,
    /**
     * (x): the gamma function and the logarithm of its magnitude, DOUBLE, as C's tgamma and lgamma (infinite at 0
     * and past about 171.6, gamma NaN at the negative integers, where lgamma is infinite).
     */
    GAMMA, LGAMMA,
    /**
     * (v, ...): a 64-bit hash of the values of any type (a NULL among them hashes too), a BIGINT, never NULL; the
     * same values give the same hash in every query and process, though not DuckDB's numbers.
     */
    HASH,
    /** (): a new value in [0, 1) for every row and every call. */
    RANDOM,
    /**
     * (name): the sequence's next value; (name): the value its last nextval gave; (name, v): v made its current value
     * (setval). Each call reads or moves the sequence's state (a BIGINT), from the counters of the run
     * ({@code storage.SequenceCounters}), never a constant.
     */
    NEXTVAL,
    CURRVAL,
    SETVAL,
    /** (x): the cube root, the trigonometric functions (radians) and the conversions of angles, DOUBLE. */
    CBRT, DEGREES, RADIANS, SIN, COS, TAN, COT, ASIN, ACOS, ATAN,
    /** (y, x): the angle of the point (x, y), DOUBLE. */
    ATAN2,
    /** (x): the hyperbolic functions and their inverses, DOUBLE (NaN outside their domains, as DuckDB). */
    SINH, COSH, TANH, ASINH, ACOSH, ATANH,
    /** (x, y): the next DOUBLE after x toward y. */
    NEXTAFTER,
    /** (a, b): the bitwise exclusive or of two integers of the call's type. */
    XOR,
    /** (a, b): {@code a & b} and {@code a | b} of two integers of the call's type. */
    BITWISE_AND, BITWISE_OR,
    /**
     * (a, n): {@code a << n} of the call's integer type: an error where a is negative, n is negative, n is the
     * type's width or more (a not 0) or the result overflows the type, as DuckDB's.
     */
    SHIFT_LEFT,
    /** (a, n): {@code a >> n}, arithmetic; 0 where n is negative or the type's width or more, as DuckDB's. */
    SHIFT_RIGHT,
    /** (a): {@code ~a}, the bitwise complement. */
    BITWISE_NOT;

    /** Whether every argument is taken at the call's integer type. */
    public boolean ofTheCallsType() {
        return this == XOR || this == BITWISE_AND || this == BITWISE_OR || this == SHIFT_LEFT || this == SHIFT_RIGHT
                || this == BITWISE_NOT;
    }
}

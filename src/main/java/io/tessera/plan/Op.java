package io.tessera.plan;

/** The operators of {@link Expr.Call}. Comparisons and logic follow SQL's three-valued NULL semantics. */
public enum Op {
    ADD, SUB, MUL, DIV, MOD, NEG, ABS,
    EQ, NE, LT, LE, GT, GE,
    /** IS DISTINCT FROM / IS NOT DISTINCT FROM: comparisons where NULL equals NULL. */
    IS_DISTINCT, IS_NOT_DISTINCT,
    AND, OR, NOT,
    IS_NULL, IS_NOT_NULL, IS_TRUE, IS_NOT_TRUE, IS_FALSE, IS_NOT_FALSE,
    /** args: when1, then1, when2, then2, ..., else. */
    CASE,
    /** Converts args[0] to the call's type. */
    CAST,
    /** args: value; detail: the pattern (with escape already applied) as a String. */
    LIKE,
    /**
     * {@code value IN (constants)}: args: value; detail: the constants as a List in the value's representation (Long
     * for integers, dates and unscaled decimals, Double, String), no NULL among them. NULL when the value is NULL.
     */
    IN_LIST,
    /** detail: the unit (YEAR, QUARTER, MONTH, DAY, DOW, DOY, WEEK). */
    EXTRACT,
    /** date + n days (args: date, days as an integer expression). */
    DATE_ADD_DAYS,
    /** date + n months (args: date, months). */
    DATE_ADD_MONTHS,
    /** date - date in days. */
    DATE_DIFF_DAYS,
    /** timestamp + n microseconds (args: timestamp, microseconds). */
    TIMESTAMP_ADD_MICROS,
    /** timestamp + n months, the day of the month kept where the month has it, else its last day (args: timestamp, months). */
    TIMESTAMP_ADD_MONTHS,
    COALESCE,
    /**
     * GREATEST and LEAST of args of the call's type: each evaluated once, NULLs skipped, NULL only where all are;
     * an INTERVAL ordered by months, then days, then microseconds, as DuckDB orders them there.
     */
    GREATEST, LEAST,
    /** string concatenation (||). */
    CONCAT,
    LOWER, UPPER,
    /**
     * ROUND(x [, digits]) half away from zero; FLOOR; CEIL; SIGN (-1, 0, 1 as the call's type); TRUNC(x [, digits])
     * toward zero; detail of ROUND and TRUNC: the digits as an Integer (0 without them).
     */
    ROUND, FLOOR, CEIL, SIGN, TRUNC,
    /** ROUND_EVEN(x, digits): ROUND with ties to the even neighbour; detail: the digits as an Integer. */
    ROUND_EVEN,
    /** SQRT, LN, EXP of a DOUBLE, and POWER(x, y): DOUBLE results; SQRT and LN of a number outside their domain fail. */
    SQRT, LN, EXP, POWER,
    /** A numeric function as DuckDB computes it: detail: the {@link NumericFunction}; args as that function takes them. */
    NUMERIC,
    /** A string function as DuckDB computes it: detail: the {@link TextFunction}; args as that function takes them. */
    FUNCTION,
    /**
     * DATE_TRUNC of a DATE or a TIMESTAMP (the call's type): detail: the unit (as EXTRACT names it: YEAR, MONTH, WEEK,
     * ..., and of a TIMESTAMP also HOUR, MINUTE, SECOND, MILLISECOND, MICROSECOND).
     */
    DATE_TRUNC,
    /** A function of TIMESTAMP values: detail: the {@link TemporalFunction}; args as that function takes them. */
    TEMPORAL,
    /** A function of LIST values (held as encoded strings): detail: the {@link ListFunction}; args as it takes them. */
    LIST,
    /**
     * A function of a list and a lambda (list_transform, list_filter, list_reduce, a list comprehension): detail: its
     * {@link ListLambda}; args: the list, the lambda's body and what the kind takes besides.
     */
    LIST_LAMBDA,
    /** A lambda's parameter, bound by the {@link #LIST_LAMBDA} call around it: detail: its {@link LambdaParameter}. */
    LAMBDA_PARAMETER;

    /** The comparison that holds with the operands swapped ({@code a < b} is {@code b > a}); other operators as is. */
    public Op mirrored() {
        return switch (this) {
            case LT -> GT;
            case LE -> GE;
            case GT -> LT;
            case GE -> LE;
            default -> this;
        };
    }

    /** Whether a SMALLINT or TINYINT result of this operation (computed as an int) can leave its type's range. */
    public boolean canLeaveNarrowRange() {
        return switch (this) {
            case ADD, SUB, MUL, DIV, MOD, NEG, ABS, ROUND, ROUND_EVEN -> true;
            default -> false;
        };
    }
}

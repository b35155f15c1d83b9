package io.tessera.storage;

import java.math.BigDecimal;

/**
 * The values of REAL (DuckDB's FLOAT), held as doubles that are always exactly a float: rounding to float, the range
 * check of a conversion to it, and its text as DuckDB writes it.
 */
public final class Floats {
    private Floats() {
    }

    /** The float nearest to {@code d}, as a double: what every operation typed REAL gives. */
    public static double round(double d) {
        return (float) d;
    }

    /**
     * A number converted to REAL (a CAST, a store, a literal): rounded to float, and an error where a finite value lies
     * beyond float's range, as DuckDB's conversion of a DOUBLE fails ({@code 1e40::REAL}); text that reads as such a
     * number is infinity instead ({@code '1e40'::REAL}).
     */
    public static double converted(double d) {
        float f = (float) d;
        if (Float.isInfinite(f) && !Double.isInfinite(d)) {
            throw new ArithmeticException(Values.outOfRangeMessage(Values.formatDouble(d), "FLOAT"));
        }
        return f;
    }

    /**
     * A REAL as text, as DuckDB writes it (in results, in CSV and when CAST to VARCHAR): the shortest digits that read
     * back as the same float, written out between 1e-4 and 1e16 ({@code 0.1}, {@code 10000000000.0}), else with an
     * exponent ({@code 1e+20}, {@code 1e-07}); {@code nan}, {@code inf}, {@code -inf}: {@link Values#formatDouble}'s
     * form at float's precision. DuckDB's own digits are not always the shortest: for about one float in 200, most
     * beyond a million, it writes more ({@code 1435166.25} where this writes {@code 1435166.2}, the same float).
     */
    public static String format(double d) {
        float f = (float) d;
        if (Float.isNaN(f) || Float.isInfinite(f) || f == 0) {
            return Values.formatDouble(f);
        }
        // Float.toString gives the shortest digits that read back as the float, but never fewer than two (1.4E-45,
        // where 1e-45 reads back too); only their layout is DuckDB's
        float abs = Math.abs(f);
        BigDecimal v = new BigDecimal(Float.toString(abs)).stripTrailingZeros();
        if (v.precision() == 2) {
            BigDecimal one = v.round(new java.math.MathContext(1, java.math.RoundingMode.HALF_EVEN));
            if (Float.parseFloat(one.toString()) == abs) {
                v = one.stripTrailingZeros();
            }
        }
        return Values.formatDecimalDigits(v, f < 0);
    }
}

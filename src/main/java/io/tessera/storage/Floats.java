package io.tessera.storage;

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

    /** A REAL as text, as DuckDB writes it (in results, in CSV and when CAST to VARCHAR): {@link FloatText}. */
    public static String format(double d) {
        return FloatText.ofReal(d);
    }
}

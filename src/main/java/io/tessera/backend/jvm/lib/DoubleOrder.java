package io.tessera.backend.jvm.lib;

/**
 * DuckDB's total order of doubles for generated code and the run-time tables: every NaN is one value, equal to itself
 * and greater than every other number, and -0.0 equals 0.0 (backend.lower.NanOrder prints the same tests inline).
 */
public final class DoubleOrder {

    private DoubleOrder() {
    }

    public static boolean isEqual(double a, double b) {
        return a == b || a != a && b != b;
    }

    public static boolean isNotEqual(double a, double b) {
        return !isEqual(a, b);
    }

    public static boolean isLess(double a, double b) {
        return a < b || b != b && a == a;
    }

    public static boolean isLessOrEqual(double a, double b) {
        return a <= b || b != b;
    }

    /** The smaller of two doubles in the total order: NaN only when both are. */
    public static double min(double a, double b) {
        return a < b || b != b ? a : b;
    }

    /** The greater of two doubles in the total order: NaN when either is. */
    public static double max(double a, double b) {
        return a > b || a != a ? a : b;
    }
}

package io.tessera.storage;

/**
 * The digits a floating point number is written with: {@code count} decimal digits held as the integer
 * {@code significand} (zeros on the left count where {@code count} says so), the last of them at the power of ten
 * {@code exponent}. The value is {@code significand * 10^exponent}.
 */
final class DecimalDigits {
    long significand;
    int count;
    int exponent;

    /** The power of ten of the first digit. */
    int firstExponent() {
        return exponent + count - 1;
    }
}

package io.tessera.backend.jvm.lib;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.util.regex.Pattern;

/**
 * The spellings of an integer that DuckDB's CAST of text to an integer type reads beyond plain digits: hexadecimal
 * {@code 0x1F} and binary {@code 0b101} (no sign, no white space), digits grouped by single underscores
 * ({@code 1_000}), and a decimal or exponent number rounded half away from zero ({@code '2.5'} is 3, {@code '1e3'}
 * 1000).
 */
final class IntegerText {
    private IntegerText() {
    }

    private static final Pattern HEX = Pattern.compile("0[xX][0-9a-fA-F]+");
    private static final Pattern BINARY = Pattern.compile("0[bB][01]+");
    private static final String DIGITS = "[0-9]+(?:_[0-9]+)*";
    private static final Pattern NUMBER = Pattern.compile(
            "[+-]?(?:" + DIGITS + "(?:\\.(?:" + DIGITS + ")?)?|\\." + DIGITS + ")(?:[eE][+-]?[0-9]+)?");

    /**
     * The value of {@code raw} (the text as given; {@code trimmed} without its surrounding white space) in one of
     * those spellings, or null where it is none of them; a value beyond 20 digits is returned as such a number, which
     * no integer type holds.
     */
    static BigInteger value(String raw, String trimmed) {
        if (HEX.matcher(raw).matches()) {
            return new BigInteger(raw.substring(2), 16);
        }
        if (BINARY.matcher(raw).matches()) {
            return new BigInteger(raw.substring(2), 2);
        }
        if (!NUMBER.matcher(trimmed).matches()) {
            return null;
        }
        BigDecimal d = new BigDecimal(trimmed.replace("_", ""));
        if (d.signum() != 0 && d.precision() - d.scale() > 20) {
            return BigInteger.TEN.pow(21); // beyond every integer type, without writing out a huge exponent
        }
        return d.setScale(0, RoundingMode.HALF_UP).toBigInteger();
    }
}

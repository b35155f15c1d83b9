package io.tessera.backend.lower;

import io.tessera.storage.DataType;
import io.tessera.storage.TypeKind;
import io.tessera.storage.Values;

/**
 * Decimal scales. An exact numeric value is an unscaled 64-bit integer at a scale: a DECIMAL's own, 0 for the integer
 * types. Moving it to another scale multiplies by a power of ten (a positive shift, checked for overflow) or divides
 * with rounding half away from zero (a negative shift).
 */
public final class Scale {
    private Scale() {
    }

    /** The scale of an exact numeric type (0 for every type but DECIMAL). */
    public static int of(DataType t) {
        return t.kind() == TypeKind.DECIMAL ? t.scale() : 0;
    }

    /** The power of ten by which a value of type {@code from} is rescaled to scale {@code to}: 0 for none. */
    public static int shift(DataType from, int to) {
        return to - of(from);
    }

    /** What a DECIMAL's unscaled value is divided by as a DOUBLE (10^scale), or 0 when the type is no DECIMAL. */
    public static long doubleDivisor(DataType t) {
        return t.kind() == TypeKind.DECIMAL ? Values.pow10(t.scale()) : 0;
    }
}

package io.tessera.cli.format;

import io.tessera.storage.DataType;
import io.tessera.storage.TypeKind;
import io.tessera.storage.Values;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.LocalDate;

/**
 * The text of one result value, shared by every format: numbers in plain decimal notation (never an exponent),
 * DECIMAL with exactly its column's scale, DATE as yyyy-mm-dd, TIMESTAMP as
 * yyyy-mm-dd hh:mm:ss[.ffffff], TIMESTAMP WITH TIME ZONE with the offset it is shown at (+00, -04, +05:30), BOOLEAN as true/false. NULL has no text here;
 * each format decides how to show it.
 */
public final class ValueText {

    private ValueText() {
    }

    /** Text of a non-null value of a column of the given type. */
    public static String of(Object v, DataType type) {
        if (v instanceof Double d) {
            return Values.formatDouble(d);
        }
        if (v instanceof Float f) { // REAL
            return io.tessera.storage.Floats.format(f);
        }
        if (v instanceof BigDecimal d) {
            return decimal(d, type).toPlainString();
        }
        if (v instanceof LocalDate d) {
            return io.tessera.storage.Timestamps.formatDate(d.toEpochDay());
        }
        if (v instanceof java.time.LocalTime t) {
            return io.tessera.storage.Timestamps.formatTime(io.tessera.storage.Values.timeMicros(t));
        }
        if (v instanceof java.time.OffsetDateTime t) { // TIMESTAMP WITH TIME ZONE, in the session's zone
            return io.tessera.storage.ZonedTimestamps.format(io.tessera.storage.ZonedTimestamps.micros(t), t.getOffset());
        }
        if (v instanceof java.time.LocalDateTime t) {
            return io.tessera.storage.Timestamps.format(io.tessera.storage.Timestamps.micros(t));
        }
        if (v instanceof byte[] bytes) { // BLOB, as DuckDB prints it
            return io.tessera.storage.ByteStrings.format(bytes);
        }
        return Values.format(v);
    }

    /** True for the kinds shown right-aligned and written as JSON numbers. */
    public static boolean isNumeric(DataType type) {
        TypeKind k = type.kind();
        return k == TypeKind.INTEGER || k == TypeKind.BIGINT || k == TypeKind.DOUBLE || k == TypeKind.DECIMAL;
    }

    /** True when the value is a finite number, so JSON can hold it as a number. */
    static boolean isFiniteNumber(Object v) {
        if (v instanceof Double d) {
            return Double.isFinite(d);
        }
        if (v instanceof Float f) {
            return Float.isFinite(f);
        }
        return v instanceof Number;
    }


    /** The value at the column's scale when it is a DECIMAL column and that loses nothing. */
    private static BigDecimal decimal(BigDecimal d, DataType type) {
        if (type != null && type.kind() == TypeKind.DECIMAL && d.scale() != type.scale()) {
            try {
                return d.setScale(type.scale(), RoundingMode.UNNECESSARY);
            } catch (ArithmeticException e) {
                return d; // more digits than the scale: show them all rather than round
            }
        }
        return d;
    }
}

package io.tessera.backend.lower;

import io.tessera.storage.DataType;
import io.tessera.storage.TypeKind;

import java.math.RoundingMode;

/**
 * The rules of a CAST (and of an implicit widening) from one SQL type to another: which conversion it is, whether a
 * value can fall outside the target's range (then it is checked, failing with the value and the type), the target's
 * bounds, and how it rounds. DECIMAL to an integer type rounds half away from zero; DOUBLE to an integer type rounds
 * half to even (as DuckDB and PostgreSQL do); a DECIMAL whose scale drops rounds half away from zero.
 */
public record Cast(Conversion conversion, DataType from, DataType to) {

    public enum Conversion {
        /** the same type: the value as it is. */
        IDENTITY,
        /** a number to DOUBLE: a DECIMAL divided by 10^scale ({@link Scale#doubleDivisor}). */
        TO_DOUBLE,
        /** a BOOLEAN to a number: TRUE is 1, FALSE 0. */
        FROM_BOOLEAN,
        /** a string parsed as the target type, checked by the parser. */
        PARSE,
        /** an integer into an integer type that holds every value of the source: nothing to check. */
        WIDEN,
        /** an integer into a narrower integer type: checked against {@link #min()} and {@link #max()}. */
        CHECK_RANGE,
        /** DOUBLE or DECIMAL to an integer type: rounded ({@link #rounding()}), checked where it can leave the range. */
        ROUND,
        /** an exact number to a DECIMAL that holds every value of the source: rescaled by {@link #shift()}. */
        RESCALE,
        /** a number to a DECIMAL that may not hold it: rescaled and checked against the target's precision. */
        RESCALE_CHECKED,
        /** an integer to BOOLEAN: not zero. */
        NONZERO,
        /** a value to VARCHAR: its text. */
        FORMAT,
        /** a DATE to a TIMESTAMP: its midnight. */
        DAYS_TO_MICROS,
        /** a TIMESTAMP to a DATE: the day it falls on. */
        MICROS_TO_DAYS,
        /** a TIMESTAMP to a TIME: its time of day. */
        MICROS_TO_TIME
    }

    /** The rules of a cast from {@code from} to {@code to}; {@link Unsupported} where SQL allows none here. */
    public static Cast of(DataType from, DataType to) {
        return new Cast(conversion(from, to), from, to);
    }

    private static Conversion conversion(DataType from, DataType to) {
        if (from.equals(to)) {
            return Conversion.IDENTITY;
        }
        TypeKind f = from.kind();
        if ((from.isBlob() || from.isUuid()) && !to.isText()) {
            return unsupported(from, to); // DuckDB casts bytes and UUIDs only to text
        }
        return switch (to.kind()) {
            case DOUBLE -> f == TypeKind.TIMESTAMP || f == TypeKind.TIMESTAMP_TZ || f == TypeKind.TIME ? unsupported(from, to) : f == TypeKind.VARCHAR ? Conversion.PARSE : f == TypeKind.BOOLEAN ? Conversion.FROM_BOOLEAN
                    : Conversion.TO_DOUBLE;
            case INTEGER, BIGINT -> switch (f) {
                case TIMESTAMP, TIMESTAMP_TZ, TIME -> throw new Unsupported("CAST from " + from + " to " + to);
                case DOUBLE, DECIMAL -> Conversion.ROUND;
                case BOOLEAN -> Conversion.FROM_BOOLEAN;
                case VARCHAR -> Conversion.PARSE;
                default -> DataType.fitsIn(from, to) ? Conversion.WIDEN : Conversion.CHECK_RANGE;
            };
            case DECIMAL -> switch (f) {
                case TIMESTAMP, TIMESTAMP_TZ, TIME -> throw new Unsupported("CAST from " + from + " to " + to);
                case DOUBLE -> Conversion.RESCALE_CHECKED;
                case VARCHAR -> Conversion.PARSE;
                case BOOLEAN -> throw new Unsupported("CAST from BOOLEAN to DECIMAL");
                case DECIMAL -> rescaleFits(from, to) ? Conversion.RESCALE : Conversion.RESCALE_CHECKED;
                default -> DataType.digits(from) <= to.precision() - to.scale() ? Conversion.RESCALE
                        : Conversion.RESCALE_CHECKED;
            };
            case DATE -> switch (f) {
                case VARCHAR -> Conversion.PARSE;
                case TIMESTAMP -> Conversion.MICROS_TO_DAYS;
                default -> unsupported(from, to);
            };
            case TIMESTAMP -> switch (f) {
                case VARCHAR -> Conversion.PARSE;
                case DATE -> Conversion.DAYS_TO_MICROS;
                default -> unsupported(from, to);
            };
            case TIME -> switch (f) {
                case VARCHAR -> Conversion.PARSE;
                case TIMESTAMP -> Conversion.MICROS_TO_TIME;
                default -> unsupported(from, to);
            };
            // the session's time zone converts to and from other types: plan.ZonedCalls lowers those casts
            case TIMESTAMP_TZ -> unsupported(from, to);
            case BOOLEAN -> {
                if (f == TypeKind.VARCHAR) {
                    yield Conversion.PARSE;
                }
                if (f == TypeKind.INTEGER || f == TypeKind.BIGINT) {
                    yield Conversion.NONZERO;
                }
                throw new Unsupported("CAST from " + from + " to BOOLEAN");
            }
            // text reads as bytes (\xAB escapes) or a UUID; nothing else casts to them
            case VARCHAR -> to.isText() ? (f == TypeKind.TIMESTAMP_TZ ? unsupported(from, to) : Conversion.FORMAT)
                    : from.isText() ? Conversion.PARSE : unsupported(from, to);
        };
    }

    private static Conversion unsupported(DataType from, DataType to) {
        throw new Unsupported("CAST from " + from + " to " + to);
    }

    /**
     * Whether every DECIMAL of type {@code from} fits DECIMAL {@code to}: it loses no integer digit, and where it
     * loses decimals, rounding (which may carry into one more integer digit, 99.95 to 100.0) has a digit to spare.
     */
    public static boolean rescaleFits(DataType from, DataType to) {
        return DataType.decimalFits(from, to)
                || to.scale() < from.scale() && to.precision() - to.scale() > from.precision() - from.scale();
    }

    /**
     * Whether a value of the source can fall outside the target's range, so that the cast is checked. A DECIMAL
     * rounded to BIGINT always fits (at most 18 digits).
     */
    public boolean canLeaveRange() {
        return switch (conversion) {
            case IDENTITY, TO_DOUBLE, FROM_BOOLEAN, WIDEN, RESCALE, NONZERO, FORMAT, DAYS_TO_MICROS, MICROS_TO_DAYS, MICROS_TO_TIME -> false;
            case ROUND -> from.kind() == TypeKind.DOUBLE || to.kind() != TypeKind.BIGINT;
            case PARSE, CHECK_RANGE, RESCALE_CHECKED -> true;
        };
    }

    /** The smallest value of the integer target type. */
    public long min() {
        return to.minValue();
    }

    /** The largest value of the integer target type. */
    public long max() {
        return to.maxValue();
    }

    /** How a value that loses digits rounds: half to even from DOUBLE, half away from zero from DECIMAL. */
    public RoundingMode rounding() {
        return from.kind() == TypeKind.DOUBLE ? RoundingMode.HALF_EVEN : RoundingMode.HALF_UP;
    }

    /** RESCALE: the power of ten the unscaled value is rescaled by (0: as it is); ROUND from DECIMAL: minus the scale. */
    public int shift() {
        return Scale.shift(from, Scale.of(to));
    }
}

package io.tessera.data.parquet;

import io.tessera.data.io.InvalidUtf8;
import io.tessera.data.io.MessageText;
import io.tessera.data.io.Utf8;
import io.tessera.storage.ColumnBuilder;
import io.tessera.storage.DataType;
import io.tessera.storage.Timestamps;
import io.tessera.storage.TypeKind;
import io.tessera.storage.Values;
import org.apache.parquet.column.Dictionary;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.io.api.PrimitiveConverter;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The receivers of decoded Parquet values: each converts one source kind ({@link SourceColumn.Kind}) to the table
 * column's type and appends it to the column's builder. A value the column cannot hold (out of range, more
 * fractional digits than its scale, text that is not UTF-8) throws {@link IllegalArgumentException}; the row
 * reader adds the row and column.
 */
final class ValueConverters {

    private ValueConverters() {
    }

    /** The converter from {@code source}'s values to {@code target}, which {@link SourceColumn#mismatch} accepted. */
    static PrimitiveConverter create(SourceColumn source, DataType target, ColumnBuilder out, InvalidUtf8 invalidUtf8) {
        return switch (source.kind()) {
            case INTEGER, UNSIGNED_INT32, UNSIGNED_INT64 -> new Integral(out, target, source.kind());
            case DECIMAL -> new Decimal(out, target, source.scale());
            case FLOATING -> new Floating(out);
            case DATE -> new Dates(out, target.kind() == TypeKind.TIMESTAMP || target.kind() == TypeKind.TIMESTAMP_TZ);
            case TIMESTAMP, INSTANT -> new TimestampValues(out, source.scale());
            case TIME -> new TimeValues(out, source.scale());
            case BOOLEAN -> new Booleans(out);
            case STRING -> new Strings(out, invalidUtf8);
            case BYTES, UUID -> new ByteValues(out, source.kind() == SourceColumn.Kind.UUID);
            case INTERVAL -> new IntervalValues(out);
        };
    }

    /**
     * A Parquet INTERVAL's 12 bytes (little-endian months, days, and milliseconds unsigned, as DuckDB reads them) into
     * the code of the INTERVAL they make.
     */
    private static final class IntervalValues extends PrimitiveConverter {
        private final ColumnBuilder out;

        IntervalValues(ColumnBuilder out) {
            this.out = out;
        }

        @Override
        public void addBinary(Binary v) {
            java.nio.ByteBuffer b = v.toByteBuffer().order(java.nio.ByteOrder.LITTLE_ENDIAN);
            int months = b.getInt();
            int days = b.getInt();
            long millis = Integer.toUnsignedLong(b.getInt());
            out.appendString(new io.tessera.storage.Interval(months, days, millis * 1000).encode());
        }
    }

    /** BYTE_ARRAY bytes into a BLOB (a character per byte), a UUID's 16 bytes into its canonical text. */
    private static final class ByteValues extends PrimitiveConverter {
        private final ColumnBuilder out;
        private final boolean uuid;

        ByteValues(ColumnBuilder out, boolean uuid) {
            this.out = out;
            this.uuid = uuid;
        }

        @Override
        public void addBinary(Binary v) {
            byte[] b = v.getBytes();
            out.appendString(uuid ? io.tessera.storage.Uuids.of(b, 0) : io.tessera.storage.ByteStrings.of(b));
        }
    }

    /** Signed or unsigned integers into INTEGER, SMALLINT, TINYINT, BIGINT, DECIMAL or DOUBLE. */
    private static final class Integral extends PrimitiveConverter {
        private final ColumnBuilder out;
        private final DataType target;
        private final boolean unsigned32;
        private final boolean unsigned64;
        private final long scale;

        Integral(ColumnBuilder out, DataType target, SourceColumn.Kind kind) {
            this.out = out;
            this.target = target;
            this.unsigned32 = kind == SourceColumn.Kind.UNSIGNED_INT32;
            this.unsigned64 = kind == SourceColumn.Kind.UNSIGNED_INT64;
            this.scale = target.kind() == TypeKind.DECIMAL ? Values.pow10(target.scale()) : 1;
        }

        @Override
        public void addInt(int v) {
            if (target.kind() == TypeKind.INTEGER && !unsigned32) {
                out.appendInt(v); // the builder checks SMALLINT and TINYINT
            } else {
                put(unsigned32 ? Integer.toUnsignedLong(v) : v);
            }
        }

        @Override
        public void addLong(long v) {
            if (unsigned64 && v < 0) {
                throw new IllegalArgumentException(Values.outOfRangeMessage(Long.toUnsignedString(v),
                        target.toString()));
            }
            put(v);
        }

        private void put(long v) {
            switch (target.kind()) {
                case INTEGER -> {
                    if (v < Integer.MIN_VALUE || v > Integer.MAX_VALUE) {
                        throw new IllegalArgumentException(Values.outOfRangeMessage(Long.toString(v),
                                target.toString()));
                    }
                    out.appendInt((int) v);
                }
                case BIGINT -> out.appendLong(v);
                case DOUBLE -> out.appendDouble(v);
                case DECIMAL -> {
                    long unscaled;
                    try {
                        unscaled = Math.multiplyExact(v, scale);
                    } catch (ArithmeticException e) {
                        throw new IllegalArgumentException(Values.outOfRangeMessage(Long.toString(v),
                                target.toString()), e);
                    }
                    out.appendLong(unscaled);
                }
                default -> throw new IllegalStateException("integers into " + target);
            }
        }
    }

    /** Unscaled decimals (INT32, INT64 or big-endian two's complement bytes) into DECIMAL or DOUBLE. */
    private static final class Decimal extends PrimitiveConverter {
        private final ColumnBuilder out;
        private final DataType target;
        private final int sourceScale;

        Decimal(ColumnBuilder out, DataType target, int sourceScale) {
            this.out = out;
            this.target = target;
            this.sourceScale = sourceScale;
        }

        @Override
        public void addInt(int v) {
            put(v);
        }

        @Override
        public void addLong(long v) {
            put(v);
        }

        @Override
        public void addBinary(Binary v) {
            BigInteger unscaled = new BigInteger(v.getBytes());
            if (unscaled.bitLength() > 63) {
                throw new IllegalArgumentException(Values.outOfRangeMessage(
                        new BigDecimal(unscaled, sourceScale).toPlainString(), target.toString()));
            }
            put(unscaled.longValue());
        }

        private void put(long unscaled) {
            if (target.kind() == TypeKind.DOUBLE) {
                out.appendDouble(BigDecimal.valueOf(unscaled, sourceScale).doubleValue());
                return;
            }
            int shift = target.scale() - sourceScale;
            try {
                if (shift >= 0) {
                    out.appendLong(Math.multiplyExact(unscaled, Values.pow10(shift)));
                } else if (-shift > 18) {
                    if (unscaled != 0) { // |unscaled| < 2^63 < 10^19: never a whole multiple of 10^19 or more
                        throw new IllegalArgumentException("value " + new BigDecimal(BigInteger.valueOf(unscaled),
                                sourceScale).toPlainString() + " has more fractional digits than " + target);
                    }
                    out.appendLong(0);
                } else {
                    long divisor = Values.pow10(-shift);
                    if (unscaled % divisor != 0) {
                        throw new IllegalArgumentException("value " + BigDecimal.valueOf(unscaled, sourceScale)
                                .toPlainString() + " has more fractional digits than " + target);
                    }
                    out.appendLong(unscaled / divisor);
                }
            } catch (ArithmeticException e) {
                throw new IllegalArgumentException(Values.outOfRangeMessage(
                        BigDecimal.valueOf(unscaled, sourceScale).toPlainString(), target.toString()), e);
            }
        }
    }

    private static final class Floating extends PrimitiveConverter {
        private final ColumnBuilder out;

        Floating(ColumnBuilder out) {
            this.out = out;
        }

        @Override
        public void addDouble(double v) {
            out.appendDouble(v);
        }

        @Override
        public void addFloat(float v) {
            out.appendDouble(v);
        }
    }

    /** Days into DATE, or into TIMESTAMP as their midnights. */
    private static final class Dates extends PrimitiveConverter {
        private final ColumnBuilder out;
        private final boolean toTimestamp;

        Dates(ColumnBuilder out, boolean toTimestamp) {
            this.out = out;
            this.toTimestamp = toTimestamp;
        }

        @Override
        public void addInt(int days) {
            if (toTimestamp) {
                out.appendLong(Timestamps.ofDays(days));
            } else {
                out.appendInt(days);
            }
        }
    }

    /**
     * Timestamps of milliseconds, microseconds or nanoseconds (nanoseconds rounded down to the microsecond), or INT96's
     * nanoseconds of a Julian day, into TIMESTAMP's microseconds.
     */
    private static final class TimestampValues extends PrimitiveConverter {
        /** The Julian day number of 1970-01-01. */
        private static final long JULIAN_EPOCH_DAY = 2_440_588L;
        private final ColumnBuilder out;
        private final int digits;

        TimestampValues(ColumnBuilder out, int digits) {
            this.out = out;
            this.digits = digits;
        }

        @Override
        public void addLong(long v) {
            out.appendLong(micros(v, digits, "timestamp"));
        }

        @Override
        public void addBinary(Binary v) { // INT96: 8 bytes of nanoseconds in the day, 4 of the Julian day
            java.nio.ByteBuffer b = v.toByteBuffer().order(java.nio.ByteOrder.LITTLE_ENDIAN);
            long nanos = b.getLong();
            long day = Integer.toUnsignedLong(b.getInt());
            out.appendLong(Math.addExact(Timestamps.ofDays(day - JULIAN_EPOCH_DAY), Math.floorDiv(nanos, 1000L)));
        }
    }

    /**
     * Times of day in milliseconds (INT32), microseconds or nanoseconds (INT64; nanoseconds rounded down to the
     * microsecond) into TIME's microseconds since midnight; a value outside the day is refused.
     */
    private static final class TimeValues extends PrimitiveConverter {
        private final ColumnBuilder out;
        private final int digits;

        TimeValues(ColumnBuilder out, int digits) {
            this.out = out;
            this.digits = digits;
        }

        @Override
        public void addInt(int millis) {
            addLong(millis);
        }

        @Override
        public void addLong(long v) {
            long micros = micros(v, digits, "time");
            if (micros < 0 || micros >= Timestamps.MICROS_PER_DAY) {
                throw new IllegalArgumentException("time " + v + " (" + unit(digits) + " since midnight) is outside"
                        + " the day");
            }
            out.appendLong(micros);
        }
    }

    /**
     * A Parquet TIMESTAMP's or TIME's value in its unit ({@code digits} fractional digits of a second: 3 milliseconds,
     * 6 microseconds, 9 nanoseconds, rounded down) as microseconds; {@code what} names the value in an error.
     */
    static long micros(long v, int digits, String what) {
        try {
            return switch (digits) {
                case 3 -> Math.multiplyExact(v, 1000L);
                case 9 -> Math.floorDiv(v, 1000L);
                default -> v;
            };
        } catch (ArithmeticException e) {
            throw new IllegalArgumentException(what + " " + v + " (" + unit(digits) + ") is out of range", e);
        }
    }

    private static String unit(int digits) {
        return digits == 3 ? "milliseconds" : digits == 6 ? "microseconds" : "nanoseconds";
    }

    private static final class Booleans extends PrimitiveConverter {
        private final ColumnBuilder out;

        Booleans(ColumnBuilder out) {
            this.out = out;
        }

        @Override
        public void addBoolean(boolean v) {
            out.appendBoolean(v);
        }
    }

    /**
     * UTF-8 text into VARCHAR. A dictionary-encoded page passes dictionary ids: each id is decoded and checked once,
     * on its first use, and later rows with it append the builder's code without a lookup.
     */
    private static final class Strings extends PrimitiveConverter {
        private final ColumnBuilder out;
        private final InvalidUtf8 invalidUtf8;
        private Dictionary dictionary;
        private int[] codes;

        Strings(ColumnBuilder out, InvalidUtf8 invalidUtf8) {
            this.out = out;
            this.invalidUtf8 = invalidUtf8;
        }

        @Override
        public boolean hasDictionarySupport() {
            return true;
        }

        @Override
        public void setDictionary(Dictionary d) {
            dictionary = d;
            codes = new int[d.getMaxId() + 1];
            Arrays.fill(codes, -1);
        }

        @Override
        public void addValueFromDictionary(int id) {
            int code = codes[id];
            if (code < 0) {
                code = out.localCode(text(dictionary.decodeToBinary(id)));
                codes[id] = code;
            }
            out.appendCode(code);
        }

        @Override
        public void addBinary(Binary v) {
            out.appendString(text(v));
        }

        private String text(Binary v) {
            byte[] b = v.getBytesUnsafe();
            int n = v.length();
            if (b.length != n) {
                b = v.getBytes();
            }
            return ValueConverters.text(b, 0, n, invalidUtf8);
        }
    }

    /** The UTF-8 text in {@code b[from, from + n)}: an error when it is not UTF-8, unless invalid sequences are replaced. */
    static String text(byte[] b, int from, int n, InvalidUtf8 invalidUtf8) {
        int bad = Utf8.firstInvalid(b, from, from + n);
        if (bad < 0) {
            return new String(b, from, n, StandardCharsets.UTF_8);
        }
        if (invalidUtf8 == InvalidUtf8.REPLACE) {
            return Utf8.decodeReplacing(b, from, from + n);
        }
        throw new IllegalArgumentException("invalid UTF-8 at byte " + (bad - from + 1) + " of the value: "
                + MessageText.quote(b, from, from + n) + " (use --invalid-utf8 replace to store U+FFFD instead)");
    }
}

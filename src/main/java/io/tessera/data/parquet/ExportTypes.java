package io.tessera.data.parquet;

import io.tessera.storage.ColumnSchema;
import io.tessera.storage.DataType;
import org.apache.parquet.format.ConvertedType;
import org.apache.parquet.format.DateType;
import org.apache.parquet.format.DecimalType;
import org.apache.parquet.format.FieldRepetitionType;
import org.apache.parquet.format.IntType;
import org.apache.parquet.format.LogicalType;
import org.apache.parquet.format.SchemaElement;
import org.apache.parquet.format.MicroSeconds;
import org.apache.parquet.format.StringType;
import org.apache.parquet.format.TimeType;
import org.apache.parquet.format.TimeUnit;
import org.apache.parquet.format.TimestampType;
import org.apache.parquet.format.Type;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.PrimitiveType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Types;

/**
 * The Parquet type each Tessera column type is written as, the same types the importer reads back: INTEGER as
 * INT32 (SMALLINT and TINYINT annotated INT(16) and INT(8)), BIGINT as INT64, DOUBLE, REAL as FLOAT, DECIMAL(p,s) as INT32 up to
 * precision 9 and INT64 beyond, annotated DECIMAL(p,s), DATE as INT32 annotated DATE, TIMESTAMP as INT64 annotated TIMESTAMP(MICROS) not adjusted to UTC, TIME as INT64 annotated TIME(MICROS) not adjusted to UTC, BOOLEAN, VARCHAR as
 * BYTE_ARRAY annotated STRING, INTERVAL as FIXED_LEN_BYTE_ARRAY(12) of converted type INTERVAL. A nullable column
 * is OPTIONAL, a NOT NULL one REQUIRED.
 */
final class ExportTypes {

    private ExportTypes() {
    }

    /** Whether a DECIMAL of this type is written as INT32 (else INT64). */
    static boolean decimalAsInt32(DataType t) {
        return t.precision() <= 9;
    }

    /** The column as parquet-java's schema type, which picks the value writers and encodings. */
    static PrimitiveType primitive(ColumnSchema c) {
        org.apache.parquet.schema.Type.Repetition rep = c.nullable()
                ? org.apache.parquet.schema.Type.Repetition.OPTIONAL : org.apache.parquet.schema.Type.Repetition.REQUIRED;
        DataType t = c.type();
        return switch (t.kind()) {
            case INTEGER -> t.isNarrowInteger()
                    ? Types.primitive(PrimitiveTypeName.INT32, rep).as(LogicalTypeAnnotation.intType(t.precision(), true))
                            .named(c.name())
                    : Types.primitive(PrimitiveTypeName.INT32, rep).named(c.name());
            case BIGINT -> Types.primitive(PrimitiveTypeName.INT64, rep).named(c.name());
            case DOUBLE -> Types.primitive(t.isReal() ? PrimitiveTypeName.FLOAT : PrimitiveTypeName.DOUBLE, rep)
                    .named(c.name());
            case DECIMAL -> Types.primitive(decimalAsInt32(t) ? PrimitiveTypeName.INT32 : PrimitiveTypeName.INT64, rep)
                    .as(LogicalTypeAnnotation.decimalType(t.scale(), t.precision())).named(c.name());
            case DATE -> Types.primitive(PrimitiveTypeName.INT32, rep).as(LogicalTypeAnnotation.dateType())
                    .named(c.name());
            case TIMESTAMP -> Types.primitive(PrimitiveTypeName.INT64, rep)
                    .as(LogicalTypeAnnotation.timestampType(false, LogicalTypeAnnotation.TimeUnit.MICROS)).named(c.name());
            case TIMESTAMP_TZ -> Types.primitive(PrimitiveTypeName.INT64, rep)
                    .as(LogicalTypeAnnotation.timestampType(true, LogicalTypeAnnotation.TimeUnit.MICROS)).named(c.name());
            case TIME -> Types.primitive(PrimitiveTypeName.INT64, rep)
                    .as(LogicalTypeAnnotation.timeType(false, LogicalTypeAnnotation.TimeUnit.MICROS)).named(c.name());
            case BOOLEAN -> Types.primitive(PrimitiveTypeName.BOOLEAN, rep).named(c.name());
            // bytes without a string annotation, a UUID as its 16 bytes annotated UUID (as DuckDB writes them)
            // an INTERVAL as 12 bytes with the converted type INTERVAL, as DuckDB writes one
            case VARCHAR -> t.isInterval() ? Types.primitive(PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY, rep).length(12)
                    .as(LogicalTypeAnnotation.IntervalLogicalTypeAnnotation.getInstance()).named(c.name())
                    : t.isBlob() ? Types.primitive(PrimitiveTypeName.BINARY, rep).named(c.name())
                    : t.isUuid() ? Types.primitive(PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY, rep).length(16)
                    .as(LogicalTypeAnnotation.uuidType()).named(c.name())
                    : Types.primitive(PrimitiveTypeName.BINARY, rep).as(LogicalTypeAnnotation.stringType())
                    .named(c.name());
        };
    }

    /** The bytes a VARCHAR-kind value is written as: a BLOB's own, a UUID's 16, an INTERVAL's 12, text's UTF-8. */
    static byte[] bytes(String value, DataType t) {
        return t.isInterval() ? intervalBytes(io.tessera.storage.Interval.decode(value))
                : t.isBlob() ? io.tessera.storage.ByteStrings.bytes(value)
                : t.isUuid() ? io.tessera.storage.Uuids.bytes(value) : value.getBytes(java.nio.charset.StandardCharsets.UTF_8);
    }

    /**
     * An INTERVAL as Parquet holds one, as DuckDB writes it: months, days (the microseconds' whole days added) and the
     * milliseconds of the rest (the microseconds below a millisecond cut off), little-endian 32-bit integers. A
     * negative part has no such form: refused, as DuckDB refuses it.
     */
    static byte[] intervalBytes(io.tessera.storage.Interval v) {
        if (v.months() < 0 || v.days() < 0 || v.micros() < 0) {
            throw new IllegalArgumentException("Parquet files do not support negative intervals (" + v + ")");
        }
        long days = v.days() + v.micros() / io.tessera.storage.Interval.MICROS_PER_DAY;
        if (days > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("the interval " + v + " has more days than Parquet's 32 bits hold");
        }
        long millis = v.micros() % io.tessera.storage.Interval.MICROS_PER_DAY / 1000;
        return java.nio.ByteBuffer.allocate(12).order(java.nio.ByteOrder.LITTLE_ENDIAN).putInt(v.months())
                .putInt((int) days).putInt((int) millis).array();
    }

    /** The column as the file's footer describes it: physical type, repetition, logical and converted type. */
    static SchemaElement element(ColumnSchema c) {
        DataType t = c.type();
        SchemaElement e = new SchemaElement(c.name());
        e.setRepetition_type(c.nullable() ? FieldRepetitionType.OPTIONAL : FieldRepetitionType.REQUIRED);
        switch (t.kind()) {
            case INTEGER -> {
                e.setType(Type.INT32);
                if (t.isNarrowInteger()) {
                    e.setLogicalType(LogicalType.INTEGER(new IntType((byte) t.precision(), true)));
                    e.setConverted_type(t.precision() == 16 ? ConvertedType.INT_16 : ConvertedType.INT_8);
                }
            }
            case BIGINT -> e.setType(Type.INT64);
            case DOUBLE -> e.setType(t.isReal() ? Type.FLOAT : Type.DOUBLE);
            case DECIMAL -> {
                e.setType(decimalAsInt32(t) ? Type.INT32 : Type.INT64);
                e.setLogicalType(LogicalType.DECIMAL(new DecimalType(t.scale(), t.precision())));
                e.setConverted_type(ConvertedType.DECIMAL);
                e.setScale(t.scale());
                e.setPrecision(t.precision());
            }
            case DATE -> {
                e.setType(Type.INT32);
                e.setLogicalType(LogicalType.DATE(new DateType()));
                e.setConverted_type(ConvertedType.DATE);
            }
            case TIMESTAMP -> {
                e.setType(Type.INT64);
                e.setLogicalType(LogicalType.TIMESTAMP(new TimestampType(false, TimeUnit.MICROS(new MicroSeconds()))));
                e.setConverted_type(ConvertedType.TIMESTAMP_MICROS);
            }
            case TIMESTAMP_TZ -> { // an instant: adjusted to UTC, as DuckDB writes a TIMESTAMP WITH TIME ZONE
                e.setType(Type.INT64);
                e.setLogicalType(LogicalType.TIMESTAMP(new TimestampType(true, TimeUnit.MICROS(new MicroSeconds()))));
                e.setConverted_type(ConvertedType.TIMESTAMP_MICROS);
            }
            case TIME -> {
                e.setType(Type.INT64);
                e.setLogicalType(LogicalType.TIME(new TimeType(false, TimeUnit.MICROS(new MicroSeconds()))));
                e.setConverted_type(ConvertedType.TIME_MICROS);
            }
            case BOOLEAN -> e.setType(Type.BOOLEAN);
            case VARCHAR -> {
                if (t.isInterval()) {
                    e.setType(Type.FIXED_LEN_BYTE_ARRAY);
                    e.setType_length(12);
                    e.setConverted_type(ConvertedType.INTERVAL);
                } else if (t.isUuid()) {
                    e.setType(Type.FIXED_LEN_BYTE_ARRAY);
                    e.setType_length(16);
                    e.setLogicalType(LogicalType.UUID(new org.apache.parquet.format.UUIDType()));
                } else {
                    e.setType(Type.BYTE_ARRAY);
                    if (!t.isBlob()) {
                        e.setLogicalType(LogicalType.STRING(new StringType()));
                        e.setConverted_type(ConvertedType.UTF8);
                    }
                }
            }
        }
        return e;
    }
}

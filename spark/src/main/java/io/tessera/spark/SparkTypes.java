package io.tessera.spark;

import io.tessera.storage.ColumnSchema;
import io.tessera.storage.DataType;
import io.tessera.storage.TableSchema;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.Decimal;
import org.apache.spark.sql.types.DecimalType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.unsafe.types.UTF8String;

import java.math.BigDecimal;
import java.time.LocalDate;

/** Tessera's column types as Spark's, and Tessera's Java values as Spark's internal ones. */
final class SparkTypes {

    private SparkTypes() {
    }

    static org.apache.spark.sql.types.DataType of(DataType t) {
        return switch (t.kind()) {
            case INTEGER -> t.equals(DataType.SMALLINT) ? DataTypes.ShortType
                    : t.equals(DataType.TINYINT) ? DataTypes.ByteType : DataTypes.IntegerType;
            case BIGINT -> DataTypes.LongType;
            case DOUBLE -> DataTypes.DoubleType;
            case DECIMAL -> DataTypes.createDecimalType(t.precision(), t.scale());
            case DATE -> DataTypes.DateType;
            // a TIMESTAMP without a time zone, microseconds as Spark's TIMESTAMP_NTZ holds them
            case TIMESTAMP -> DataTypes.TimestampNTZType;
            // an instant in microseconds since 1970-01-01 UTC: Spark's TIMESTAMP (shown in Spark's session zone)
            case TIMESTAMP_TZ -> DataTypes.TimestampType;
            // a time of day to the microsecond: Spark's TIME(6), which holds nanoseconds since midnight
            case TIME -> org.apache.spark.sql.types.TimeType.apply(6);
            case BOOLEAN -> DataTypes.BooleanType;
            // a UUID as its text, as Spark has no UUID type
            case VARCHAR -> t.isBlob() ? DataTypes.BinaryType : DataTypes.StringType;
        };
    }

    static StructType schema(TableSchema table) {
        StructField[] fields = new StructField[table.columns().size()];
        for (int i = 0; i < fields.length; i++) {
            ColumnSchema c = table.columns().get(i);
            fields[i] = DataTypes.createStructField(c.name(), of(c.type()), c.nullable());
        }
        return DataTypes.createStructType(fields);
    }

    /**
     * A value of a Tessera result (Integer, Long, Double, BigDecimal, LocalDate, LocalDateTime, OffsetDateTime, LocalTime, Boolean,
     * String, byte[], UUID) as Spark holds it.
     */
    static Object internal(Object v, org.apache.spark.sql.types.DataType type) {
        if (v == null) {
            return null;
        }
        if (type == DataTypes.StringType) {
            return UTF8String.fromString(v.toString()); // a String, or a java.util.UUID
        }
        if (type == DataTypes.DateType) {
            return (int) ((LocalDate) v).toEpochDay();
        }
        if (type == DataTypes.TimestampNTZType) {
            return io.tessera.storage.Timestamps.micros((java.time.LocalDateTime) v);
        }
        if (type == DataTypes.TimestampType) {
            return io.tessera.storage.ZonedTimestamps.micros(v);
        }
        if (type instanceof org.apache.spark.sql.types.TimeType) {
            return ((java.time.LocalTime) v).toNanoOfDay();
        }
        if (type instanceof DecimalType d) {
            return Decimal.apply((BigDecimal) v, d.precision(), d.scale());
        }
        if (type == DataTypes.LongType) {
            return ((Number) v).longValue();
        }
        if (type == DataTypes.IntegerType) {
            return ((Number) v).intValue();
        }
        if (type == DataTypes.ShortType) {
            return ((Number) v).shortValue();
        }
        if (type == DataTypes.ByteType) {
            return ((Number) v).byteValue();
        }
        if (type == DataTypes.DoubleType) {
            return ((Number) v).doubleValue();
        }
        return v; // BooleanType, BinaryType (a BLOB's byte[])
    }
}

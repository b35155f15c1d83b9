package io.tessera.spark;

import io.tessera.storage.TableSchema;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.Decimal;
import org.apache.spark.sql.types.DecimalType;
import org.apache.spark.unsafe.types.UTF8String;

import java.time.LocalDate;

/**
 * The only text of Spark's that reaches the SQL a task runs: a column's name, only after it is found in the table's
 * schema (whose names are letters, digits and underscores), always quoted. Values never become text: a literal
 * becomes a {@code ?} whose value (converted here from Spark's internal form to the Java value Tessera binds) the
 * query carries beside its text.
 */
final class SqlText {

    private SqlText() {
    }

    /** The quoted name of a column of {@code schema}, or null when the table has no such column. */
    static String column(TableSchema schema, String name) {
        int i = schema.indexOf(name);
        if (i < 0) {
            return null;
        }
        return quote(schema.columns().get(i).name());
    }

    static String quote(String identifier) {
        return '"' + identifier.replace("\"", "\"\"") + '"';
    }

    /**
     * The Java value Tessera binds for {@code value} (Spark's internal form) of Spark type {@code type): Integer,
     * Short, Byte, Long, Double, BigDecimal, Boolean, LocalDate or String; null when it has none (NULL, NaN, the
     * infinities, a type Tessera has not).
     */
    static Object value(Object value, DataType type) {
        if (value == null) {
            return null;
        }
        if (type == DataTypes.IntegerType || type == DataTypes.ShortType || type == DataTypes.ByteType
                || type == DataTypes.LongType || type == DataTypes.BooleanType) {
            return value;
        }
        if (type == DataTypes.DoubleType) {
            return Double.isFinite((Double) value) ? value : null;
        }
        if (type instanceof DecimalType) {
            return ((Decimal) value).toJavaBigDecimal();
        }
        if (type == DataTypes.DateType) {
            return LocalDate.ofEpochDay((Integer) value);
        }
        if (type == DataTypes.StringType) {
            return ((UTF8String) value).toString();
        }
        return null;
    }
}

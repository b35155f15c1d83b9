package io.tessera.spark;

import io.tessera.storage.TableSchema;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.Decimal;
import org.apache.spark.sql.types.DecimalType;
import org.apache.spark.unsafe.types.UTF8String;

import java.time.LocalDate;

/**
 * The only way text reaches the SQL a task runs: a column's name only after it is found in the table's schema (whose
 * names are letters, digits and underscores), always quoted; a literal only rendered from its typed value (a number
 * from its binary value, a string with its quotes doubled, a date from its day count), never from text Spark or a
 * user gave. What cannot be rendered exactly yields null, and the caller leaves that work to Spark.
 */
final class SqlText {

    private static final long MAX_LITERAL = 1_000_000_000_000_000_000L;

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

    /** A SQL literal holding {@code value} (Spark's internal form) of Spark type {@code type}, or null. */
    static String literal(Object value, DataType type) {
        if (value == null) {
            return null;
        }
        if (type == DataTypes.IntegerType || type == DataTypes.ShortType || type == DataTypes.ByteType) {
            return number(((Number) value).longValue());
        }
        if (type == DataTypes.LongType) {
            long v = (Long) value;
            // Tessera's exact literals have at most 18 digits: larger ones are left to Spark
            return Math.abs(v) >= MAX_LITERAL || v == Long.MIN_VALUE ? null : number(v);
        }
        if (type == DataTypes.DoubleType) {
            double d = (Double) value;
            if (!Double.isFinite(d)) {
                return null;
            }
            String s = Double.toString(Math.abs(d));
            // an approximate numeric literal (with an exponent) is a DOUBLE; without one it would be a DECIMAL
            String text = s.contains("E") ? s : s + "E0";
            return d < 0 || (d == 0 && 1 / d < 0) ? "(-" + text + ")" : text;
        }
        if (type instanceof DecimalType) {
            return ((Decimal) value).toJavaBigDecimal().toPlainString();
        }
        if (type == DataTypes.BooleanType) {
            return (Boolean) value ? "TRUE" : "FALSE";
        }
        if (type == DataTypes.DateType) {
            LocalDate d = LocalDate.ofEpochDay((Integer) value);
            return d.getYear() < 1 || d.getYear() > 9999 ? null : "DATE '" + d + "'";
        }
        if (type == DataTypes.StringType) {
            return string(((UTF8String) value).toString());
        }
        return null;
    }

    /** A string literal: the text between single quotes, each quote doubled (the only escape SQL has in one). */
    static String string(String s) {
        return "'" + s.replace("'", "''") + "'";
    }

    private static String number(long v) {
        return v < 0 ? "(" + v + ")" : Long.toString(v);
    }
}

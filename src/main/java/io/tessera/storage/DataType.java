package io.tessera.storage;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** A column type: a kind, and for DECIMAL its precision and scale. */
public record DataType(TypeKind kind, int precision, int scale) {

    public static final int MAX_DECIMAL_PRECISION = 18;

    public static final DataType INTEGER = new DataType(TypeKind.INTEGER, 0, 0);
    public static final DataType BIGINT = new DataType(TypeKind.BIGINT, 0, 0);
    public static final DataType DOUBLE = new DataType(TypeKind.DOUBLE, 0, 0);
    public static final DataType DATE = new DataType(TypeKind.DATE, 0, 0);
    public static final DataType BOOLEAN = new DataType(TypeKind.BOOLEAN, 0, 0);
    public static final DataType VARCHAR = new DataType(TypeKind.VARCHAR, 0, 0);

    private static final Pattern DECIMAL_PATTERN =
            Pattern.compile("(?:DECIMAL|NUMERIC)\\s*\\(\\s*(\\d+)\\s*(?:,\\s*(\\d+)\\s*)?\\)");

    public DataType {
        if (kind == TypeKind.DECIMAL) {
            if (precision < 1 || precision > MAX_DECIMAL_PRECISION) {
                throw new IllegalArgumentException("DECIMAL precision must be 1.." + MAX_DECIMAL_PRECISION
                        + " (stored as a scaled 64-bit integer), got " + precision);
            }
            if (scale < 0 || scale > precision) {
                throw new IllegalArgumentException("DECIMAL scale must be 0.." + precision + ", got " + scale);
            }
        } else if (precision != 0 || scale != 0) {
            throw new IllegalArgumentException(kind + " takes no precision or scale");
        }
    }

    public static DataType decimal(int precision, int scale) {
        return new DataType(TypeKind.DECIMAL, precision, scale);
    }

    /** Parses a SQL type name: INTEGER, INT, BIGINT, DOUBLE, DECIMAL(p,s), DATE, BOOLEAN, VARCHAR[(n)], ... */
    public static DataType parse(String text) {
        String t = text.trim().toUpperCase(Locale.ROOT).replaceAll("\\s+", " ");
        Matcher m = DECIMAL_PATTERN.matcher(t);
        if (m.matches()) {
            int p = Integer.parseInt(m.group(1));
            int s = m.group(2) == null ? 0 : Integer.parseInt(m.group(2));
            return decimal(p, s);
        }
        if (t.startsWith("VARCHAR") || t.startsWith("CHAR") || t.equals("TEXT") || t.equals("STRING")) {
            return VARCHAR;
        }
        return switch (t) {
            case "INTEGER", "INT", "INT4", "SMALLINT", "TINYINT" -> INTEGER;
            case "BIGINT", "INT8", "LONG" -> BIGINT;
            case "DOUBLE", "DOUBLE PRECISION", "FLOAT", "FLOAT8", "REAL" -> DOUBLE;
            case "DECIMAL", "NUMERIC" -> decimal(18, 0);
            case "DATE" -> DATE;
            case "BOOLEAN", "BOOL" -> BOOLEAN;
            default -> throw new IllegalArgumentException("unknown column type '" + text.trim() + "'");
        };
    }

    @Override
    public String toString() {
        return kind == TypeKind.DECIMAL ? "DECIMAL(" + precision + "," + scale + ")" : kind.name();
    }
}

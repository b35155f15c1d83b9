package io.tessera.storage;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A column type: a kind, and for DECIMAL its precision and scale. SMALLINT and TINYINT are checked INTEGERs: their
 * values are stored and computed as 32-bit integers (kind INTEGER), and {@code precision} holds their width in bits
 * (16 or 8; 0 for INTEGER itself), so that every CAST to them and every store into them checks the narrower range.
 * REAL (DuckDB's FLOAT, FLOAT4) is built the same way: a DOUBLE whose {@code precision} is {@link #REAL_FORM}, whose
 * values are always exactly a Java float. It is stored and computed as a double (8 bytes a value, as a SMALLINT takes
 * 4), and every CAST to it, every store into it, every literal of it and the result of every operation typed REAL is
 * rounded to float ({@code (double) (float) x}; for + - * / of two floats that is IEEE float arithmetic, since a
 * double has more than twice a float's precision).
 * A LIST (DuckDB's {@code INTEGER[]}) has an {@code element} type (null for every other type) and kind VARCHAR: each
 * list value is held as one string, its elements encoded by {@link ListCodec}, so that every operator that moves,
 * groups, joins or stores strings does so with lists; what reads elements or shows a value looks at the element type.
 * A STRUCT (DuckDB's {@code STRUCT(a INTEGER, b VARCHAR)}) has its {@code fields} (null for every other type) and is
 * held the same way: each struct value one string, its fields' values encoded in order as a list's elements
 * ({@link StructCodec}). A struct's field may be a list or a struct, and a list's element a struct or a list (to any depth).
 * A MAP (DuckDB's {@code MAP(VARCHAR, INTEGER)}) is what DuckDB makes it, a LIST of {@code STRUCT(key K, value V)}
 * entries with unique non-NULL keys, marked by {@code precision} {@link #MAP_FORM}: it is a list to everything that
 * stores, compares, orders or groups values, and a map to what names its type and shows or reads its values.
 */
public record DataType(TypeKind kind, int precision, int scale, DataType element, java.util.List<StructField> fields) {

    public static final int MAX_DECIMAL_PRECISION = 18;

    /** The {@code precision} that marks a LIST of key-value structs as a MAP. */
    public static final int MAP_FORM = 3;

    public static final DataType INTEGER = new DataType(TypeKind.INTEGER, 0, 0);
    /** A 16-bit integer held as an INTEGER whose range every CAST and store checks. */
    public static final DataType SMALLINT = new DataType(TypeKind.INTEGER, 16, 0);
    /** An 8-bit integer held as an INTEGER whose range every CAST and store checks. */
    public static final DataType TINYINT = new DataType(TypeKind.INTEGER, 8, 0);
    public static final DataType BIGINT = new DataType(TypeKind.BIGINT, 0, 0);
    public static final DataType DOUBLE = new DataType(TypeKind.DOUBLE, 0, 0);
    /** The {@code precision} that marks a DOUBLE as REAL: its width in bits. */
    public static final int REAL_FORM = 32;
    /** A 32-bit float (DuckDB's FLOAT) held as a DOUBLE whose every value is rounded to float. */
    public static final DataType REAL = new DataType(TypeKind.DOUBLE, REAL_FORM, 0);
    public static final DataType DATE = new DataType(TypeKind.DATE, 0, 0);
    public static final DataType TIMESTAMP = new DataType(TypeKind.TIMESTAMP, 0, 0);
    /** An instant, shown in the session's time zone (DuckDB's TIMESTAMPTZ). */
    public static final DataType TIMESTAMP_TZ = new DataType(TypeKind.TIMESTAMP_TZ, 0, 0);
    public static final DataType TIME = new DataType(TypeKind.TIME, 0, 0);
    public static final DataType BOOLEAN = new DataType(TypeKind.BOOLEAN, 0, 0);
    public static final DataType VARCHAR = new DataType(TypeKind.VARCHAR, 0, 0);
    /**
     * Bytes (DuckDB's BLOB, BYTEA, VARBINARY): stored and computed as a VARCHAR whose every character is one byte
     * (0 to 255), so that the dictionary's order and every string comparison are DuckDB's unsigned byte-wise order;
     * {@code precision} holds {@link #BLOB_FORM}. See {@link ByteStrings}.
     */
    public static final DataType BLOB = new DataType(TypeKind.VARCHAR, ByteStrings.BLOB_FORM, 0);
    /**
     * A UUID: stored and computed as a VARCHAR holding its lower-case 8-4-4-4-12 text, whose order is DuckDB's
     * (unsigned, first byte first); {@code precision} holds {@link #UUID_FORM}. See {@link Uuids}.
     */
    public static final DataType UUID = new DataType(TypeKind.VARCHAR, Uuids.UUID_FORM, 0);
    /**
     * DuckDB's INTERVAL (months, days, microseconds: {@link Interval}). Inside a query its values are computed text,
     * each the interval's {@link Interval#encode() code}, which orders as intervals compare; so it is a VARCHAR
     * kind marked by its scale, and rows, sorts and group keys carry it as they carry computed strings. A column of
     * INTERVAL stores the codes as a VARCHAR column stores its strings: the order-preserving dictionary orders them as
     * DuckDB orders intervals.
     */
    public static final DataType INTERVAL = new DataType(TypeKind.VARCHAR, 0, 1);

    private static final Pattern DECIMAL_PATTERN =
            Pattern.compile("(?:DECIMAL|NUMERIC)\\s*\\(\\s*(\\d+)\\s*(?:,\\s*(\\d+)\\s*)?\\)");

    public DataType(TypeKind kind, int precision, int scale) {
        this(kind, precision, scale, null, null);
    }

    public DataType(TypeKind kind, int precision, int scale, DataType element) {
        this(kind, precision, scale, element, null);
    }

    public DataType {
        if (fields != null) {
            fields = java.util.List.copyOf(fields);
            if (kind != TypeKind.VARCHAR || precision != 0 || scale != 0 || element != null || fields.isEmpty()) {
                throw new IllegalArgumentException("a STRUCT is held as VARCHAR with at least one field");
            }
        }
        if (element != null && (kind != TypeKind.VARCHAR || precision != 0 && precision != MAP_FORM || scale != 0)) {
            throw new IllegalArgumentException("a LIST is held as VARCHAR with an element type");
        }
        if (element != null && precision == MAP_FORM && (!element.isStruct() || element.fields.size() != 2)) {
            throw new IllegalArgumentException("a MAP is a LIST of key-value structs");
        }
        if (kind == TypeKind.DECIMAL) {
            if (precision < 1 || precision > MAX_DECIMAL_PRECISION) {
                throw new IllegalArgumentException("DECIMAL precision must be 1.." + MAX_DECIMAL_PRECISION
                        + " (stored as a scaled 64-bit integer), got " + precision);
            }
            if (scale < 0 || scale > precision) {
                throw new IllegalArgumentException("DECIMAL scale must be 0.." + precision + ", got " + scale);
            }
        } else if (kind == TypeKind.INTEGER && (precision == 8 || precision == 16) && scale == 0) {
            // SMALLINT or TINYINT
        } else if (kind == TypeKind.DOUBLE && precision == REAL_FORM && scale == 0) {
            // REAL
        } else if (kind == TypeKind.VARCHAR && (precision == ByteStrings.BLOB_FORM || precision == Uuids.UUID_FORM)
                && scale == 0) {
            // BLOB or UUID
        } else if (kind == TypeKind.VARCHAR && precision == MAP_FORM && scale == 0 && element != null) {
            // MAP
        } else if (kind == TypeKind.VARCHAR && precision == 0 && scale == 1) {
            // INTERVAL
        } else if (precision != 0 || scale != 0) {
            throw new IllegalArgumentException(kind + " takes no precision or scale");
        }
    }

    public static DataType decimal(int precision, int scale) {
        return new DataType(TypeKind.DECIMAL, precision, scale);
    }

    /** A LIST of values of {@code element} (a scalar, a STRUCT or another LIST). */
    public static DataType list(DataType element) {
        return new DataType(TypeKind.VARCHAR, 0, 0, java.util.Objects.requireNonNull(element));
    }

    /** Whether this is a LIST type (its values encoded strings, see {@link ListCodec}). */
    public boolean isList() {
        return element != null;
    }

    /**
     * A MAP from {@code key} to {@code value} types: a LIST of {@code STRUCT(key K, value V)}, as DuckDB holds one,
     * marked as a map.
     */
    public static DataType map(DataType key, DataType value) {
        DataType entry = struct(java.util.List.of(new StructField("key", key), new StructField("value", value)));
        return new DataType(TypeKind.VARCHAR, MAP_FORM, 0, entry, null);
    }

    /** Whether this is a MAP type: a LIST of key-value structs whose keys are unique and not NULL. */
    public boolean isMap() {
        return element != null && precision == MAP_FORM;
    }

    /** A MAP's key type. */
    public DataType mapKey() {
        return element.fields.get(0).type();
    }

    /** A MAP's value type. */
    public DataType mapValue() {
        return element.fields.get(1).type();
    }

    /** A STRUCT of these fields (at least one; a field may be a LIST or a STRUCT). */
    public static DataType struct(java.util.List<StructField> fields) {
        return new DataType(TypeKind.VARCHAR, 0, 0, null, java.util.Objects.requireNonNull(fields));
    }

    /** Whether this is a STRUCT type (its values encoded strings, see {@link StructCodec}). */
    public boolean isStruct() {
        return fields != null;
    }

    /** Whether this is an unnamed STRUCT (DuckDB's {@code row(1, 'a')}, a TUPLE): its fields have no names. */
    public boolean isUnnamedStruct() {
        return fields != null && fields.stream().allMatch(f -> f.name().isEmpty());
    }

    /** Whether values of this type are held as encoded strings of other values: a LIST or a STRUCT. */
    public boolean isNested() {
        return element != null || fields != null;
    }

    /** Parses a SQL type name: INTEGER, INT, BIGINT, DOUBLE, DECIMAL(p,s), DATE, BOOLEAN, VARCHAR[(n)], ... */
    public static DataType parse(String text) {
        if (StructTypeText.isMap(text)) {
            return StructTypeText.parseMap(text);
        }
        if (StructTypeText.isStruct(text)) {
            return StructTypeText.parse(text);
        }
        if (text.trim().endsWith("[]")) {
            // before the text is upper-cased: an element STRUCT's field names keep their case
            String element = text.trim();
            return list(parse(element.substring(0, element.length() - 2)));
        }
        String t = text.trim().toUpperCase(Locale.ROOT).replaceAll("\\s+", " ");
        if (t.endsWith("[]")) {
            return list(parse(t.substring(0, t.length() - 2)));
        }
        if (t.endsWith(" LIST")) {
            return list(parse(t.substring(0, t.length() - 5)));
        }
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
            case "INTEGER", "INT", "INT4" -> INTEGER;
            case "SMALLINT", "INT2" -> SMALLINT;
            case "TINYINT", "INT1" -> TINYINT;
            case "BIGINT", "INT8", "LONG" -> BIGINT;
            case "DOUBLE", "DOUBLE PRECISION", "FLOAT8" -> DOUBLE;
            case "FLOAT", "FLOAT4", "REAL" -> REAL;
            case "DECIMAL", "NUMERIC" -> decimal(18, 0);
            case "DATE" -> DATE;
            case "TIMESTAMP", "DATETIME", "TIMESTAMP WITHOUT TIME ZONE", "TIMESTAMP(6)" -> TIMESTAMP;
            case "TIMESTAMPTZ", "TIMESTAMP WITH TIME ZONE", "TIMESTAMP_TZ" -> TIMESTAMP_TZ;
            case "TIME", "TIME WITHOUT TIME ZONE", "TIME(6)" -> TIME;
            case "BOOLEAN", "BOOL" -> BOOLEAN;
            case "BLOB", "BYTEA", "VARBINARY", "BINARY" -> BLOB;
            case "UUID" -> UUID;
            case "INTERVAL" -> INTERVAL;
            default -> throw new IllegalArgumentException("unknown column type '" + text.trim() + "'");
        };
    }

    /** Whether this is INTERVAL (whose values in a query are {@link Interval} codes). */
    public boolean isInterval() {
        return kind == TypeKind.VARCHAR && scale == 1;
    }

    /** Whether this is SMALLINT or TINYINT: an INTEGER whose values must stay in a narrower range. */
    public boolean isNarrowInteger() {
        return kind == TypeKind.INTEGER && precision != 0;
    }

    /** Whether this is REAL (DuckDB's FLOAT): a DOUBLE whose values are rounded to float. */
    public boolean isReal() {
        return kind == TypeKind.DOUBLE && precision == REAL_FORM;
    }

    /** Whether this is BLOB: a VARCHAR whose characters are bytes. */
    public boolean isBlob() {
        return kind == TypeKind.VARCHAR && precision == ByteStrings.BLOB_FORM;
    }

    /** Whether this is UUID: a VARCHAR holding a UUID's canonical text. */
    public boolean isUuid() {
        return kind == TypeKind.VARCHAR && precision == Uuids.UUID_FORM;
    }

    /**
     * Whether this is VARCHAR text itself, not a BLOB, UUID or LIST stored as one. (An INTERVAL's code counts as text
     * here, as it does for casts; what reads an INTERVAL from a file asks {@link #isInterval()} first.)
     */
    public boolean isText() {
        return kind == TypeKind.VARCHAR && precision == 0 && element == null && fields == null;
    }

    /** The smallest value of an integer type (INTEGER, SMALLINT, TINYINT, BIGINT). */
    public long minValue() {
        return switch (kind) {
            case INTEGER -> precision == 0 ? Integer.MIN_VALUE : -(1L << (precision - 1));
            case BIGINT -> Long.MIN_VALUE;
            default -> throw new IllegalStateException(this + " is not an integer type");
        };
    }

    /** The largest value of an integer type (INTEGER, SMALLINT, TINYINT, BIGINT). */
    public long maxValue() {
        return switch (kind) {
            case INTEGER -> precision == 0 ? Integer.MAX_VALUE : (1L << (precision - 1)) - 1;
            case BIGINT -> Long.MAX_VALUE;
            default -> throw new IllegalStateException(this + " is not an integer type");
        };
    }

    /** Whether every value of integer type {@code from} (INTEGER, SMALLINT, TINYINT, BIGINT, DATE) fits {@code to}. */
    public static boolean fitsIn(DataType from, DataType to) {
        DataType f = from.kind == TypeKind.DATE ? INTEGER : from;
        return f.minValue() >= to.minValue() && f.maxValue() <= to.maxValue();
    }

    /** The most decimal digits a value of an integer type (INTEGER, SMALLINT, TINYINT, BIGINT, DATE) has. */
    public static int digits(DataType t) {
        return Long.toString((t.kind == TypeKind.DATE ? INTEGER : t).maxValue()).length();
    }

    /** Whether every value of DECIMAL {@code from} fits DECIMAL {@code to}, rounding included. */
    public static boolean decimalFits(DataType from, DataType to) {
        return to.scale >= from.scale && to.precision - to.scale >= from.precision - from.scale;
    }

    /**
     * A STRUCT type's name as {@link #toString()} writes it, of its fields' names and their types' names as given
     * (for a type that is no DataType, as DuckDB's typeof names a struct with a field of its NULL type).
     */
    public static String structTypeName(java.util.List<String> names, java.util.List<String> typeNames) {
        return StructTypeText.format(names, typeNames);
    }

    @Override
    public String toString() {
        if (isMap()) {
            return "MAP(" + mapKey() + ", " + mapValue() + ")";
        }
        if (element != null) {
            return element + "[]";
        }
        if (fields != null) {
            return StructTypeText.format(fields);
        }
        if (kind == TypeKind.DECIMAL) {
            return "DECIMAL(" + precision + "," + scale + ")";
        }
        if (kind == TypeKind.INTEGER && precision != 0) {
            return precision == 16 ? "SMALLINT" : "TINYINT";
        }
        if (isReal()) {
            return "FLOAT";
        }
        if (isBlob()) {
            return "BLOB";
        }
        if (isUuid()) {
            return "UUID";
        }
        return isInterval() ? "INTERVAL" : kind.sqlName();
    }
}

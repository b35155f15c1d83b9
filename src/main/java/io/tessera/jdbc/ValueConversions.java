package io.tessera.jdbc;

import io.tessera.storage.DataType;
import io.tessera.storage.Timestamps;
import io.tessera.storage.ZonedTimestamps;
import io.tessera.storage.Values;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.sql.SQLDataException;
import java.sql.SQLException;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.format.DateTimeParseException;
import java.util.Locale;

/**
 * JDBC's conversions between Tessera's values (Integer, Long, Double, BigDecimal, LocalDate,
 * LocalDateTime, Boolean, String) and the
 * Java types of the getters and setters. A conversion that would lose a value (a number out of the target's range,
 * text that is not a number) fails with SQLSTATE 22018 or 22003 instead of giving another value.
 */
final class ValueConversions {

    private ValueConversions() {
    }

    // ---- parameters: a setter's Java value as a value Tessera binds

    /** A {@code setObject} value as Tessera binds it. */
    static Object parameter(Object x, int index) throws SQLException {
        return switch (x) {
            case null -> null;
            case java.sql.Date d -> d.toLocalDate();
            case java.sql.Timestamp t -> t.toLocalDateTime();
            case java.sql.Time t -> localTime(t);
            case LocalDateTime t -> t;
            case java.time.LocalTime t -> t;
            case java.time.OffsetDateTime t -> t;
            case java.time.ZonedDateTime t -> t.toOffsetDateTime();
            case java.time.Instant t -> t.atOffset(java.time.ZoneOffset.UTC);
            case Character c -> c.toString();
            case Integer i -> i;
            case Long l -> l;
            case Short s -> s;
            case Byte b -> b;
            case BigInteger b -> b;
            case BigDecimal d -> d;
            case Double d -> d;
            case Float f -> f;
            case String s -> s;
            case LocalDate d -> d;
            case Boolean b -> b;
            case byte[] b -> b.clone();
            case java.util.UUID u -> u;
            default -> throw JdbcErrors.unsupported("parameter " + index + ": values of " + x.getClass().getName()
                    + " (Tessera's types: INTEGER, BIGINT, DOUBLE, DECIMAL, DATE, TIMESTAMP, TIME, BOOLEAN,"
                    + " VARCHAR, TIMESTAMP WITH TIME ZONE, BLOB (byte[]), UUID)");
        };
    }

    /** A {@code setObject(i, x, sqlType)} value (not null) converted to the type asked for. */
    static Object parameterAs(Object x, DataType type, int index) throws SQLException {
        return convert(parameter(x, index), type);
    }

    private static Object convert(Object v, DataType type) throws SQLException {
        return switch (type.kind()) {
            case INTEGER -> {
                long n = toLong(v, type.toString(), type.minValue(), type.maxValue());
                yield type.equals(DataType.SMALLINT) ? (Object) (short) n : type.equals(DataType.TINYINT)
                        ? (Object) (byte) n : (Object) (int) n;
            }
            case BIGINT -> toLong(v, "BIGINT", Long.MIN_VALUE, Long.MAX_VALUE);
            case DOUBLE -> type.isReal() ? (Object) (float) toDouble(v) : (Object) toDouble(v);
            case DECIMAL -> toBigDecimal(v);
            case DATE -> toDate(v);
            case TIMESTAMP -> toTimestamp(v);
            case TIMESTAMP_TZ -> toOffsetDateTime(v);
            case TIME -> toTime(v);
            case BOOLEAN -> toBoolean(v);
            case VARCHAR -> toText(v);
        };
    }

    /** The type a bound value has. */
    static DataType typeOf(Object v) {
        return switch (v) {
            case Integer i -> DataType.INTEGER;
            case Short s -> DataType.SMALLINT;
            case Byte b -> DataType.TINYINT;
            case Long l -> DataType.BIGINT;
            case Double d -> DataType.DOUBLE;
            case Float f -> DataType.REAL;
            case BigDecimal d -> DataType.decimal(Math.clamp(Math.max(d.precision(), d.scale()), 1,
                    DataType.MAX_DECIMAL_PRECISION), Math.clamp(d.scale(), 0, DataType.MAX_DECIMAL_PRECISION));
            case BigInteger b -> JdbcTypes.DECIMAL;
            case LocalDate d -> DataType.DATE;
            case LocalDateTime t -> DataType.TIMESTAMP;
            case java.time.LocalTime t -> DataType.TIME;
            case java.time.OffsetDateTime t -> DataType.TIMESTAMP_TZ;
            case Boolean b -> DataType.BOOLEAN;
            case byte[] b -> DataType.BLOB;
            case java.util.UUID u -> DataType.UUID;
            default -> DataType.VARCHAR;
        };
    }

    // ---- results: a value read out as the Java type of a getter

    static String toText(Object v) {
        return switch (v) {
            case null -> null;
            case BigDecimal d -> d.toPlainString();
            case LocalDateTime t -> Timestamps.format(Timestamps.micros(t));
            case java.time.LocalTime t -> Timestamps.formatTime(Values.timeMicros(t));
            case byte[] b -> io.tessera.storage.ByteStrings.format(b); // as DuckDB's text of a BLOB
            default -> v.toString();
        };
    }

    /** An integer of at most the range given; a fractional number is truncated toward zero, as JDBC drivers do. */
    static long toLong(Object v, String type, long min, long max) throws SQLException {
        BigDecimal exact = switch (v) {
            case Integer i -> BigDecimal.valueOf(i);
            case Long l -> BigDecimal.valueOf(l);
            case Short s -> BigDecimal.valueOf(s);
            case Byte b -> BigDecimal.valueOf(b);
            case BigDecimal d -> d;
            case BigInteger b -> new BigDecimal(b);
            case Double d -> finite(d, type);
            case Float f -> finite(f.doubleValue(), type);
            case Boolean b -> b ? BigDecimal.ONE : BigDecimal.ZERO;
            case String s -> number(s, type);
            default -> throw cannot(v, type);
        };
        BigDecimal whole = exact.setScale(0, RoundingMode.DOWN);
        if (whole.compareTo(BigDecimal.valueOf(min)) < 0 || whole.compareTo(BigDecimal.valueOf(max)) > 0) {
            throw new SQLDataException("value " + toText(v) + " is out of range for " + type, "22003");
        }
        return whole.longValue();
    }

    private static BigDecimal finite(double d, String type) throws SQLException {
        if (!Double.isFinite(d)) {
            throw new SQLDataException("value " + d + " is out of range for " + type, "22003");
        }
        return new BigDecimal(d);
    }

    private static BigDecimal number(String s, String type) throws SQLException {
        try {
            return new BigDecimal(s.strip());
        } catch (NumberFormatException e) {
            throw new SQLDataException("'" + s + "' is not a number (reading it as " + type + ")", "22018", e);
        }
    }

    static double toDouble(Object v) throws SQLException {
        return switch (v) {
            case Number n -> n.doubleValue();
            case Boolean b -> b ? 1 : 0;
            case String s -> {
                try {
                    yield Double.parseDouble(s.strip());
                } catch (NumberFormatException e) {
                    throw new SQLDataException("'" + s + "' is not a number (reading it as DOUBLE)", "22018", e);
                }
            }
            default -> throw cannot(v, "DOUBLE");
        };
    }

    static BigDecimal toBigDecimal(Object v) throws SQLException {
        return switch (v) {
            case BigDecimal d -> d;
            case Integer i -> BigDecimal.valueOf(i);
            case Long l -> BigDecimal.valueOf(l);
            case Short s -> BigDecimal.valueOf(s);
            case Byte b -> BigDecimal.valueOf(b);
            case BigInteger b -> new BigDecimal(b);
            case Double d -> BigDecimal.valueOf(finite(d, "DECIMAL").doubleValue());
            case Float f -> BigDecimal.valueOf(finite(f.doubleValue(), "DECIMAL").doubleValue());
            case Boolean b -> b ? BigDecimal.ONE : BigDecimal.ZERO;
            case String s -> number(s, "DECIMAL");
            default -> throw cannot(v, "DECIMAL");
        };
    }

    static boolean toBoolean(Object v) throws SQLException {
        return switch (v) {
            case Boolean b -> b;
            case Number n -> toBigDecimal(n).signum() != 0;
            case String s -> switch (s.strip().toLowerCase(Locale.ROOT)) {
                case "true", "t", "1", "yes", "y" -> true;
                case "false", "f", "0", "no", "n" -> false;
                default -> throw new SQLDataException("'" + s + "' is not a BOOLEAN", "22018");
            };
            default -> throw cannot(v, "BOOLEAN");
        };
    }

    static LocalDate toDate(Object v) throws SQLException {
        return switch (v) {
            case LocalDate d -> d;
            case java.sql.Date d -> d.toLocalDate();
            case LocalDateTime t -> t.toLocalDate();
            case java.sql.Timestamp t -> t.toLocalDateTime().toLocalDate();
            case String s -> {
                try {
                    yield LocalDate.parse(s.strip());
                } catch (DateTimeParseException e) {
                    throw new SQLDataException("'" + s + "' is not a DATE (yyyy-mm-dd)", "22007", e);
                }
            }
            default -> throw cannot(v, "DATE");
        };
    }

    static LocalDateTime toTimestamp(Object v) throws SQLException {
        return switch (v) {
            case LocalDateTime t -> t;
            case java.time.OffsetDateTime t -> t.toLocalDateTime(); // the session's clock
            case java.sql.Timestamp t -> t.toLocalDateTime();
            case LocalDate d -> d.atStartOfDay();
            case java.sql.Date d -> d.toLocalDate().atStartOfDay();
            case String s -> {
                try {
                    yield Values.timestampOf(Timestamps.parse(s));
                } catch (IllegalArgumentException e) {
                    throw new SQLDataException("'" + s + "' is not a TIMESTAMP (yyyy-mm-dd hh:mm:ss[.ffffff])",
                            "22007", e);
                }
            }
            default -> throw cannot(v, "TIMESTAMP");
        };
    }

    /**
     * A TIMESTAMP WITH TIME ZONE's value: an OffsetDateTime as it is, a TIMESTAMP's text or value as UTC's, text with
     * an offset at it.
     */
    static java.time.OffsetDateTime toOffsetDateTime(Object v) throws SQLException {
        return switch (v) {
            case java.time.OffsetDateTime t -> t;
            case java.sql.Timestamp t -> t.toInstant().atOffset(java.time.ZoneOffset.UTC);
            case LocalDateTime t -> t.atOffset(java.time.ZoneOffset.UTC);
            case String s -> {
                try {
                    yield ZonedTimestamps.valueOf(ZonedTimestamps.parse(s, java.time.ZoneOffset.UTC),
                            java.time.ZoneOffset.UTC);
                } catch (IllegalArgumentException e) {
                    throw new SQLDataException("'" + s + "' is not a TIMESTAMP WITH TIME ZONE"
                            + " (yyyy-mm-dd hh:mm:ss[.ffffff][+hh[:mm]])", "22007", e);
                }
            }
            default -> throw cannot(v, "TIMESTAMP WITH TIME ZONE");
        };
    }

    /**
     * A value as {@link java.sql.Timestamp}: a TIMESTAMP WITH TIME ZONE's instant, another value's date and time in
     * the JVM's zone.
     */
    static java.sql.Timestamp sqlTimestamp(Object v) throws SQLException {
        return v instanceof java.time.OffsetDateTime t ? java.sql.Timestamp.from(t.toInstant())
                : java.sql.Timestamp.valueOf(toTimestamp(v));
    }

    static java.time.LocalTime toTime(Object v) throws SQLException {
        return switch (v) {
            case java.time.LocalTime t -> t;
            case java.sql.Time t -> localTime(t);
            case LocalDateTime t -> t.toLocalTime();
            case java.sql.Timestamp t -> t.toLocalDateTime().toLocalTime();
            case String s -> {
                try {
                    yield Values.timeOf(Timestamps.parseTime(s));
                } catch (IllegalArgumentException e) {
                    throw new SQLDataException("'" + s + "' is not a TIME (hh:mm:ss[.ffffff])", "22007", e);
                }
            }
            default -> throw cannot(v, "TIME");
        };
    }

    /** A {@link java.sql.Time} as a time of day, its milliseconds kept ({@code Time.toLocalTime} drops them). */
    static java.time.LocalTime localTime(java.sql.Time t) {
        return t.toLocalTime().plusNanos(Math.floorMod(t.getTime(), 1000L) * 1_000_000L);
    }

    /** A time of day as {@link java.sql.Time}, which holds milliseconds: the digits beyond are dropped. */
    static java.sql.Time sqlTime(java.time.LocalTime t) {
        return new java.sql.Time(java.sql.Time.valueOf(t).getTime() + t.getNano() / 1_000_000);
    }

    /** {@code getObject(column, type)}: the value as {@code type}, or null for NULL. */
    static <T> T as(Object v, Class<T> type) throws SQLException {
        if (v == null) {
            return null;
        }
        Object out;
        if (type == Object.class) {
            out = standard(v);
        } else if (type == String.class) {
            out = toText(v);
        } else if (type == byte[].class) {
            out = toBytes(v);
        } else if (type == java.util.UUID.class) {
            out = toUuid(v);
        } else if (type == Integer.class) {
            out = (int) toLong(v, "INTEGER", Integer.MIN_VALUE, Integer.MAX_VALUE);
        } else if (type == Long.class) {
            out = toLong(v, "BIGINT", Long.MIN_VALUE, Long.MAX_VALUE);
        } else if (type == Short.class) {
            out = (short) toLong(v, "SMALLINT", Short.MIN_VALUE, Short.MAX_VALUE);
        } else if (type == Byte.class) {
            out = (byte) toLong(v, "TINYINT", Byte.MIN_VALUE, Byte.MAX_VALUE);
        } else if (type == Double.class) {
            out = toDouble(v);
        } else if (type == Float.class) {
            out = (float) toDouble(v);
        } else if (type == BigDecimal.class) {
            out = toBigDecimal(v);
        } else if (type == BigInteger.class) {
            out = toBigDecimal(v).toBigInteger();
        } else if (type == Boolean.class) {
            out = toBoolean(v);
        } else if (type == LocalDate.class) {
            out = toDate(v);
        } else if (type == java.sql.Date.class) {
            out = java.sql.Date.valueOf(toDate(v));
        } else if (type == LocalDateTime.class) {
            out = toTimestamp(v);
        } else if (type == java.sql.Timestamp.class) {
            out = sqlTimestamp(v);
        } else if (type == java.time.OffsetDateTime.class) {
            out = toOffsetDateTime(v);
        } else if (type == java.time.Instant.class) {
            out = toOffsetDateTime(v).toInstant();
        } else if (type == java.time.LocalTime.class) {
            out = toTime(v);
        } else if (type == java.sql.Time.class) {
            out = sqlTime(toTime(v));
        } else {
            throw JdbcErrors.unsupported("getObject as " + type.getName());
        }
        return type.cast(out);
    }

    /**
     * JDBC's standard Java value of a column value: DATE as {@link java.sql.Date}, the rest as they are (TIMESTAMP as
     * {@link LocalDateTime}, TIME as {@link java.time.LocalTime}, as DuckDB's driver gives them).
     */
    /** A BLOB's bytes (a copy), a UUID's 16 bytes; other values have none. */
    static byte[] toBytes(Object v) throws SQLException {
        return switch (v) {
            case null -> null;
            case byte[] b -> b.clone();
            case java.util.UUID u -> io.tessera.storage.Uuids.bytes(io.tessera.storage.Uuids.of(u));
            default -> throw cannot(v, "bytes (BLOB)");
        };
    }

    /** A UUID value, or text in DuckDB's forms of one. */
    static java.util.UUID toUuid(Object v) throws SQLException {
        return switch (v) {
            case java.util.UUID u -> u;
            case String s -> {
                try {
                    yield java.util.UUID.fromString(io.tessera.storage.Uuids.parse(s));
                } catch (IllegalArgumentException e) {
                    throw new SQLDataException("'" + s + "' is not a UUID", "22018", e);
                }
            }
            default -> throw cannot(v, "UUID");
        };
    }

    static Object standard(Object v) {
        return switch (v) {
            case LocalDate d -> java.sql.Date.valueOf(d);
            case io.tessera.storage.ListValue l -> new ListArray(l);
            case io.tessera.storage.StructValue st -> new StructObject(st);
            case io.tessera.storage.MapValue m -> {
                // a java.util.Map of its entries in order, as DuckDB's driver gives a MAP
                java.util.Map<Object, Object> map = new java.util.LinkedHashMap<>();
                for (int i = 0; i < m.keys().size(); i++) {
                    map.put(standard(m.keys().get(i)), standard(m.values().get(i)));
                }
                yield map;
            }
            case null, default -> v;
        };
    }

    private static SQLException cannot(Object v, String type) {
        return new SQLDataException("a " + v.getClass().getSimpleName() + " value cannot be read as " + type,
                "22018");
    }
}

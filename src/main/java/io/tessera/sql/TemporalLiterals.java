package io.tessera.sql;

import io.tessera.storage.Timestamps;
import io.tessera.storage.ZonedTimestamps;
import org.apache.calcite.sql.SqlBasicTypeNameSpec;
import org.apache.calcite.sql.SqlDataTypeSpec;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlTypeNameSpec;
import org.apache.calcite.sql.SqlUnknownLiteral;
import org.apache.calcite.sql.SqlUserDefinedTypeNameSpec;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.util.SqlShuttle;

import java.time.ZoneId;
import java.util.Locale;

/**
 * DATE literals Calcite cannot hold read as their CAST (below), and TIMESTAMP and TIME literals in the forms DuckDB reads ({@code TIMESTAMP '2020-01-01'}, {@code '2020-01-01 10:00'},
 * {@code '2020-01-01T10:00:00.5'}, {@code TIME '1:02'}) written in the one form Calcite's literal parser takes
 * ({@code yyyy-mm-dd hh:mm:ss[.ffffff]}, {@code hh:mm:ss[.ffffff]}), before validation; an invalid one fails with its
 * text and position. A {@code TIMESTAMP WITH TIME ZONE '...'} literal is read in the session's time zone (unless it
 * names an offset or a zone) and becomes Calcite's instant literal, {@code TIMESTAMP WITH LOCAL TIME ZONE} of the UTC
 * time; the type names {@code TIMESTAMP WITH TIME ZONE} and {@code TIMESTAMPTZ} become that type too.
 */
final class TemporalLiterals {

    private TemporalLiterals() {
    }

    static SqlNode rewrite(SqlNode parsed, ZoneId zone) {
        SqlNode r = parsed.accept(new SqlShuttle() {
            @Override
            public SqlNode visit(SqlLiteral literal) {
                if (literal instanceof SqlUnknownLiteral u) {
                    switch (u.tag.toUpperCase(Locale.ROOT)) {
                        case "DATE" -> {
                            return calciteReadsDate(u.getValue()) ? literal : cast(u, SqlTypeName.DATE);
                        }
                        case "TIMESTAMP" -> {
                            String text = normalized(u, false);
                            return calciteReadsYear(text) ? SqlLiteral.createUnknown(u.tag, text, u.getParserPosition())
                                    : cast(u, SqlTypeName.TIMESTAMP);
                        }
                        case "TIME" -> {
                            return SqlLiteral.createUnknown(u.tag, normalized(u, true), u.getParserPosition());
                        }
                        case "TIMESTAMP WITH TIME ZONE", "TIMESTAMP WITH LOCAL TIME ZONE" -> {
                            return SqlLiteral.createUnknown("TIMESTAMP WITH LOCAL TIME ZONE", utc(u, zone),
                                    u.getParserPosition());
                        }
                        default -> {
                        }
                    }
                }
                return literal;
            }

            @Override
            public SqlNode visit(org.apache.calcite.sql.SqlIdentifier id) {
                // DuckDB's current_timestamp is now(): an instant (Calcite's is a TIMESTAMP); quoted, it is a name
                if (id.isSimple() && !id.isComponentQuoted(0) && id.getSimple().equalsIgnoreCase("CURRENT_TIMESTAMP")) {
                    return TimestampFunctions.lookup("NOW").createCall(id.getParserPosition());
                }
                if (id.isSimple() && !id.isComponentQuoted(0) && id.getSimple().equalsIgnoreCase("CURRENT_TIME")) {
                    throw currentTime("current_time", id.getParserPosition());
                }
                return id;
            }

            @Override
            public SqlNode visit(org.apache.calcite.sql.SqlCall call) {
                if (call.getOperator() == org.apache.calcite.sql.fun.SqlStdOperatorTable.CURRENT_TIMESTAMP) {
                    return TimestampFunctions.lookup("NOW").createCall(call.getParserPosition());
                }
                if (call.getOperator() == org.apache.calcite.sql.fun.SqlStdOperatorTable.CURRENT_TIME) {
                    throw currentTime("current_time", call.getParserPosition());
                }
                SqlNode r = super.visit(call);
                if (r instanceof org.apache.calcite.sql.SqlCall list) {
                    r = IntervalLists.oneType(list);
                }
                // every EXTRACT as the one that takes an INTERVAL's every unit
                return r instanceof org.apache.calcite.sql.SqlCall c
                        && c.getOperator() == org.apache.calcite.sql.fun.SqlStdOperatorTable.EXTRACT
                        ? IntervalSyntax.EXTRACT.createCall(c.getParserPosition(), c.getOperandList()) : r;
            }

            @Override
            public SqlNode visit(SqlDataTypeSpec written) {
                SqlDataTypeSpec type = DuckDbTypeNames.rewrite(written);
                if (isZoned(type)) {
                    return zonedType(type);
                }
                SqlTypeNameSpec nested = zonedInside(type.getTypeNameSpec());
                return nested != null ? new SqlDataTypeSpec(nested, null, type.getNullable(), type.getParserPosition())
                        : type;
            }
        });
        return r == null ? parsed : r;
    }

    /**
     * DuckDB's current_time (and get_current_time()) is a TIME WITH TIME ZONE, a type Tessera does not have: refused,
     * naming what gives the time of day (a TIME without the offset DuckDB's value shows).
     */
    static SqlError currentTime(String name, SqlParserPos pos) {
        return SupportCheck.unsupported(name + " (DuckDB's is a TIME WITH TIME ZONE, a type Tessera does not"
                + " have; localtime is the session clock's TIME)", pos);
    }

    /** Whether a type names DuckDB's TIMESTAMP WITH TIME ZONE ({@code TIMESTAMPTZ} too). */
    static boolean isZoned(SqlDataTypeSpec type) {
        return isZoned(type.getTypeNameSpec());
    }

    private static boolean isZoned(SqlTypeNameSpec name) {
        return switch (name) {
            case SqlBasicTypeNameSpec b -> SqlTypeName.get(b.getTypeName().getSimple()) == SqlTypeName.TIMESTAMP_TZ
                    || b.getTypeName().getSimple().equalsIgnoreCase("TIMESTAMP_WITH_LOCAL_TIME_ZONE");
            case SqlUserDefinedTypeNameSpec u -> u.getTypeName().isSimple()
                    && u.getTypeName().getSimple().equalsIgnoreCase("TIMESTAMPTZ");
            default -> false;
        };
    }

    /**
     * A LIST, STRUCT or MAP type name with each TIMESTAMP WITH TIME ZONE in it, as a list's element, a struct's field
     * or a map's key or value at any depth ({@code TIMESTAMPTZ[]}), written as the zoned type; null where it names none.
     */
    private static SqlTypeNameSpec zonedInside(SqlTypeNameSpec name) {
        SqlParserPos pos = name.getParserPos();
        if (name instanceof org.apache.calcite.sql.SqlCollectionTypeNameSpec list) {
            SqlTypeNameSpec e = list.getElementTypeName();
            SqlTypeNameSpec element = isZoned(e) ? zonedName(pos) : zonedInside(e);
            return element == null ? null : new org.apache.calcite.sql.SqlCollectionTypeNameSpec(element,
                    org.apache.calcite.sql.type.SqlTypeName.ARRAY, pos);
        }
        if (name instanceof org.apache.calcite.sql.SqlRowTypeNameSpec row) {
            java.util.List<SqlDataTypeSpec> types = new java.util.ArrayList<>();
            boolean changed = false;
            for (SqlDataTypeSpec field : row.getFieldTypes()) {
                SqlTypeNameSpec f = isZoned(field) ? zonedName(pos) : zonedInside(field.getTypeNameSpec());
                changed |= f != null;
                types.add(f == null ? field : new SqlDataTypeSpec(f, null, field.getNullable(),
                        field.getParserPosition()));
            }
            return changed ? new org.apache.calcite.sql.SqlRowTypeNameSpec(pos, row.getFieldNames(), types) : null;
        }
        if (name instanceof org.apache.calcite.sql.SqlMapTypeNameSpec map) {
            SqlDataTypeSpec[] parts = {map.getKeyType(), map.getValType()};
            boolean changed = false;
            for (int i = 0; i < 2; i++) {
                SqlTypeNameSpec p = isZoned(parts[i]) ? zonedName(pos) : zonedInside(parts[i].getTypeNameSpec());
                changed |= p != null;
                parts[i] = p == null ? parts[i] : new SqlDataTypeSpec(p, null, parts[i].getNullable(),
                        parts[i].getParserPosition());
            }
            return changed ? new org.apache.calcite.sql.SqlMapTypeNameSpec(parts[0], parts[1], pos) : null;
        }
        return null;
    }

    private static SqlTypeNameSpec zonedName(SqlParserPos pos) {
        return new SqlBasicTypeNameSpec(SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE,
                TesseraTypeSystem.TIMESTAMP_PRECISION, pos);
    }

    private static SqlDataTypeSpec zonedType(SqlDataTypeSpec type) {
        return new SqlDataTypeSpec(new SqlBasicTypeNameSpec(SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE,
                TesseraTypeSystem.TIMESTAMP_PRECISION, type.getParserPosition()), null, type.getNullable(),
                type.getParserPosition());
    }

    /**
     * Whether Calcite's DATE literal takes the text ({@code yyyy-mm-dd}, a year from 1 to 9999); DuckDB's other
     * spellings and years ({@code DATE '10000-01-01'}, {@code '2024/01/05'}, {@code '0000-01-01'}) are read as its
     * {@code CAST('...' AS DATE)} is, when the query runs, which is what a DATE literal is to DuckDB.
     */
    private static boolean calciteReadsDate(String text) {
        try {
            org.apache.calcite.sql.parser.SqlParserUtil.parseDateLiteral(text, SqlParserPos.ZERO);
            return true;
        } catch (RuntimeException e) {
            return false;
        }
    }

    /** Whether a normalized timestamp's year is one Calcite's literal holds (1 to 9999, four digits, not BC). */
    private static boolean calciteReadsYear(String normalized) {
        return normalized.length() > 4 && normalized.charAt(4) == '-' && !normalized.startsWith("0000")
                && !normalized.contains("(BC)");
    }

    /** The literal's text as a CAST to {@code type}, which reads it as DuckDB does when the query runs. */
    private static SqlNode cast(SqlUnknownLiteral u, SqlTypeName type) {
        SqlParserPos pos = u.getParserPosition();
        return org.apache.calcite.sql.fun.SqlStdOperatorTable.CAST.createCall(pos,
                SqlLiteral.createCharString(u.getValue(), pos),
                new SqlDataTypeSpec(new SqlBasicTypeNameSpec(type, pos), pos));
    }

    private static String normalized(SqlUnknownLiteral u, boolean time) {
        try {
            return time ? Timestamps.formatTime(Timestamps.parseTime(u.getValue()))
                    : Timestamps.format(Timestamps.parse(u.getValue()));
        } catch (IllegalArgumentException e) {
            throw new SqlError(e.getMessage() + SupportCheck.at(u.getParserPosition()), e);
        }
    }

    /** The literal's instant as the UTC date and time Calcite's instant literal holds. */
    private static String utc(SqlUnknownLiteral u, ZoneId zone) {
        try {
            return Timestamps.format(ZonedTimestamps.parse(u.getValue(), zone));
        } catch (IllegalArgumentException e) {
            throw new SqlError(e.getMessage() + SupportCheck.at(u.getParserPosition()), e);
        }
    }
}

package io.tessera.sql;

import io.tessera.sql.parser.TesseraParserImplConstants;
import io.tessera.storage.DataType;
import io.tessera.storage.Timestamps;
import org.apache.calcite.sql.SqlDynamicParam;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.util.SqlShuttle;
import org.apache.calcite.util.DateString;
import org.apache.calcite.util.TimeString;
import org.apache.calcite.util.TimestampString;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The values of a statement's {@code ?} parameters (JDBC's PreparedStatement), in order, and their binding into the
 * parsed statement.
 *
 * <p>Why literal nodes: Calcite parses {@code ?} as a dynamic parameter, but Tessera's planner cannot take one. The
 * validator needs a type for it that many places cannot infer ({@code SELECT ?}, {@code ? + 1}), the physical
 * planner ({@code plan.RexTranslator}) knows no {@code RexDynamicParam}, and operators that need a constant (ROUND's
 * digits, LIKE patterns made into matchers, intervals) want a literal. So each parameter is replaced, in the parsed
 * tree before validation, by a literal node of its value's type ({@code CAST(NULL AS type)} for a typed NULL) at the
 * {@code ?}'s position. The value never becomes SQL text; and since the generated code reads its constants at run
 * time, a statement run again with other values reuses its compiled classes as a bound parameter would.
 */
public final class Parameters {

    /** No parameters: a {@code ?} in the statement is an error. */
    public static final Parameters NONE = new Parameters(List.of());

    /**
     * A NULL of a known type ({@code PreparedStatement.setNull(i, Types.INTEGER)}): bound as {@code CAST(NULL AS
     * type)}, so that the statement's types are those it has with a value there.
     */
    public record Null(DataType type) {
    }

    private final List<Object> values;

    private Parameters(List<Object> values) {
        this.values = values;
    }

    /**
     * Values for parameters 1, 2, ...: Integer, Long, Short, Byte, BigInteger, BigDecimal, Double, Float, String,
     * LocalDate, LocalDateTime, OffsetDateTime (a TIMESTAMP WITH TIME ZONE), LocalTime, Boolean, a {@link Null} (a NULL of a type), or null (a NULL whose type the statement gives).
     */
    public static Parameters of(List<?> values) {
        List<Object> copy = new ArrayList<>(values);
        for (int i = 0; i < copy.size(); i++) {
            check(i, copy.get(i));
        }
        return copy.isEmpty() ? NONE : new Parameters(Collections.unmodifiableList(copy));
    }

    public boolean isEmpty() {
        return values.isEmpty();
    }

    public int size() {
        return values.size();
    }

    /** How many {@code ?} parameters {@code sql} holds (Calcite's tokenizer: a ? in a string or comment is none). */
    public static int count(String sql) {
        int n = 0;
        for (LeadingTokens.Token t : LeadingTokens.read(sql, Integer.MAX_VALUE)) {
            if (t.is(TesseraParserImplConstants.HOOK)) {
                n++;
            }
        }
        return n;
    }

    /** {@code parsed} with every {@code ?} replaced by its value's literal; a ? without a value is an error. */
    public SqlNode bind(SqlNode parsed) {
        return parsed.accept(new SqlShuttle() {
            @Override
            public SqlNode visit(SqlDynamicParam param) {
                int i = param.getIndex();
                if (i >= values.size()) {
                    throw new SqlError("parameter " + (i + 1) + " (?" + SupportCheck.at(param.getParserPosition())
                            + ") has no value");
                }
                return literal(values.get(i), param.getParserPosition());
            }
        });
    }

    private static void check(int i, Object v) {
        if (v == null || v instanceof Null || v instanceof Integer || v instanceof Long || v instanceof Short
                || v instanceof Byte || v instanceof BigInteger || v instanceof BigDecimal || v instanceof String
                || v instanceof LocalDate || v instanceof java.time.LocalDateTime || v instanceof java.time.LocalTime
                || v instanceof java.time.OffsetDateTime
                || v instanceof Boolean || v instanceof byte[] || v instanceof java.util.UUID) {
            return;
        }
        if (v instanceof Double || v instanceof Float) {
            double d = ((Number) v).doubleValue();
            if (!Double.isFinite(d)) {
                throw new SqlError("parameter " + (i + 1) + ": " + d + " is out of range for DOUBLE");
            }
            return;
        }
        throw new SqlError("parameter " + (i + 1) + ": a value of " + v.getClass().getName()
                + " cannot be bound (Tessera's types: INTEGER, BIGINT, DOUBLE, DECIMAL, DATE, TIMESTAMP, TIME,"
                + " BOOLEAN, VARCHAR, BLOB (byte[]), UUID)");
    }

    /** Whether {@link #literal} takes {@code v} (a value of a class a parameter may have, a finite double). */
    static boolean canBind(Object v) {
        try {
            check(0, v);
            return !(v instanceof Null);
        } catch (SqlError e) {
            return false;
        }
    }

    /** The literal node of one value, typed as the value is. */
    static SqlNode literal(Object v, SqlParserPos pos) {
        return switch (v) {
            case null -> SqlLiteral.createNull(pos);
            case Null n -> cast(SqlLiteral.createNull(pos), n.type(), pos);
            case Integer i -> SqlLiteral.createExactNumeric(i.toString(), pos);
            // a literal's type is the narrowest that holds its digits: the cast keeps the value's own type
            case Long l -> cast(bigint(l, pos), DataType.BIGINT, pos);
            case Short s -> cast(SqlLiteral.createExactNumeric(s.toString(), pos), DataType.SMALLINT, pos);
            case Byte b -> cast(SqlLiteral.createExactNumeric(b.toString(), pos), DataType.TINYINT, pos);
            case BigInteger b -> SqlLiteral.createExactNumeric(b.toString(), pos);
            case BigDecimal d -> SqlLiteral.createExactNumeric(d.toPlainString(), pos);
            case Double d -> SqlLiteral.createApproxNumeric(approximate(d), pos);
            case Float f -> cast(SqlLiteral.createApproxNumeric(approximate(f.doubleValue()), pos), DataType.REAL, pos);
            case String s -> SqlLiteral.createCharString(s, pos);
            case LocalDate d -> SqlLiteral.createDate(DateString.fromDaysSinceEpoch(Math.toIntExact(d.toEpochDay())), pos);
            case java.time.LocalDateTime t -> SqlLiteral.createTimestamp(SqlTypeName.TIMESTAMP,
                    new TimestampString(Timestamps.format(Timestamps.micros(t))), TesseraTypeSystem.TIMESTAMP_PRECISION, pos);
            case java.time.OffsetDateTime t -> SqlLiteral.createTimestamp(SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE,
                    new TimestampString(Timestamps.format(io.tessera.storage.ZonedTimestamps.micros(t))),
                    TesseraTypeSystem.TIMESTAMP_PRECISION, pos);
            case java.time.LocalTime t -> SqlLiteral.createTime(new TimeString(Timestamps.formatTime(
                    io.tessera.storage.Values.timeMicros(t))), TesseraTypeSystem.TIMESTAMP_PRECISION, pos);
            case Boolean b -> SqlLiteral.createBoolean(b, pos);
            case byte[] b -> SqlLiteral.createBinaryString(b, pos);
            case java.util.UUID u -> SqlLiteral.createUuid(u, pos);
            default -> throw new IllegalStateException("checked when bound: " + v.getClass());
        };
    }

    /**
     * A BIGINT's literal: its digits, or where it has 19 (more than the 18 a numeric literal may have here, whose type
     * would be a DECIMAL), its text as a string literal, which the CAST around it reads as a BIGINT.
     */
    private static SqlNode bigint(long l, SqlParserPos pos) {
        String digits = Long.toString(l);
        return Math.abs((double) l) < 1e18 ? SqlLiteral.createExactNumeric(digits, pos)
                : SqlLiteral.createCharString(digits, pos);
    }

    /** A double's digits with an exponent, as an approximate literal has them (the shortest that reads back). */
    private static String approximate(double d) {
        String s = Double.toString(d);
        return s.contains("E") ? s : s + "E0";
    }

    private static SqlNode cast(SqlNode value, DataType type, SqlParserPos pos) {
        return SqlStdOperatorTable.CAST.createCall(pos, value, DataChangeQueries.typeSpec(type));
    }
}

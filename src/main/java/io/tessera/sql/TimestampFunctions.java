package io.tessera.sql;

import org.apache.calcite.avatica.util.TimeUnit;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.sql.SqlIntervalQualifier;
import org.apache.calcite.sql.parser.SqlParserPos;

import org.apache.calcite.sql.SqlFunction;
import org.apache.calcite.sql.SqlFunctionCategory;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlOperatorBinding;
import org.apache.calcite.sql.type.OperandTypes;
import org.apache.calcite.sql.type.ReturnTypes;
import org.apache.calcite.sql.type.SqlOperandTypeChecker;
import org.apache.calcite.sql.type.SqlReturnTypeInference;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.type.SqlTypeTransforms;

import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * DuckDB's functions of DATE and TIMESTAMP values, typed as DuckDB types them: DATE_TRUNC (a TIMESTAMP of a
 * TIMESTAMP, a DATE of a DATE), DATE_PART (BIGINT; DOUBLE for 'epoch'), EPOCH (DOUBLE seconds), EPOCH_MS and
 * EPOCH_US (BIGINT), NOW (the instant the query was planned at, a TIMESTAMP WITH TIME ZONE), STRFTIME (VARCHAR), STRPTIME (TIMESTAMP),
 * DATE_DIFF / DATEDIFF and DATE_SUB (BIGINT counts of a unit), DATE_ADD (a TIMESTAMP plus an interval) and the
 * INTERVALs of a number of a unit (TO_DAYS, TO_SECONDS, ...). What
 * each computes is decided when the plan is made ({@code plan.TimestampCalls}) and when it runs
 * ({@code backend.jvm.lib.TimestampRuntime}).
 */
final class TimestampFunctions {
    private TimestampFunctions() {
    }

    private static SqlReturnTypeInference nullable(SqlTypeName t) {
        return ReturnTypes.explicit(t).andThen(SqlTypeTransforms.TO_NULLABLE);
    }

    private static SqlFunction fn(String name, SqlReturnTypeInference type, SqlOperandTypeChecker operands) {
        return new SqlFunction(name, SqlKind.OTHER_FUNCTION, type, null, operands, SqlFunctionCategory.TIMEDATE);
    }

    private static final SqlOperandTypeChecker UNIT_DATETIME =
            OperandTypes.family(SqlTypeFamily.STRING, SqlTypeFamily.DATETIME);
    private static final SqlOperandTypeChecker UNIT_DATETIME_DATETIME =
            OperandTypes.family(SqlTypeFamily.STRING, SqlTypeFamily.DATETIME, SqlTypeFamily.DATETIME);

    /** DATE_PART's type: DOUBLE for a constant 'epoch', else BIGINT. */
    private static final SqlReturnTypeInference PART = (SqlOperatorBinding b) -> {
        String unit = b.isOperandLiteral(0, false) ? b.getOperandLiteralValue(0, String.class) : null;
        SqlTypeName t = unit != null && unit.strip().toLowerCase(Locale.ROOT).equals("epoch")
                ? SqlTypeName.DOUBLE : SqlTypeName.BIGINT;
        return b.getTypeFactory().createTypeWithNullability(b.getTypeFactory().createSqlType(t),
                b.getOperandType(1).isNullable());
    };

    /** DuckDB's one INTERVAL type as Calcite sees it: an interval of days to seconds (every interval maps to it). */
    static RelDataType intervalType(org.apache.calcite.rel.type.RelDataTypeFactory f, boolean nullable) {
        return f.createTypeWithNullability(f.createSqlIntervalType(new SqlIntervalQualifier(TimeUnit.DAY,
                TimeUnit.SECOND, SqlParserPos.ZERO)), nullable);
    }

    /** An INTERVAL, NULL where an argument may be. */
    private static final SqlReturnTypeInference INTERVAL = (SqlOperatorBinding b) -> {
        boolean n = false;
        for (int i = 0; i < b.getOperandCount(); i++) {
            n |= b.getOperandType(i).isNullable();
        }
        return intervalType(b.getTypeFactory(), n);
    };

    /**
     * A DuckDB interval literal's text ({@code INTERVAL '1 year 2 days'}), read when the query is planned; also
     * {@code CAST(x AS INTERVAL)}, which of an interval is that interval.
     */
    static final SqlFunction INTERVAL_LITERAL = fn("TESSERA_INTERVAL", INTERVAL,
            OperandTypes.or(OperandTypes.STRING, OperandTypes.family(SqlTypeFamily.DATETIME_INTERVAL)));

    /** The same, typed nullable: the elements of a list of interval constants with a NULL among them. */
    static final SqlFunction NULLABLE_INTERVAL_LITERAL = fn("TESSERA_INTERVAL_OR_NULL",
            b -> intervalType(b.getTypeFactory(), true), OperandTypes.STRING);

    /** TIMESTAMP - TIMESTAMP: an INTERVAL of whole days and microseconds, as DuckDB subtracts them. */
    static final SqlFunction TIMESTAMP_DIFF = fn("TESSERA_TIMESTAMP_DIFF", INTERVAL, OperandTypes.ANY_ANY);

    /**
     * DuckDB's to_years(n), to_hours(n), ...: an INTERVAL of n units, of an integer; to_seconds and to_milliseconds
     * also of a fraction (a DOUBLE), as DuckDB takes them.
     */
    private static Map.Entry<String, SqlOperator> unitInterval(String name, boolean fractions) {
        return Map.entry(name, fn(name, INTERVAL, fractions ? OperandTypes.NUMERIC
                : OperandTypes.family(SqlTypeFamily.INTEGER)));
    }

    private static final Map<String, SqlOperator> FUNCTIONS = Map.ofEntries(
            unitInterval("TO_MILLENNIA", false), unitInterval("TO_CENTURIES", false),
            unitInterval("TO_DECADES", false), unitInterval("TO_YEARS", false), unitInterval("TO_QUARTERS", false),
            unitInterval("TO_MONTHS", false), unitInterval("TO_WEEKS", false), unitInterval("TO_DAYS", false),
            unitInterval("TO_HOURS", false), unitInterval("TO_MINUTES", false), unitInterval("TO_SECONDS", true),
            unitInterval("TO_MILLISECONDS", true), unitInterval("TO_MICROSECONDS", false),
            Map.entry("AGE", fn("AGE", INTERVAL, OperandTypes.or(OperandTypes.DATETIME,
                    OperandTypes.family(SqlTypeFamily.DATETIME, SqlTypeFamily.DATETIME)))),
            Map.entry("TESSERA_INTERVAL", INTERVAL_LITERAL),
            Map.entry("TESSERA_INTERVAL_OR_NULL", NULLABLE_INTERVAL_LITERAL),
            // of a DATE too a TIMESTAMP (its midnight), as DuckDB types it
            Map.entry("DATE_TRUNC", fn("DATE_TRUNC", b -> b.getOperandType(1).getSqlTypeName() == SqlTypeName.DATE
                    ? b.getTypeFactory().createTypeWithNullability(b.getTypeFactory().createSqlType(SqlTypeName.TIMESTAMP,
                    TesseraTypeSystem.TIMESTAMP_PRECISION), b.getOperandType(1).isNullable())
                    : ReturnTypes.ARG1_NULLABLE.inferReturnType(b), UNIT_DATETIME)),
            Map.entry("DATE_PART", fn("DATE_PART", PART, UNIT_DATETIME)),
            Map.entry("DATEPART", fn("DATEPART", PART, UNIT_DATETIME)),
            Map.entry("EPOCH", fn("EPOCH", nullable(SqlTypeName.DOUBLE), OperandTypes.DATETIME)),
            // of a date or timestamp its milliseconds (BIGINT); of an integer, the TIMESTAMP that many after 1970
            Map.entry("EPOCH_MS", fn("EPOCH_MS", b -> b.getTypeFactory().createTypeWithNullability(
                    org.apache.calcite.sql.type.SqlTypeUtil.isIntType(b.getOperandType(0))
                            ? b.getTypeFactory().createSqlType(SqlTypeName.TIMESTAMP, TesseraTypeSystem.TIMESTAMP_PRECISION)
                            : b.getTypeFactory().createSqlType(SqlTypeName.BIGINT), true),
                    OperandTypes.or(OperandTypes.DATETIME, OperandTypes.family(SqlTypeFamily.INTEGER)))),
            Map.entry("EPOCH_US", fn("EPOCH_US", nullable(SqlTypeName.BIGINT), OperandTypes.DATETIME)),
            // an instant, as DuckDB's now() and current_timestamp are (TIMESTAMP WITH TIME ZONE)
            Map.entry("NOW", fn("NOW", b -> b.getTypeFactory().createSqlType(
                    SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE, TesseraTypeSystem.TIMESTAMP_PRECISION),
                    OperandTypes.NILADIC)),
            Map.entry("STRFTIME", fn("STRFTIME", nullable(SqlTypeName.VARCHAR),
                    OperandTypes.family(SqlTypeFamily.DATETIME, SqlTypeFamily.STRING))),
            Map.entry("STRPTIME", fn("STRPTIME", nullable(SqlTypeName.TIMESTAMP), OperandTypes.STRING_STRING)),
            // NULL where the text does not match the format, as well as where either is NULL
            Map.entry("TRY_STRPTIME", fn("TRY_STRPTIME", ReturnTypes.explicit(SqlTypeName.TIMESTAMP)
                    .andThen(SqlTypeTransforms.FORCE_NULLABLE),
                    OperandTypes.STRING_STRING)),
            // the Julian day: days since noon of 4714 BC November 24 plus the time of day, counted from midnight
            Map.entry("JULIAN", fn("JULIAN", nullable(SqlTypeName.DOUBLE), OperandTypes.DATETIME)),
            Map.entry("DATE_DIFF", fn("DATE_DIFF", nullable(SqlTypeName.BIGINT), UNIT_DATETIME_DATETIME)),
            Map.entry("DATEDIFF", fn("DATEDIFF", nullable(SqlTypeName.BIGINT), UNIT_DATETIME_DATETIME)),
            Map.entry("DATE_SUB", fn("DATE_SUB", nullable(SqlTypeName.BIGINT), UNIT_DATETIME_DATETIME)),
            Map.entry("DATESUB", fn("DATESUB", nullable(SqlTypeName.BIGINT), UNIT_DATETIME_DATETIME)),
            Map.entry("DATE_ADD", fn("DATE_ADD", nullable(SqlTypeName.TIMESTAMP),
                    OperandTypes.or(OperandTypes.family(SqlTypeFamily.DATETIME, SqlTypeFamily.DATETIME_INTERVAL)))));

    /** The function of this upper-case name, or null. */
    static SqlOperator lookup(String name) {
        return FUNCTIONS.get(name);
    }

    static java.util.Collection<SqlOperator> all() {
        return FUNCTIONS.values();
    }

    /**
     * Calcite's own niladic CURRENT_TIMESTAMP, LOCALTIMESTAMP and LOCALTIME: the first becomes NOW before validation
     * ({@link TemporalLiterals}), the second is NOW on the session's clock (a TIMESTAMP), the third its time of day.
     */
    static final List<String> STANDARD = List.of("CURRENT_TIMESTAMP", "LOCALTIMESTAMP", "LOCALTIME");
}

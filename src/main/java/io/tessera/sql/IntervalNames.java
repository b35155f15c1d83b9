package io.tessera.sql;

import org.apache.calcite.sql.SqlIntervalQualifier;

/** Intervals as DuckDB names them in a result column's name ({@link ColumnNames}). */
final class IntervalNames {

    private IntervalNames() {
    }

    /**
     * An interval of one unit as DuckDB names it, by the call it becomes: {@code INTERVAL '1' DAY} is
     * {@code to_days(CAST(trunc(CAST('1' AS DOUBLE)) AS INTEGER))}; the units of whole numbers truncate the value
     * (to an INTEGER, or a BIGINT for hours and minutes), seconds keep it a DOUBLE. Writes nothing and answers false
     * for a qualifier of two units (DAY TO SECOND), which DuckDB does not have.
     */
    static boolean of(SqlIntervalQualifier qualifier, String value, StringBuilder sb) {
        if (!qualifier.isSingleDatetimeField()) {
            return false;
        }
        String function = switch (qualifier.getStartUnit()) {
            case YEAR -> "to_years";
            case QUARTER -> "to_quarters";
            case MONTH -> "to_months";
            case WEEK -> "to_weeks";
            case DAY -> "to_days";
            case HOUR -> "to_hours";
            case MINUTE -> "to_minutes";
            case SECOND -> "to_seconds";
            default -> null;
        };
        if (function == null) {
            return false;
        }
        String asDouble = "CAST(" + value + " AS DOUBLE)";
        sb.append(function).append('(').append(switch (qualifier.getStartUnit()) {
            case SECOND -> asDouble;
            case HOUR, MINUTE -> "CAST(trunc(" + asDouble + ") AS BIGINT)";
            default -> "CAST(trunc(" + asDouble + ") AS INTEGER)";
        }).append(')');
        return true;
    }
}

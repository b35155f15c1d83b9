package io.tessera.sql;

import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.sql.SqlFunction;
import org.apache.calcite.sql.SqlFunctionCategory;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlOperatorBinding;
import org.apache.calcite.sql.type.OperandTypes;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.type.SqlTypeUtil;

import java.util.Collection;
import java.util.List;

/**
 * DuckDB's TIME_BUCKET(width, ts [, offset INTERVAL | origin TIMESTAMP]): typed as the bucketed value, except that a
 * DATE bucketed from a TIMESTAMP origin is a TIMESTAMP, as in DuckDB. Lowered by {@code plan.TimeBucketCalls}.
 */
final class TimeBucketFunctions {

    private TimeBucketFunctions() {
    }

    private static RelDataType type(SqlOperatorBinding b) {
        RelDataType ts = b.getOperandType(1);
        if (b.getOperandCount() == 3 && SqlTypeUtil.isCharacter(b.getOperandType(2))
                && ts.getSqlTypeName() != SqlTypeName.TIMESTAMP_TZ
                && ts.getSqlTypeName() != SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE) {
            // a time zone's name: DuckDB's bucket of an instant on a zone's clocks; of another type it finds none
            throw new SqlError("unsupported: TIME_BUCKET with a time zone of a " + ts.getSqlTypeName()
                    + " (of a TIMESTAMP WITH TIME ZONE)");
        }
        if (ts.getSqlTypeName() == SqlTypeName.DATE && b.getOperandCount() == 3
                && b.getOperandType(2).getSqlTypeName() == SqlTypeName.TIMESTAMP) {
            ts = b.getTypeFactory().createSqlType(SqlTypeName.TIMESTAMP, TesseraTypeSystem.TIMESTAMP_PRECISION);
        }
        return DateConstructors.nullableIfAny(b, ts);
    }

    private static final SqlFunction TIME_BUCKET = new SqlFunction("TIME_BUCKET", SqlKind.OTHER_FUNCTION,
            TimeBucketFunctions::type, null, OperandTypes.or(
                    OperandTypes.family(SqlTypeFamily.DATETIME_INTERVAL, SqlTypeFamily.DATETIME),
                    OperandTypes.family(SqlTypeFamily.DATETIME_INTERVAL, SqlTypeFamily.DATETIME,
                            SqlTypeFamily.CHARACTER),
                    OperandTypes.family(SqlTypeFamily.DATETIME_INTERVAL, SqlTypeFamily.DATETIME,
                            SqlTypeFamily.DATETIME_INTERVAL),
                    OperandTypes.family(SqlTypeFamily.DATETIME_INTERVAL, SqlTypeFamily.DATETIME,
                            SqlTypeFamily.DATETIME)),
            SqlFunctionCategory.TIMEDATE);

    /** The function of this upper-case name, or null. */
    static SqlOperator lookup(String name) {
        return name.equals("TIME_BUCKET") ? TIME_BUCKET : null;
    }

    static Collection<SqlOperator> all() {
        return List.of(TIME_BUCKET);
    }
}

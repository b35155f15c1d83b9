package io.tessera.sql;

import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.sql.SqlFunction;
import org.apache.calcite.sql.SqlFunctionCategory;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlOperatorBinding;
import org.apache.calcite.sql.type.OperandTypes;
import org.apache.calcite.sql.type.SqlOperandTypeChecker;
import org.apache.calcite.sql.type.SqlReturnTypeInference;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql.type.SqlTypeName;

import java.util.Collection;
import java.util.Map;

/**
 * DuckDB's functions that make dates, times and timestamps from numbers, typed as DuckDB types them: MAKE_DATE(y, m,
 * d) a DATE, MAKE_TIME(h, m, s) a TIME, MAKE_TIMESTAMP(y, m, d, h, mi, s) and MAKE_TIMESTAMP(microseconds) a
 * TIMESTAMP, TO_TIMESTAMP(seconds) a TIMESTAMP WITH TIME ZONE, LAST_DAY(date or timestamp) a DATE; EPOCH_MS of an
 * integer (a TIMESTAMP) is {@link TimestampFunctions}' EPOCH_MS. Lowered by {@code plan.DateConstructorCalls}.
 */
final class DateConstructors {

    private DateConstructors() {
    }

    private static SqlReturnTypeInference typed(SqlTypeName t) {
        return b -> nullableIfAny(b, t == SqlTypeName.DATE ? b.getTypeFactory().createSqlType(t)
                : b.getTypeFactory().createSqlType(t, TesseraTypeSystem.TIMESTAMP_PRECISION));
    }

    /** The type, nullable where an argument is. */
    static RelDataType nullableIfAny(SqlOperatorBinding b, RelDataType t) {
        boolean nullable = false;
        for (int i = 0; i < b.getOperandCount(); i++) {
            nullable |= b.getOperandType(i).isNullable();
        }
        return b.getTypeFactory().createTypeWithNullability(t, nullable);
    }

    private static SqlFunction fn(String name, SqlTypeName type, SqlOperandTypeChecker operands) {
        return new SqlFunction(name, SqlKind.OTHER_FUNCTION, typed(type), null, operands, SqlFunctionCategory.TIMEDATE);
    }

    private static final SqlTypeFamily INT = SqlTypeFamily.INTEGER;

    private static final Map<String, SqlOperator> FUNCTIONS = Map.of(
            "MAKE_DATE", fn("MAKE_DATE", SqlTypeName.DATE, OperandTypes.family(INT, INT, INT)),
            "MAKE_TIME", fn("MAKE_TIME", SqlTypeName.TIME, OperandTypes.family(INT, INT, SqlTypeFamily.NUMERIC)),
            "MAKE_TIMESTAMP", fn("MAKE_TIMESTAMP", SqlTypeName.TIMESTAMP, OperandTypes.or(OperandTypes.family(INT),
                    OperandTypes.family(INT, INT, INT, INT, INT, SqlTypeFamily.NUMERIC))),
            "MAKE_TIMESTAMP_MS", fn("MAKE_TIMESTAMP_MS", SqlTypeName.TIMESTAMP, OperandTypes.family(INT)),
            "TO_TIMESTAMP", fn("TO_TIMESTAMP", SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE,
                    OperandTypes.family(SqlTypeFamily.NUMERIC)),
            "LAST_DAY", fn("LAST_DAY", SqlTypeName.DATE, OperandTypes.DATETIME));

    /** The function of this upper-case name, or null. */
    static SqlOperator lookup(String name) {
        return FUNCTIONS.get(name);
    }

    static Collection<SqlOperator> all() {
        return FUNCTIONS.values();
    }
}

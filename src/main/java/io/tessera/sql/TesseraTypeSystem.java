package io.tessera.sql;

import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rel.type.RelDataTypeSystemImpl;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * Calcite's type rules, adjusted to what Tessera stores: DECIMAL fits a 64-bit integer (precision 18), SUM of
 * integers is BIGINT and of DECIMAL(p,s) is DECIMAL(18,s), AVG and DECIMAL division give DOUBLE, and CASE over
 * string literals of different lengths gives VARCHAR rather than blank-padded CHAR.
 */
public final class TesseraTypeSystem extends RelDataTypeSystemImpl {

    public static final TesseraTypeSystem INSTANCE = new TesseraTypeSystem();
    static final int MAX_PRECISION = io.tessera.storage.DataType.MAX_DECIMAL_PRECISION;
    /** A TIMESTAMP holds microseconds: six fractional digits of a second, by default and at most. */
    public static final int TIMESTAMP_PRECISION = 6;

    @Override
    public int getMaxNumericPrecision() {
        return MAX_PRECISION;
    }

    @Override
    public int getMaxNumericScale() {
        return MAX_PRECISION;
    }

    @Override
    public int getMaxPrecision(SqlTypeName typeName) {
        return switch (typeName) {
            case DECIMAL -> MAX_PRECISION;
            case TIMESTAMP, TIMESTAMP_WITH_LOCAL_TIME_ZONE, TIMESTAMP_TZ, TIME -> TIMESTAMP_PRECISION;
            default -> super.getMaxPrecision(typeName);
        };
    }

    @Override
    public int getDefaultPrecision(SqlTypeName typeName) {
        return switch (typeName) {
            case TIMESTAMP, TIMESTAMP_WITH_LOCAL_TIME_ZONE, TIMESTAMP_TZ, TIME -> TIMESTAMP_PRECISION;
            default -> super.getDefaultPrecision(typeName);
        };
    }

    @Override
    public int getMaxScale(SqlTypeName typeName) {
        return typeName == SqlTypeName.DECIMAL ? MAX_PRECISION : super.getMaxScale(typeName);
    }

    @Override
    public RelDataType deriveSumType(RelDataTypeFactory f, RelDataType arg) {
        RelDataType t = switch (arg.getSqlTypeName()) {
            case TINYINT, SMALLINT, INTEGER, BIGINT -> f.createSqlType(SqlTypeName.BIGINT);
            case DECIMAL -> f.createSqlType(SqlTypeName.DECIMAL, MAX_PRECISION, arg.getScale());
            case FLOAT, REAL, DOUBLE -> f.createSqlType(SqlTypeName.DOUBLE);
            default -> super.deriveSumType(f, arg);
        };
        return f.createTypeWithNullability(t, arg.isNullable());
    }

    @Override
    public RelDataType deriveAvgAggType(RelDataTypeFactory f, RelDataType arg) {
        return f.createTypeWithNullability(f.createSqlType(SqlTypeName.DOUBLE), arg.isNullable());
    }

    /**
     * {@code /} of exact numbers is a DOUBLE, as in DuckDB: of DECIMALs, and of two integers too ({@code 7 / 2} is 3.5;
     * DuckDB's {@code //} divides integers, {@link IntegerDivision}). Calcite asks this for every division of exact
     * types and takes the standard's type (integers: truncated) where it gets null.
     */
    @Override
    public RelDataType deriveDecimalDivideType(RelDataTypeFactory f, RelDataType a, RelDataType b) {
        if (SqlTypeName.EXACT_TYPES.contains(a.getSqlTypeName())
                && SqlTypeName.EXACT_TYPES.contains(b.getSqlTypeName())) {
            return f.createTypeWithNullability(f.createSqlType(SqlTypeName.DOUBLE), a.isNullable() || b.isNullable());
        }
        return super.deriveDecimalDivideType(f, a, b);
    }

    @Override
    public boolean shouldConvertRaggedUnionTypesToVarying() {
        return true;
    }
}

package io.tessera.sql;

import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlCallBinding;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlOperandCountRange;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.type.SqlOperandTypeChecker;
import org.apache.calcite.sql.type.SqlTypeName;

import java.util.List;

/**
 * list_contains (list_has, array_contains, array_has) of a STRUCT among STRUCTs whose field names differ
 * ({@code list_contains([{'a': 1}], {'a': 1, 'b': 2})}): the list and the value cast by name ({@link NestedCasts#CAST})
 * to their common STRUCT ({@link StructCommonType}), as DuckDB compares them, so that a field the elements lack is
 * NULL there rather than dropped from the value.
 */
final class StructLookups {
    private StructLookups() {
    }

    /** {@code inner}'s check, then the operands cast to their common STRUCT where their names differ. */
    static SqlOperandTypeChecker byName(SqlOperandTypeChecker inner) {
        return new SqlOperandTypeChecker() {
            @Override
            public boolean checkOperandTypes(SqlCallBinding b, boolean throwOnFailure) {
                boolean ok = inner.checkOperandTypes(b, throwOnFailure);
                if (ok) {
                    castToCommon(b);
                }
                return ok;
            }

            @Override
            public SqlOperandCountRange getOperandCountRange() {
                return inner.getOperandCountRange();
            }

            @Override
            public String getAllowedSignatures(SqlOperator op, String opName) {
                return inner.getAllowedSignatures(op, opName);
            }
        };
    }

    private static void castToCommon(SqlCallBinding b) {
        RelDataType list = b.getOperandType(0);
        RelDataType value = b.getOperandType(1);
        if (list.getSqlTypeName() != SqlTypeName.ARRAY || !list.getComponentType().isStruct() || !value.isStruct()) {
            return;
        }
        RelDataTypeFactory f = b.getTypeFactory();
        RelDataType element = StructCommonType.asValue(f, list.getComponentType());
        List<RelDataType> both = List.of(element, value);
        RelDataType common = StructCommonType.of(f, both, f::leastRestrictive);
        if (common == null || !StructCommonType.castsByName(both, common)) {
            return;
        }
        SqlCall call = b.getCall();
        RelDataType listType = f.createTypeWithNullability(f.createArrayType(
                f.createTypeWithNullability(common, list.getComponentType().isNullable()), -1), list.isNullable());
        cast(b, call, 0, list, listType);
        cast(b, call, 1, value, f.createTypeWithNullability(common, value.isNullable()));
    }

    private static void cast(SqlCallBinding b, SqlCall call, int i, RelDataType from, RelDataType to) {
        if (StructCommonType.sameNames(from, to) && from.equalsSansFieldNames(to)) {
            return;
        }
        SqlNode o = call.operand(i);
        SqlNode cast = NestedCasts.CAST.createCall(o.getParserPosition(), o,
                IntervalTypeName.specOf(to).withNullable(to.isNullable()));
        call.setOperand(i, cast);
        b.getValidator().deriveType(b.getScope(), cast);
    }
}

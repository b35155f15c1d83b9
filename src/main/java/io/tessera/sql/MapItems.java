package io.tessera.sql;

import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlCallBinding;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlOperatorBinding;
import org.apache.calcite.sql.fun.SqlItemOperator;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.type.OperandTypes;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.validate.SqlValidator;
import org.apache.calcite.sql.validate.SqlValidatorScope;

/**
 * {@code x[k]} as Calcite's ITEM, except that into a MAP it takes a key of any type: Calcite's asks for the key
 * type's family, which refuses what DuckDB casts ({@code m['1']} among INTEGER keys, a DATE among TIMESTAMPs);
 * {@code plan.MapKeys} binds the key as DuckDB does, or refuses it naming both types. Into a string it takes the
 * character at an index ({@link StringItems}), which Calcite's refuses.
 */
final class MapItems {
    private MapItems() {
    }

    /** ITEM, a map's key unchecked here. */
    static final SqlItemOperator ITEM = new SqlItemOperator("ITEM", OperandTypes.ARRAY_OR_MAP_OR_VARIANT, 1, true) {
        @Override
        public boolean checkOperandTypes(SqlCallBinding b, boolean throwOnFailure) {
            if (b.getOperandType(0).getSqlTypeName() == SqlTypeName.MAP) {
                return true;
            }
            if (StringItems.isText(b.getOperandType(0))) {
                return StringItems.checkIndex(b, throwOnFailure);
            }
            return super.checkOperandTypes(b, throwOnFailure);
        }

        @Override
        public RelDataType inferReturnType(SqlOperatorBinding b) {
            if (StringItems.isText(b.getOperandType(0))) {
                return StringItems.returnType(b);
            }
            return super.inferReturnType(b);
        }

        /** As SqlOperator's, without its look-up by name, which would find Calcite's ITEM again. */
        @Override
        public RelDataType deriveType(SqlValidator validator, SqlValidatorScope scope, SqlCall call) {
            for (SqlNode operand : call.getOperandList()) {
                validator.deriveType(scope, operand);
            }
            return validateOperands(validator, scope, call);
        }
    };

    static SqlNode rewrite(SqlNode parsed) {
        return OperatorSwaps.replace(parsed, c -> c.getOperator() == SqlStdOperatorTable.ITEM, ITEM);
    }
}

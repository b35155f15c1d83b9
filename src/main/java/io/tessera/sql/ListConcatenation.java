package io.tessera.sql;

import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.sql.SqlBinaryOperator;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlCallBinding;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlOperatorBinding;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.validate.SqlValidator;
import org.apache.calcite.sql.validate.SqlValidatorScope;

import java.util.List;

/**
 * {@code ||} as Calcite's, except that two lists whose elements have a common type only by name ({@code [{'a': 1}] ||
 * [{'a': 2, 'b': 3}]}, structs of different numbers of fields, {@link StructCommonType}) are joined in that type, as
 * DuckDB joins them: Calcite's operand check asks for lists of comparable types and refuses them.
 */
final class ListConcatenation {
    private ListConcatenation() {
    }

    /** {@code ||}, two lists with a common list type accepted and typed as it. */
    static final SqlBinaryOperator CONCAT = new SqlBinaryOperator("||", SqlKind.OTHER, 60, true,
            SqlStdOperatorTable.CONCAT.getReturnTypeInference(), null,
            SqlStdOperatorTable.CONCAT.getOperandTypeChecker()) {
        @Override
        public boolean checkOperandTypes(SqlCallBinding b, boolean throwOnFailure) {
            return common(b) != null || super.checkOperandTypes(b, throwOnFailure);
        }

        @Override
        public RelDataType inferReturnType(SqlOperatorBinding b) {
            RelDataType common = common(b);
            return common != null ? common : super.inferReturnType(b);
        }

        /** As SqlOperator's, without its look-up by name, which would find Calcite's {@code ||} again. */
        @Override
        public RelDataType deriveType(SqlValidator validator, SqlValidatorScope scope, SqlCall call) {
            for (SqlNode operand : call.getOperandList()) {
                validator.deriveType(scope, operand);
            }
            return validateOperands(validator, scope, call);
        }
    };

    /**
     * The common list type of two lists whose elements are structs of other names (to any depth), nullable where
     * either list is; null for any other operands, which Calcite's {@code ||} checks and types.
     */
    private static RelDataType common(SqlOperatorBinding b) {
        if (b.getOperandCount() != 2) {
            return null;
        }
        RelDataType x = b.getOperandType(0);
        RelDataType y = b.getOperandType(1);
        if (x.getComponentType() == null || y.getComponentType() == null || x.getKeyType() != null
                || y.getKeyType() != null) {
            return null;
        }
        var types = b.getTypeFactory();
        RelDataType common = StructCommonType.of(types, List.of(x, y), types::leastRestrictive);
        if (common == null || common.getComponentType() == null) {
            return null;
        }
        return types.createTypeWithNullability(common, x.isNullable() || y.isNullable());
    }

    static SqlNode rewrite(SqlNode parsed) {
        return OperatorSwaps.replace(parsed, c -> c.getOperator() == SqlStdOperatorTable.CONCAT, CONCAT);
    }
}

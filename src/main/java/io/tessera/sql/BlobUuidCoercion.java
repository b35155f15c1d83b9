package io.tessera.sql;

import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.sql.SqlBasicTypeNameSpec;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlDataTypeSpec;
import org.apache.calcite.sql.SqlDynamicParam;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.validate.SqlValidator;
import org.apache.calcite.sql.validate.SqlValidatorScope;
import org.apache.calcite.sql.validate.implicit.TypeCoercionImpl;

/**
 * Calcite's implicit casts, with text cast to a UUID or to bytes where one is wanted (an INSERT's VALUES into a UUID
 * or BLOB column, as DuckDB takes them): Calcite has no type name to write a cast to UUID with and would fail, and
 * leaves text beside bytes uncast, so that VALUES rows with a NULL would not agree.
 */
final class BlobUuidCoercion extends TypeCoercionImpl {

    BlobUuidCoercion(RelDataTypeFactory types, SqlValidator validator) {
        super(types, validator);
    }

    @Override
    protected boolean coerceOperandType(SqlValidatorScope scope, SqlCall call, int index, RelDataType targetType) {
        SqlTypeName to = targetType.getSqlTypeName();
        if (to != SqlTypeName.UUID && to != SqlTypeName.VARBINARY && to != SqlTypeName.BINARY) {
            return super.coerceOperandType(scope, call, index, targetType);
        }
        SqlNode operand = call.getOperandList().get(index);
        if (operand instanceof SqlDynamicParam || scope == null) {
            return false;
        }
        RelDataType from = validator.deriveType(scope, operand);
        if (!org.apache.calcite.sql.type.SqlTypeUtil.isCharacter(from)) {
            return false;
        }
        SqlParserPos pos = operand.getParserPosition();
        SqlNode cast = SqlStdOperatorTable.CAST.createCall(pos, operand,
                new SqlDataTypeSpec(new SqlBasicTypeNameSpec(to == SqlTypeName.UUID ? to : SqlTypeName.VARBINARY, pos),
                        pos));
        RelDataType type = factory.createTypeWithNullability(to == SqlTypeName.UUID ? targetType
                : factory.createSqlType(SqlTypeName.VARBINARY), from.isNullable());
        call.setOperand(index, cast);
        updateInferredType(cast, type);
        return true;
    }
}

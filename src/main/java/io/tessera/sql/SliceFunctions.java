package io.tessera.sql;

import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.sql.SqlCallBinding;
import org.apache.calcite.sql.SqlFunction;
import org.apache.calcite.sql.SqlFunctionCategory;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlOperandCountRange;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlOperatorBinding;
import org.apache.calcite.sql.type.SqlOperandCountRanges;
import org.apache.calcite.sql.type.SqlOperandTypeChecker;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.type.SqlTypeUtil;

import java.util.Locale;
import java.util.Map;

/**
 * DuckDB's {@code array_slice(x, begin, end [, step])} and {@code list_slice}, of a list or a string: the list's type
 * or a VARCHAR, NULL where an argument is. What they compute is decided in {@code plan.SliceCalls}; neither is folded
 * by Calcite.
 */
final class SliceFunctions {
    private SliceFunctions() {
    }

    /** A list or a string, then integer bounds and step (each may be NULL); a string takes no step, as in DuckDB. */
    private static final SqlOperandTypeChecker OPERANDS = new SqlOperandTypeChecker() {
        @Override
        public boolean checkOperandTypes(SqlCallBinding b, boolean throwOnFailure) {
            String name = b.getOperator().getName().toLowerCase(Locale.ROOT);
            RelDataType x = b.getOperandType(0);
            boolean text = SqlTypeUtil.inCharFamily(x);
            if (!text && x.getComponentType() == null && x.getSqlTypeName() != SqlTypeName.NULL) {
                throw new SqlError(name + " can only operate on LISTs and VARCHARs, not " + x);
            }
            for (int i = 1; i < b.getOperandCount(); i++) {
                RelDataType t = b.getOperandType(i);
                if (t.getSqlTypeName() != SqlTypeName.NULL
                        && !SqlTypeFamily.INTEGER.getTypeNames().contains(t.getSqlTypeName())) {
                    throw new SqlError("unsupported: " + name + " with a bound or step of type " + t
                            + " (it must be an integer)");
                }
            }
            if (text && b.getOperandCount() == 4) {
                throw new SqlError("Slice with steps has not been implemented for string types");
            }
            return true;
        }

        @Override
        public SqlOperandCountRange getOperandCountRange() {
            return SqlOperandCountRanges.between(3, 4);
        }

        @Override
        public String getAllowedSignatures(SqlOperator op, String opName) {
            return opName + "(list or string, begin, end [, step])";
        }
    };

    /** The list's type (a string's VARCHAR), NULL where an argument may be. */
    private static RelDataType sliced(SqlOperatorBinding b) {
        RelDataTypeFactory f = b.getTypeFactory();
        RelDataType x = b.getOperandType(0);
        RelDataType type = SqlTypeUtil.inCharFamily(x) || x.getSqlTypeName() == SqlTypeName.NULL
                ? f.createSqlType(SqlTypeName.VARCHAR) : x;
        boolean nullable = b.collectOperandTypes().stream().anyMatch(RelDataType::isNullable);
        return f.createTypeWithNullability(type, nullable);
    }

    private static SqlFunction fn(String name) {
        return new SqlFunction(name, SqlKind.OTHER_FUNCTION, SliceFunctions::sliced, null, OPERANDS,
                SqlFunctionCategory.SYSTEM);
    }

    /** Functions by upper-case name. */
    private static final Map<String, SqlOperator> FUNCTIONS = Map.of(
            "ARRAY_SLICE", fn("ARRAY_SLICE"),
            "LIST_SLICE", fn("LIST_SLICE"));

    static SqlOperator lookup(String name) {
        return FUNCTIONS.get(name);
    }

    static java.util.Collection<SqlOperator> all() {
        return FUNCTIONS.values();
    }

    static boolean has(String name) {
        return FUNCTIONS.containsKey(name) || name.equals(SliceSyntax.NAME);
    }
}

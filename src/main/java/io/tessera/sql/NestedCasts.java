package io.tessera.sql;

import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlCallBinding;
import org.apache.calcite.sql.SqlDataTypeSpec;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlRowTypeNameSpec;
import org.apache.calcite.sql.fun.SqlCastFunction;
import org.apache.calcite.sql.fun.SqlLibraryOperators;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.type.SqlTypeUtil;
import org.apache.calcite.sql2rel.SqlRexConvertlet;
import org.apache.calcite.sql2rel.StandardConvertletTable;

/**
 * The CASTs of nested values that DuckDB has and Calcite's validator refuses: a STRUCT or a LIST to text (DuckDB's
 * text of the value), a STRUCT to a STRUCT type of other fields (its fields matched by name, case-insensitively,
 * which {@code plan.StructCalls} does), a LIST of STRUCTs to another (element by element, by name), and a STRUCT or a
 * LIST of STRUCTs to a type that differs only in the case of field names (which keeps the value and its names, as
 * DuckDB's does), and text to a LIST or STRUCT type (DuckDB's text of the value, read when the query runs). Before
 * validation each CAST to text, to a STRUCT type or to a list becomes a call of {@link #CAST}, which accepts them; it
 * converts as Calcite's CAST ({@link #CONVERTLET}).
 */
final class NestedCasts {
    private NestedCasts() {
    }

    static final SqlCastFunction CAST = new ByName("CAST", org.apache.calcite.sql.SqlKind.CAST);

    /** DuckDB's TRY_CAST of the same kinds ({@code plan.TryCasts}: NULL where a part does not convert). */
    static final SqlCastFunction TRY_CAST = new ByName("TRY_CAST", org.apache.calcite.sql.SqlKind.SAFE_CAST);

    /** A CAST (or TRY_CAST) that accepts the casts of nested values above. */
    private static final class ByName extends SqlCastFunction {
        ByName(String name, org.apache.calcite.sql.SqlKind kind) {
            super(name, kind);
        }

        @Override
        public boolean checkOperandTypes(SqlCallBinding binding, boolean throwOnFailure) {
            RelDataType from = binding.getOperandType(0);
            RelDataType to = binding.getOperandType(1);
            boolean nested = from.isStruct() || from.getSqlTypeName() == SqlTypeName.ARRAY || isMap(from);
            if (getKind() == org.apache.calcite.sql.SqlKind.SAFE_CAST && (kind(from) != null || kind(to) != null)) {
                return true; // a TRY_CAST of a nested value, or to one: NULL where no value converts (plan.TryCasts)
            }
            if (nested && SqlTypeUtil.inCharFamily(to) || from.isStruct() && to.isStruct()
                    || sameButNameCase(from, to) || structLists(from, to) || fromText(from, to)
                    || isMap(from) && isMap(to)) {
                return true;
            }
            return super.checkOperandTypes(binding, throwOnFailure);
        }

        /**
         * The target type, NULL where the nested value may be (Calcite's would match a struct's fields to it); the
         * source's type where the two differ only in the case of field names, which DuckDB's cast keeps. A TRY_CAST's
         * may be NULL.
         */
        @Override
        public RelDataType inferReturnType(org.apache.calcite.sql.SqlOperatorBinding binding) {
            RelDataType from = binding.getOperandType(0);
            RelDataType to = binding.getOperandType(1);
            boolean nullable = from.isNullable() || getKind() == org.apache.calcite.sql.SqlKind.SAFE_CAST;
            if (sameButNameCase(from, to)) {
                return binding.getTypeFactory().createTypeWithNullability(from, nullable);
            }
            boolean nested = from.isStruct() || from.getSqlTypeName() == SqlTypeName.ARRAY || isMap(from);
            if (nested && SqlTypeUtil.inCharFamily(to) || from.isStruct() && to.isStruct() || structLists(from, to)
                    || fromText(from, to) || isMap(from) && isMap(to)
                    || getKind() == org.apache.calcite.sql.SqlKind.SAFE_CAST && (kind(from) != null || kind(to) != null)) {
                return binding.getTypeFactory().createTypeWithNullability(to, nullable);
            }
            return super.inferReturnType(binding);
        }

        /** The operands' types and this CAST's check, without the look-up by name that would find Calcite's CAST. */
        @Override
        public RelDataType deriveType(org.apache.calcite.sql.validate.SqlValidator validator,
                                      org.apache.calcite.sql.validate.SqlValidatorScope scope, SqlCall call) {
            for (SqlNode operand : call.getOperandList()) {
                validator.deriveType(scope, operand);
            }
            return validateOperands(validator, scope, call);
        }
    }

    /**
     * The statement with each CAST to text or to a STRUCT type made a call of {@link #CAST}, each TRY_CAST (but one
     * to an INTERVAL, which {@link IntervalSyntax} reads) a call of {@link #TRY_CAST}, which Calcite's TRY_CAST is
     * where neither side is a LIST, STRUCT or MAP.
     */
    static SqlNode rewrite(SqlNode parsed) {
        SqlNode casts = OperatorSwaps.replace(parsed, c -> c.getOperator() == SqlStdOperatorTable.CAST
                && c.operand(1) instanceof SqlDataTypeSpec spec && textOrStruct(spec), CAST);
        return OperatorSwaps.replace(casts, c -> c.getOperator() == SqlLibraryOperators.TRY_CAST
                && c.operand(1) instanceof SqlDataTypeSpec spec && !(spec.getTypeNameSpec() instanceof IntervalTypeName),
                TRY_CAST);
    }

    /** A nested type's kind (STRUCT, LIST or MAP), null for a scalar. */
    private static SqlTypeName kind(RelDataType t) {
        return t.isStruct() ? SqlTypeName.ROW : t.getSqlTypeName() == SqlTypeName.ARRAY || isMap(t)
                ? t.getSqlTypeName() : null;
    }

    /** Whether {@code from} is text and {@code to} a LIST or STRUCT type: DuckDB's text of such a value read. */
    static boolean fromText(RelDataType from, RelDataType to) {
        return SqlTypeUtil.inCharFamily(from) && (to.isStruct() || to.getSqlTypeName() == SqlTypeName.ARRAY
                || isMap(to));
    }

    /** Whether a type is a MAP (DuckDB's, a list of key-value structs to plan.MapCalls). */
    static boolean isMap(RelDataType t) {
        return t.getSqlTypeName() == SqlTypeName.MAP;
    }

    /**
     * Whether both are LISTs of STRUCTs (or lists of lists of them): cast element by element, each struct by name
     * ({@code plan.ListCalls}), where Calcite would match the fields by position and count.
     */
    static boolean structLists(RelDataType from, RelDataType to) {
        if (from.getSqlTypeName() != SqlTypeName.ARRAY || to.getSqlTypeName() != SqlTypeName.ARRAY) {
            return false;
        }
        RelDataType a = from.getComponentType();
        RelDataType b = to.getComponentType();
        return a.isStruct() && b.isStruct() || structLists(a, b);
    }

    /**
     * Whether two STRUCT types, or LIST types of STRUCTs, are the same but for the case of field names: DuckDB's cast
     * from one to the other changes nothing, the names included ({@code CAST({'A': 1} AS STRUCT(a INTEGER))} is
     * {@code {'A': 1}}), where a cast that converts a field takes the target's names.
     */
    static boolean sameButNameCase(RelDataType from, RelDataType to) {
        boolean structs = from.isStruct() && to.isStruct() || from.getSqlTypeName() == SqlTypeName.ARRAY
                && to.getSqlTypeName() == SqlTypeName.ARRAY && from.getComponentType().isStruct();
        return structs && same(from, to);
    }

    /**
     * Whether two types are the same but for the case of field names, text of any length the same, NULL or not at every
     * depth.
     */
    static boolean same(RelDataType from, RelDataType to) {
        if (from.isStruct() && to.isStruct()) {
            if (from.getFieldCount() != to.getFieldCount()) {
                return false;
            }
            for (int i = 0; i < from.getFieldCount(); i++) {
                org.apache.calcite.rel.type.RelDataTypeField a = from.getFieldList().get(i);
                org.apache.calcite.rel.type.RelDataTypeField b = to.getFieldList().get(i);
                if (!a.getName().equalsIgnoreCase(b.getName()) || !same(a.getType(), b.getType())) {
                    return false;
                }
            }
            return true;
        }
        if (from.getSqlTypeName() == SqlTypeName.ARRAY && to.getSqlTypeName() == SqlTypeName.ARRAY) {
            return same(from.getComponentType(), to.getComponentType());
        }
        if (from.getSqlTypeName() == SqlTypeName.MAP && to.getSqlTypeName() == SqlTypeName.MAP) {
            return same(from.getKeyType(), to.getKeyType()) && same(from.getValueType(), to.getValueType());
        }
        if (from.isStruct() || to.isStruct() || from.getSqlTypeName() == SqlTypeName.ARRAY
                || to.getSqlTypeName() == SqlTypeName.ARRAY || from.getSqlTypeName() == SqlTypeName.MAP
                || to.getSqlTypeName() == SqlTypeName.MAP) {
            return false;
        }
        // text is Tessera's VARCHAR whatever its length
        return SqlTypeUtil.inCharFamily(from) && SqlTypeUtil.inCharFamily(to)
                || from.getSqlTypeName() == to.getSqlTypeName() && from.getPrecision() == to.getPrecision()
                && from.getScale() == to.getScale();
    }

    private static boolean textOrStruct(SqlDataTypeSpec spec) {
        if (spec.getTypeNameSpec() instanceof SqlRowTypeNameSpec
                || spec.getTypeNameSpec() instanceof org.apache.calcite.sql.SqlCollectionTypeNameSpec
                || spec.getTypeNameSpec() instanceof org.apache.calcite.sql.SqlMapTypeNameSpec) {
            return true; // a STRUCT, a LIST of any element, a MAP (from text too)
        }
        if (!spec.getTypeName().isSimple()) {
            return false;
        }
        SqlTypeName name = SqlTypeName.get(spec.getTypeName().getSimple().toUpperCase(java.util.Locale.ROOT));
        return name == SqlTypeName.VARCHAR || name == SqlTypeName.CHAR;
    }

    /**
     * Converts a call of {@link #CAST} or {@link #TRY_CAST}: a cast of a nested value as a CAST (TRY_CAST) to the
     * validated type (which Calcite's conversion would derive again as it derives a struct's), any other as Calcite's
     * CAST (TRY_CAST).
     */
    static final SqlRexConvertlet CONVERTLET = (cx, c) -> {
        RelDataType from = cx.getValidator().getValidatedNodeType(c.operand(0));
        RelDataType to = cx.getValidator().getValidatedNodeType(c);
        boolean safe = c.getOperator() == TRY_CAST;
        if (safe && (kind(from) != null || kind(to) != null)) {
            // plan.TryCasts lowers it (NULL where no value converts): a call Calcite's conversion leaves alone
            return cx.getRexBuilder().makeCall(to, CheckedCasts.TRY_CAST,
                    java.util.List.of(cx.convertExpression(c.operand(0))));
        }
        // a list to a list of other scalars as Calcite's CAST
        boolean scalarLists = from.getSqlTypeName() == SqlTypeName.ARRAY && to.getSqlTypeName() == SqlTypeName.ARRAY
                && !structLists(from, to);
        if ((from.isStruct() || from.getSqlTypeName() == SqlTypeName.ARRAY) && !scalarLists
                || fromText(from, to) || isMap(from)) {
            if (isMap(to) && !isMap(from)) {
                // text read as a map: a call Calcite's simplification leaves alone (it cannot fold a literal to a MAP)
                return cx.getRexBuilder().makeCall(to, safe ? CheckedCasts.TRY_CAST : CheckedCasts.CHECKED_CAST,
                        java.util.List.of(cx.convertExpression(c.operand(0))));
            }
            return cx.getRexBuilder().makeAbstractCast(cx.getValidator().getValidatedNodeType(c),
                    cx.convertExpression(c.operand(0)), safe);
        }
        SqlCall std = (safe ? SqlLibraryOperators.TRY_CAST : SqlStdOperatorTable.CAST)
                .createCall(c.getParserPosition(), c.getOperandList());
        ((org.apache.calcite.sql.validate.SqlValidatorImpl) cx.getValidator()).setValidatedNodeType(std,
                cx.getValidator().getValidatedNodeType(c));
        return StandardConvertletTable.INSTANCE.get(std).convertCall(cx, std);
    };
}

package io.tessera.sql;

import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.sql.SqlBasicTypeNameSpec;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlCallBinding;
import org.apache.calcite.sql.SqlDataTypeSpec;
import org.apache.calcite.sql.SqlDynamicParam;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.fun.SqlCase;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.type.SqlTypeUtil;
import org.apache.calcite.sql.validate.SqlValidator;
import org.apache.calcite.sql.validate.SqlValidatorScope;
import org.apache.calcite.sql.validate.implicit.TypeCoercionImpl;

import java.util.ArrayList;
import java.util.List;

/**
 * Calcite's implicit casts, with text cast to a UUID or to bytes where one is wanted (an INSERT's VALUES into a UUID
 * or BLOB column, as DuckDB takes them): Calcite has no type name to write a cast to UUID with and would fail, and
 * leaves text beside bytes uncast, so that VALUES rows with a NULL would not agree. Text that an INSERT's query
 * gives an INTERVAL column ({@code INSERT INTO t SELECT id, '1 day'}) is read as DuckDB's interval text, as
 * {@code CAST(x AS INTERVAL)} reads it: Calcite has no type name to write the cast to the column's type with either.
 * A NULL beside a STRUCT, LIST or MAP (in a UNION's branches or VALUES rows) makes the common type nullable, as it
 * does beside a scalar. A cast to a LIST or STRUCT type with an INTERVAL inside (an INSERT of {@code [INTERVAL 1 DAY]}
 * into an INTERVAL[] column, a UNION's branches) writes the type with {@link IntervalTypeName}. An INTERVAL beside text
 * in a set operation is a VARCHAR, as the other temporal types are; a CASE's or COALESCE's temporal values beside text
 * are typed as DuckDB types them ({@link TemporalText}).
 */
final class TextCoercion extends TypeCoercionImpl {

    TextCoercion(RelDataTypeFactory types, SqlValidator validator) {
        super(types, validator);
    }

    /**
     * A function's text operand given a number, boolean or temporal value is refused, as DuckDB refuses it (it casts
     * nothing to VARCHAR implicitly: {@code starts_with(2, 2)}, {@code length(123)}), except by the functions that
     * take any value as text ({@link NoTextCasts}).
     */
    @Override
    public boolean builtinFunctionCoercion(SqlCallBinding binding, List<RelDataType> operandTypes,
                                           List<org.apache.calcite.sql.type.SqlTypeFamily> expectedFamilies) {
        NoTextCasts.check(binding, operandTypes, expectedFamilies);
        return super.builtinFunctionCoercion(binding, operandTypes, expectedFamilies);
    }

    @Override
    protected boolean coerceOperandType(SqlValidatorScope scope, SqlCall call, int index, RelDataType targetType) {
        SqlNode byName = castByName(scope, call.getOperandList().get(index), targetType);
        if (byName != null) {
            call.setOperand(index, byName);
            return true;
        }
        if (nestedInterval(targetType) || IntervalSyntax.isInterval(targetType)) {
            SqlNode cast = castNested(scope, call.getOperandList().get(index), targetType);
            if (cast != null) {
                call.setOperand(index, cast);
            }
            return cast != null;
        }
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

    /**
     * The common type of two set operation branches' (or VALUES rows') columns, nullable where either is. Calcite
     * leaves it NOT NULL in two cases, and records the branches with that type, which the relational algebra
     * contradicts: two structs of which one is nullable, and a NULL beside a STRUCT, LIST or MAP. There the NULL
     * becomes a CAST to the type as a type name writes it, nullable and with nullable elements and fields, so the
     * common type is that one.
     */
    @Override
    public RelDataType getTightestCommonType(RelDataType type1, RelDataType type2) {
        RelDataType common = super.getTightestCommonType(type1, type2);
        if (common == null || type1 == null || type2 == null || common.isNullable()) {
            return common;
        }
        boolean nested = common.isStruct() || common.getComponentType() != null || common.getKeyType() != null;
        if (nested && (isNullType(type1) || isNullType(type2))) {
            try {
                return IntervalTypeName.specOf(common).withNullable(true).deriveType(validator);
            } catch (UnsupportedOperationException noTypeName) {
                // a type no type name writes (a UUID inside): Calcite's own cast fails on it as before
                return common;
            }
        }
        if (common.isStruct() && (type1.isNullable() || type2.isNullable())) {
            return factory.createTypeWithNullability(common, true);
        }
        return common;
    }

    /**
     * A comparison of a list of NULLs with a list nested deeper ({@code [NULL] > [[1]]}), or of a struct whose field
     * is NULL with one whose field is a list ({@code {'a': NULL} > {'a': [1]}}), compares both as the deeper value, as
     * DuckDB does; other comparisons as Calcite has them.
     */
    @Override
    public boolean binaryComparisonCoercion(SqlCallBinding binding) {
        if (binding.getOperandCount() == 2) {
            RelDataType a = binding.getOperandType(0);
            RelDataType b = binding.getOperandType(1);
            RelDataType byName = StructCommonType.of(factory, List.of(a, b), factory::leastRestrictive);
            if (byName != null) {
                // structs of other field names compared as their common type, DuckDB's (StructCommonType)
                return coerceOperandsType(binding.getScope(), binding.getCall(), byName);
            }
            boolean nested = a.getComponentType() != null && b.getComponentType() != null
                    || a.isStruct() && b.isStruct();
            RelDataType filled = nested && getTightestCommonType(a, b) == null ? nullsFilled(a, b) : null;
            if (filled != null) {
                try {
                    RelDataType common = IntervalTypeName.specOf(filled).withNullable(true).deriveType(validator);
                    return coerceOperandsType(binding.getScope(), binding.getCall(), common);
                } catch (UnsupportedOperationException noTypeName) {
                    // a type no type name writes (a UUID inside): refused as before
                }
            }
        }
        return super.binaryComparisonCoercion(binding);
    }

    /**
     * The type of two lists (or structs of the same field names) of which one holds NULLs where the other holds values
     * or lists ({@code NULL[]} and {@code INTEGER[][]}: the latter); null where they differ otherwise ({@code INTEGER[]}
     * and {@code INTEGER[][]}).
     */
    private RelDataType nullsFilled(RelDataType a, RelDataType b) {
        if (isNullType(a) || isNullType(b)) {
            return factory.createTypeWithNullability(isNullType(a) ? b : a, true);
        }
        if (SqlTypeUtil.equalSansNullability(factory, a, b)) {
            return factory.createTypeWithNullability(a, true);
        }
        if (a.isStruct() && b.isStruct()) {
            if (a.getFieldCount() != b.getFieldCount()) {
                return null;
            }
            List<String> names = new ArrayList<>();
            List<RelDataType> fields = new ArrayList<>();
            for (int i = 0; i < a.getFieldCount(); i++) {
                RelDataTypeField fa = a.getFieldList().get(i);
                RelDataTypeField fb = b.getFieldList().get(i);
                RelDataType field = fa.getName().equalsIgnoreCase(fb.getName())
                        ? nullsFilled(fa.getType(), fb.getType()) : null;
                if (field == null) {
                    return null;
                }
                names.add(a.getFieldList().get(i).getName());
                fields.add(field);
            }
            return factory.createTypeWithNullability(factory.createStructType(fields, names), true);
        }
        if (a.getComponentType() == null || b.getComponentType() == null) {
            return null;
        }
        RelDataType element = nullsFilled(a.getComponentType(), b.getComponentType());
        return element == null ? null
                : factory.createTypeWithNullability(factory.createArrayType(element, -1), true);
    }

    /** Calcite's wider type of all, its field names spelt as the first type spells them (DuckDB's, {@link FirstSpelling}). */
    @Override
    public RelDataType getWiderTypeFor(List<RelDataType> typeList, boolean stringPromotion) {
        RelDataType wider = super.getWiderTypeFor(typeList, stringPromotion);
        return wider == null ? null : FirstSpelling.of(factory, wider, typeList);
    }

    /**
     * Calcite's wider type, and VARCHAR for an INTERVAL beside text where text may be promoted (a set operation's
     * branches, as DuckDB types {@code SELECT INTERVAL 1 DAY UNION ALL SELECT '2 days'}), as Calcite already has it for
     * the other temporal types.
     */
    @Override
    public RelDataType getWiderTypeForTwo(RelDataType type1, RelDataType type2, boolean stringPromotion) {
        RelDataType wider = super.getWiderTypeForTwo(type1, type2, stringPromotion);
        if (wider != null || !stringPromotion || type1 == null || type2 == null) {
            return wider;
        }
        boolean intervalBesideText = IntervalSyntax.isInterval(type1) && SqlTypeUtil.isCharacter(type2)
                || SqlTypeUtil.isCharacter(type1) && IntervalSyntax.isInterval(type2);
        return intervalBesideText ? factory.createSqlType(SqlTypeName.VARCHAR) : null;
    }

    /**
     * A CASE's results or COALESCE's arguments of a temporal type beside text as DuckDB types them ({@link
     * TemporalText}): string literals read as the temporal type, other text refused; other mixes as Calcite has them.
     */
    @Override
    public boolean caseOrEquivalentCoercion(SqlCallBinding binding) {
        if (!(binding.getCall() instanceof SqlCase call)) {
            return super.caseOrEquivalentCoercion(binding); // COALESCE is a CASE by now; NULLIF
        }
        SqlValidatorScope scope = binding.getScope();
        List<SqlNode> values = new ArrayList<>(call.getThenOperands());
        values.add(call.getElseOperand());
        List<RelDataType> types = new ArrayList<>();
        for (SqlNode v : values) {
            types.add(validator.deriveType(scope, v));
        }
        TemporalText.Construct construct = TemporalText.fromCoalesce(call) ? TemporalText.Construct.COALESCE
                : TemporalText.Construct.CASE;
        RelDataType temporal = TemporalText.commonType(factory, construct, values, types);
        if (temporal == null) {
            return super.caseOrEquivalentCoercion(binding);
        }
        RelDataType common = factory.createTypeWithNullability(temporal, false);
        int thens = call.getThenOperands().size();
        for (int i = 0; i < values.size(); i++) {
            SqlNode cast = TemporalText.asCommon(values.get(i), types.get(i), common);
            if (cast == null) {
                continue;
            }
            if (i < thens) {
                call.getThenOperands().set(i, cast);
            } else {
                call.setOperand(3, cast);
            }
            updateInferredType(cast, factory.createTypeWithNullability(common, types.get(i).isNullable()));
        }
        return true;
    }

    /**
     * A struct cast to a struct type of other field names (a common type of {@link StructCommonType}), by name as
     * {@link NestedCasts#CAST} converts it, and a list or map of structs to one of such structs; null where the value
     * holds no struct.
     */
    private SqlNode castByName(SqlValidatorScope scope, SqlNode value, RelDataType targetType) {
        if (!StructCommonType.structInside(targetType) || value instanceof SqlDynamicParam || scope == null
                || value instanceof SqlIdentifier id && id.isStar()) {
            return null;
        }
        RelDataType from = validator.deriveType(scope, value);
        if (!StructCommonType.structInside(from) || SqlTypeUtil.equalSansNullability(factory, from, targetType)
                || from.isStruct() && from.getFieldNames().equals(targetType.getFieldNames())) {
            return null;
        }
        SqlNode cast = NestedCasts.CAST.createCall(value.getParserPosition(), value,
                IntervalTypeName.specOf(targetType).withNullable(from.isNullable()));
        updateInferredType(cast, factory.createTypeWithNullability(targetType, from.isNullable()));
        return cast;
    }

    /**
     * Whether a column's type differs from {@code targetType} only in how its field names are spelt (and in the
     * nullability of its parts, which Calcite's wider type of nested lists loses).
     */
    private boolean onlySpeltOtherwise(SqlValidatorScope scope, SqlNodeList columns, int index,
                                       RelDataType targetType) {
        if (scope == null || index >= columns.size() || !StructCommonType.structInside(targetType)) {
            return false;
        }
        SqlNode column = columns.get(index);
        SqlNode value = column instanceof SqlCall c && c.getKind() == SqlKind.AS ? c.operand(0) : column;
        if (value instanceof SqlDynamicParam || value instanceof SqlIdentifier id && id.isStar()) {
            return false;
        }
        RelDataType from = validator.deriveType(scope, value);
        return !SqlTypeUtil.equalSansNullability(factory, from, targetType) && NestedCasts.same(from, targetType);
    }

    /** Whether {@code t} is a LIST or STRUCT with an INTERVAL inside, a type Calcite's implicit casts cannot write. */
    private static boolean nestedInterval(RelDataType t) {
        return (t.isStruct() || t.getComponentType() != null) && IntervalTypeName.holdsInterval(t);
    }

    /**
     * {@code value} cast to such a type, or to an INTERVAL, its type name written with {@link IntervalTypeName}, NULL
     * where the value may be; text into an INTERVAL read as an interval literal ('36 hours'); null where no cast is
     * needed (or a parameter's value, which is cast when bound).
     */
    private SqlNode castNested(SqlValidatorScope scope, SqlNode value, RelDataType targetType) {
        if (value instanceof SqlDynamicParam || scope == null || value instanceof SqlIdentifier id && id.isStar()
                || !needToCast(scope, value, targetType)) {
            return null;
        }
        RelDataType from = validator.deriveType(scope, value);
        boolean nullable = from.isNullable();
        if (IntervalSyntax.isInterval(targetType) && IntervalSyntax.isInterval(from)) {
            // all one INTERVAL in Tessera: a cast to the column's unit would fold INTERVAL 36 HOUR into 1 day 12 hours
            return null;
        }
        if (IntervalSyntax.isInterval(targetType) && org.apache.calcite.sql.type.SqlTypeUtil.isCharacter(from)) {
            SqlNode read = TimestampFunctions.INTERVAL_LITERAL.createCall(value.getParserPosition(), value);
            updateInferredType(read, TimestampFunctions.intervalType(factory, nullable));
            return read;
        }
        SqlNode cast = SqlStdOperatorTable.CAST.createCall(value.getParserPosition(), value,
                IntervalTypeName.specOf(targetType).withNullable(nullable));
        updateInferredType(cast, factory.createTypeWithNullability(targetType, nullable));
        return cast;
    }

    private static boolean isNullType(RelDataType t) {
        return t.getSqlTypeName() == SqlTypeName.NULL;
    }

    @Override
    protected boolean coerceColumnType(SqlValidatorScope scope, SqlNodeList columns, int index,
            RelDataType targetType) {
        if (onlySpeltOtherwise(scope, columns, index, targetType)) {
            // the set operation's branches differ only in the case of field names: each keeps its value as it is
            // (their type, spelt as the first branch spells it, names the result's fields), where a cast to the
            // first's spelling would write a nested list's type with nullable inner lists
            return false;
        }
        // an INTERVAL column's value: text read as an interval ('36 hours'), an interval of another unit kept as it
        // is (INTERVAL 36 HOUR), each with a type name Calcite cannot write for it (castNested)
        boolean interval = IntervalSyntax.isInterval(targetType) && scope != null;
        if ((nestedInterval(targetType) || interval) && index < columns.size()) {
            SqlNode column = columns.get(index);
            boolean alias = column instanceof SqlCall c && c.getKind() == SqlKind.AS;
            SqlNode cast = castNested(scope, alias ? ((SqlCall) column).operand(0) : column, targetType);
            if (cast != null && alias) {
                ((SqlCall) column).setOperand(0, cast);
            } else if (cast != null) {
                columns.set(index, cast);
            }
            return cast != null;
        }
        return super.coerceColumnType(scope, columns, index, targetType);
    }
}

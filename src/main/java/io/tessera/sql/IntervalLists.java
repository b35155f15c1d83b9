package io.tessera.sql;

import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlCharStringLiteral;
import org.apache.calcite.sql.SqlIntervalQualifier;
import org.apache.calcite.sql.SqlIntervalLiteral;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNumericLiteral;
import org.apache.calcite.sql.SqlBasicTypeNameSpec;
import org.apache.calcite.sql.SqlDataTypeSpec;
import org.apache.calcite.sql.SqlUtil;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.SqlTypeName;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A list of interval constants of different units ({@code [INTERVAL 1 DAY, INTERVAL 2 HOURS]}), which DuckDB types as
 * one INTERVAL[] and Calcite cannot make (it casts each element to a common interval type it has no type name for):
 * each constant of one unit becomes the interval literal of its DuckDB text ({@code '1 day'}, {@code '-2 hour'}; the DuckDB form {@code INTERVAL 2 HOURS} too), all
 * of the one INTERVAL type a column has. So does a list of interval constants of one unit with a NULL among them
 * ({@code [INTERVAL 1 DAY, NULL]}), whose NULL Calcite would cast to the unit's type, which it cannot name, and one of
 * months or years ({@code [INTERVAL 1 MONTH]}), whose type Calcite compares with no list of days. And a
 * list of structs or lists with an INTERVAL inside has its elements cast to one type ({@link #ARRAY}), as has a list of
 * structs whose field names differ, by name ({@code [{'a': 1}, {'b': 2}]}, DuckDB's STRUCT(a, b)[]). Every list
 * constructor is {@link #ARRAY}, which types a list of lists (of any element type) with its inner lists and their
 * elements nullable at every level, as a column's are, so that no inner list (a NULL one included) needs a cast.
 */
final class IntervalLists {
    private IntervalLists() {
    }

    /**
     * Calcite's list constructor, but for elements of a LIST or STRUCT type with an INTERVAL inside ({@code
     * [{'a': INTERVAL 1 DAY}, {'a': NULL}]}): each element of another type is cast to the element type written with
     * {@link IntervalTypeName}, where Calcite's would fail to write that type (and refuse the list).
     */
    static final org.apache.calcite.sql.fun.SqlArrayValueConstructor ARRAY =
            new org.apache.calcite.sql.fun.SqlArrayValueConstructor() {
                @Override
                public org.apache.calcite.rel.type.RelDataType inferReturnType(
                        org.apache.calcite.sql.SqlOperatorBinding binding) {
                    List<org.apache.calcite.rel.type.RelDataType> types = binding.collectOperandTypes();
                    org.apache.calcite.rel.type.RelDataType element = getComponentType(binding.getTypeFactory(),
                            types);
                    if (element != null && element.getComponentType() != null) {
                        // a list of lists: its inner lists and their elements nullable at every level, as a column's
                        // are, with no cast of an operand (a NULL inner list included); the conversion to relational
                        // algebra derives the same type from the same operands
                        return binding.getTypeFactory().createArrayType(
                                nullableParts(binding.getTypeFactory(), element), -1);
                    }
                    if (element != null && binding instanceof org.apache.calcite.sql.SqlCallBinding b
                            && StructCommonType.structInside(element)
                            && types.stream().anyMatch(t -> !StructCommonType.sameNames(t, element))
                            && StructCommonType.castsByName(types, element)) {
                        return byName(b, types, element);
                    }
                    if (element == null || !(binding instanceof org.apache.calcite.sql.SqlCallBinding b)
                            || !element.isStruct() && element.getComponentType() == null
                            || !IntervalTypeName.holdsInterval(element)) {
                        return super.inferReturnType(binding);
                    }
                    // the element type as the CAST to it derives it (a list's elements NOT NULL), so that the
                    // conversion to relational algebra keeps it
                    SqlDataTypeSpec spec = IntervalTypeName.specOf(element).withNullable(element.isNullable());
                    org.apache.calcite.rel.type.RelDataType cast = spec.deriveType(b.getValidator());
                    SqlCall call = b.getCall();
                    for (int i = 0; i < call.operandCount(); i++) {
                        if (!types.get(i).equalsSansFieldNames(cast)) {
                            SqlNode o = call.operand(i);
                            call.setOperand(i, SqlStdOperatorTable.CAST.createCall(o.getParserPosition(), o, spec));
                        }
                    }
                    return org.apache.calcite.sql.type.SqlTypeUtil.createArrayType(binding.getTypeFactory(), cast,
                            false);
                }

                /**
                 * Structs (or lists of them) whose field names differ ({@code [{'a': 1}, {'b': 2}]}): each element
                 * of another type cast by name to their common type ({@link StructCommonType}), as DuckDB's list is
                 * of it; Calcite's constructor would cast them by position.
                 */
                private org.apache.calcite.rel.type.RelDataType byName(org.apache.calcite.sql.SqlCallBinding b,
                        List<org.apache.calcite.rel.type.RelDataType> types,
                        org.apache.calcite.rel.type.RelDataType element) {
                    SqlDataTypeSpec spec = IntervalTypeName.specOf(element).withNullable(element.isNullable());
                    org.apache.calcite.rel.type.RelDataType cast = spec.deriveType(b.getValidator());
                    SqlCall call = b.getCall();
                    for (int i = 0; i < call.operandCount(); i++) {
                        org.apache.calcite.rel.type.RelDataType t = types.get(i);
                        if (t.getSqlTypeName() != SqlTypeName.NULL
                                && (!t.equalsSansFieldNames(cast) || !StructCommonType.sameNames(t, cast))) {
                            SqlNode o = call.operand(i);
                            call.setOperand(i, NestedCasts.CAST.createCall(o.getParserPosition(), o, spec));
                        }
                    }
                    // the type of the cast elements, as the conversion to relational algebra derives it from them
                    return super.inferReturnType(b);
                }

                /** The operands' types and this constructor's check, without the look-up that finds Calcite's. */
                @Override
                public org.apache.calcite.rel.type.RelDataType deriveType(
                        org.apache.calcite.sql.validate.SqlValidator validator,
                        org.apache.calcite.sql.validate.SqlValidatorScope scope, SqlCall call) {
                    for (SqlNode operand : call.getOperandList()) {
                        validator.deriveType(scope, operand);
                    }
                    return validateOperands(validator, scope, call);
                }
            };

    /**
     * The list constructor with its interval constants of one type, or the call as it is; Calcite's constructor made
     * {@link #ARRAY}.
     */
    static SqlNode oneType(SqlCall call) {
        if (call.getOperator() == SqlStdOperatorTable.ARRAY_VALUE_CONSTRUCTOR) {
            call = ARRAY.createCall(call.getFunctionQuantifier(), call.getParserPosition(),
                    call.getOperandList().toArray(new SqlNode[0]));
        }
        boolean list = call.getKind() == SqlKind.ARRAY_VALUE_CONSTRUCTOR
                || call.getOperator().getName().equalsIgnoreCase("LIST_VALUE");
        if (!list) {
            return call;
        }
        long units = call.getOperandList().stream().map(IntervalLists::unit).filter(u -> u != null).distinct().count();
        boolean nulls = call.getOperandList().stream().anyMatch(o -> SqlUtil.isNullLiteral(o, false));
        // months and years too, whose Calcite type no list of days or hours compares with ([INTERVAL 1 MONTH] =
        // [INTERVAL 30 DAYS])
        boolean months = call.getOperandList().stream().map(IntervalLists::qualifier)
                .anyMatch(q -> q != null && q.isYearMonth());
        if (units < 2 && !(units == 1 && (nulls || months))) {
            return call;
        }
        List<SqlNode> operands = new ArrayList<>();
        for (SqlNode o : call.getOperandList()) {
            SqlParserPos pos = o.getParserPosition();
            String text = text(o);
            if (nulls && SqlUtil.isNullLiteral(o, false)) {
                // a NULL of the list's INTERVAL type (Calcite would cast it to a type it has no name for), and every
                // element nullable, so that none is cast
                operands.add(TimestampFunctions.NULLABLE_INTERVAL_LITERAL.createCall(pos,
                        SqlStdOperatorTable.CAST.createCall(pos, o,
                                new SqlDataTypeSpec(new SqlBasicTypeNameSpec(SqlTypeName.VARCHAR, pos), pos))));
            } else {
                operands.add(text == null ? o : (nulls ? TimestampFunctions.NULLABLE_INTERVAL_LITERAL
                        : TimestampFunctions.INTERVAL_LITERAL).createCall(pos, SqlLiteral.createCharString(text, pos)));
            }
        }
        return call.getOperator().createCall(call.getFunctionQuantifier(), call.getParserPosition(),
                operands.toArray(new SqlNode[0]));
    }

    /** {@code t} nullable, and so each list's elements inside it, to any depth. */
    private static org.apache.calcite.rel.type.RelDataType nullableParts(
            org.apache.calcite.rel.type.RelDataTypeFactory f, org.apache.calcite.rel.type.RelDataType t) {
        if (t.getComponentType() != null) {
            return f.createTypeWithNullability(f.createArrayType(nullableParts(f, t.getComponentType()), -1), true);
        }
        return f.createTypeWithNullability(t, true);
    }

    /** The qualifier of an interval constant ({@code INTERVAL '2' HOUR}, {@code INTERVAL 2 HOURS}); else null. */
    private static SqlIntervalQualifier qualifier(SqlNode o) {
        if (o instanceof SqlIntervalLiteral literal) {
            return literal.getValueAs(SqlIntervalLiteral.IntervalValue.class).getIntervalQualifier();
        }
        if (o instanceof SqlCall c && c.getKind() == SqlKind.INTERVAL && c.operandCount() == 2
                && c.operand(1) instanceof SqlIntervalQualifier q && number(c.operand(0)) != null) {
            return q;
        }
        return null;
    }

    private static String unit(SqlNode o) {
        if (textLiteral(o) != null) {
            return "text";
        }
        SqlIntervalQualifier q = qualifier(o);
        return q == null ? null : q.toString();
    }

    /** DuckDB's text of an interval constant of one unit ({@code 1 day}, {@code -2 hour}); null for any other. */
    private static String text(SqlNode o) {
        if (textLiteral(o) != null) {
            return textLiteral(o);
        }
        SqlIntervalQualifier q = qualifier(o);
        if (q == null || !q.isSingleDatetimeField()) {
            return null;
        }
        String value;
        if (o instanceof SqlIntervalLiteral literal) {
            SqlIntervalLiteral.IntervalValue v = literal.getValueAs(SqlIntervalLiteral.IntervalValue.class);
            value = (v.getSign() < 0 ? "-" : "") + v.getIntervalLiteral().trim();
        } else {
            value = number(((SqlCall) o).operand(0));
        }
        return value + " " + q.getStartUnit().name().toLowerCase(Locale.ROOT);
    }

    /** The text of DuckDB's interval literal without a unit ({@code INTERVAL '1 day'}); else null. */
    private static String textLiteral(SqlNode o) {
        return o instanceof SqlCall c && c.getOperator() == TimestampFunctions.INTERVAL_LITERAL
                && c.operand(0) instanceof SqlCharStringLiteral s ? s.getValueAs(String.class) : null;
    }

    /** A number constant's text, signed ({@code 2}, {@code -3}, {@code '2'}); null for any other value. */
    private static String number(SqlNode n) {
        if (n instanceof SqlNumericLiteral lit) {
            return lit.getValueAs(java.math.BigDecimal.class).toPlainString();
        }
        if (n instanceof SqlCharStringLiteral s) {
            return s.getValueAs(String.class).trim();
        }
        if (n instanceof SqlCall c && c.getKind() == SqlKind.MINUS_PREFIX) {
            String v = number(c.operand(0));
            return v == null ? null : "-" + v;
        }
        return null;
    }
}

package io.tessera.sql;

import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlDynamicParam;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlUtil;
import org.apache.calcite.sql.fun.SqlCase;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.type.SqlTypeUtil;
import org.apache.calcite.sql.validate.SqlValidator;
import org.apache.calcite.sql.validate.SqlValidatorScope;
import org.apache.calcite.util.Litmus;

import java.util.ArrayList;
import java.util.List;

/**
 * DuckDB's rule for text beside a DATE, TIME, TIMESTAMP, TIMESTAMP WITH TIME ZONE or INTERVAL, and beside a number or a
 * BOOLEAN ({@code COALESCE(1, '2')} is an INTEGER), among a CASE's results, COALESCE's, GREATEST's or LEAST's
 * arguments and a column of VALUES rows, where Calcite would make every value a VARCHAR. DuckDB takes the
 * values' common type one value after another: a string literal beside a temporal type is read as that type (as its
 * CAST reads it, an invalid one an error); text that is no literal (a VARCHAR column, a cast to VARCHAR, a literal
 * already joined with a NULL or another literal, the first of VALUES rows) beside one is refused; a CASE passes over
 * its NULL results. A set operation's branches are not of these: there the two become VARCHAR, as in DuckDB
 * ({@link TextCoercion#getWiderTypeForTwo}).
 */
final class TemporalText {
    private TemporalText() {
    }

    /** Where the values stand, which decides how DuckDB joins them. */
    enum Construct {
        CASE("CASE or COALESCE"), COALESCE("CASE or COALESCE"), GREATEST("GREATEST or LEAST"), VALUES("VALUES");

        final String name;

        Construct(String name) {
            this.name = name;
        }
    }

    /**
     * The temporal, numeric or BOOLEAN type of {@code values} (of {@code types}) where text stands beside values of
     * one of those families and DuckDB reads the string literals as it; null where they are no such mix (no text, no
     * such value, values of two families), left to Calcite's rules. Throws where DuckDB refuses the mix (two temporal
     * types with no common one too). A GREATEST's values join as COALESCE's do.
     */
    static RelDataType commonType(RelDataTypeFactory f, Construct construct, List<SqlNode> values,
                                  List<RelDataType> types) {
        Family family = null;
        for (RelDataType t : types) {
            Family of = Family.of(t);
            if (of != null && family != null && of != family) {
                return null; // a number beside a DATE, a BOOLEAN beside a number: Calcite's rules
            }
            family = of != null ? of : family;
        }
        if (family == null || types.stream().noneMatch(SqlTypeUtil::isCharacter)
                || !types.stream().allMatch(t -> SqlTypeUtil.isCharacter(t) || Family.of(t) != null
                || t.getSqlTypeName() == SqlTypeName.NULL)) {
            return null;
        }
        RelDataType common = null; // null before the first value
        boolean literal = false; // whether the common type so far is one string literal's
        boolean nullable = false;
        for (int i = 0; i < values.size(); i++) {
            RelDataType t = types.get(i);
            nullable |= t.isNullable();
            boolean isNull = t.getSqlTypeName() == SqlTypeName.NULL;
            if (isNull && construct == Construct.CASE) {
                continue;
            }
            boolean isLiteral = isTextLiteral(values.get(i)) && !(construct == Construct.VALUES && i == 0);
            if (common == null) {
                common = t;
                literal = isLiteral;
            } else if (isNull || isLiteral && !isTyped(common)) {
                // a literal joined with a NULL or other text is a VARCHAR; beside a temporal type it keeps that type
                boolean text = literal || isLiteral || SqlTypeUtil.isCharacter(common);
                common = text ? f.createSqlType(SqlTypeName.VARCHAR) : common;
                literal = false;
            } else if (isTyped(t)) {
                if (SqlTypeUtil.isCharacter(common) && !literal) {
                    throw refused(construct, "VARCHAR", t, values.get(i));
                }
                if (common.getSqlTypeName() != SqlTypeName.NULL && !literal) {
                    RelDataType wider = family == Family.TEMPORAL ? wider(f, common, t)
                            : NumericFunctions.keepingScale(List.of(common, t),
                            f.leastRestrictive(List.of(common, t)));
                    if (wider == null) {
                        throw refused(construct, name(common), t, values.get(i));
                    }
                    common = wider;
                } else {
                    common = t;
                }
                literal = false;
            } else if (!isTyped(common)) {
                common = t; // text beside text
                literal = false;
            } else if (!isLiteral) {
                throw refused(construct, "VARCHAR", common, values.get(i));
            }
        }
        return common != null && isTyped(common) ? f.createTypeWithNullability(common, nullable) : null;
    }

    /**
     * DuckDB's common type of two temporal types: a DATE beside a TIMESTAMP the TIMESTAMP, beside a TIMESTAMP WITH TIME
     * ZONE the instant (as is a TIMESTAMP, read on the session's clock); two intervals one INTERVAL; null for other
     * pairs (an INTERVAL beside a DATE, a TIME beside a DATE), which DuckDB refuses too.
     */
    static RelDataType wider(RelDataTypeFactory f, RelDataType a, RelDataType b) {
        if (IntervalSyntax.isInterval(a) || IntervalSyntax.isInterval(b)) {
            return IntervalSyntax.isInterval(a) && IntervalSyntax.isInterval(b) ? TimestampFunctions.intervalType(f,
                    false) : null;
        }
        SqlTypeName x = a.getSqlTypeName();
        SqlTypeName y = b.getSqlTypeName();
        if (x == y) {
            return a;
        }
        if (x == SqlTypeName.TIME || y == SqlTypeName.TIME) {
            return null;
        }
        boolean zoned = x == SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE || x == SqlTypeName.TIMESTAMP_TZ
                || y == SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE || y == SqlTypeName.TIMESTAMP_TZ;
        return zoned ? f.createSqlType(SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE, TesseraTypeSystem.TIMESTAMP_PRECISION)
                : f.createSqlType(SqlTypeName.TIMESTAMP, TesseraTypeSystem.TIMESTAMP_PRECISION);
    }

    /**
     * {@code value} (of {@code from}) as a value of the common {@code type}: a string literal read as it, a value of
     * another temporal type cast to it (a DATE beside a TIMESTAMP); null where it needs no cast (NULL, the same type).
     */
    static SqlNode asCommon(SqlNode value, RelDataType from, RelDataType type) {
        if (isTextLiteral(value)) {
            return read(value, type);
        }
        if (from.getSqlTypeName() == SqlTypeName.NULL || SqlTypeUtil.isCharacter(from)
                || from.getSqlTypeName() == type.getSqlTypeName()
                || IntervalSyntax.isInterval(from) && IntervalSyntax.isInterval(type)) {
            return null;
        }
        return SqlStdOperatorTable.CAST.createCall(value.getParserPosition(), value,
                SqlTypeUtil.convertTypeToSpec(type).withNullable(from.isNullable()));
    }

    /**
     * Each string literal of a column of VALUES rows ({@code VALUES (INTERVAL 1 DAY), ('2 days')}) read as the
     * temporal type of the column's other values, as {@link #commonType} has it.
     */
    static void readInValues(SqlValidator validator, SqlCall values, SqlValidatorScope scope) {
        List<SqlNode> rows = values.getOperandList();
        if (rows.size() < 2 || !(rows.get(0) instanceof SqlCall first)) {
            return;
        }
        int columns = first.operandCount();
        for (SqlNode row : rows) {
            if (row.getKind() != SqlKind.ROW || ((SqlCall) row).operandCount() != columns) {
                return;
            }
        }
        for (int c = 0; c < columns; c++) {
            List<SqlNode> column = new ArrayList<>();
            for (SqlNode row : rows) {
                column.add(((SqlCall) row).operand(c));
            }
            if (column.stream().noneMatch(TemporalText::isTextLiteral)) {
                continue;
            }
            List<RelDataType> types = new ArrayList<>();
            try {
                for (SqlNode v : column) {
                    types.add(v instanceof SqlDynamicParam || SqlUtil.isNullLiteral(v, false)
                            ? validator.getTypeFactory().createSqlType(SqlTypeName.NULL) : validator.deriveType(scope, v));
                }
            } catch (RuntimeException notYet) {
                continue; // a value whose type needs the rows validated first: the validator decides
            }
            RelDataType type = commonType(validator.getTypeFactory(), Construct.VALUES, column, types);
            for (int r = 0; type != null && r < rows.size(); r++) {
                SqlNode cast = asCommon(column.get(r), types.get(r), type);
                if (cast != null) {
                    ((SqlCall) rows.get(r)).setOperand(c, cast);
                }
            }
        }
    }

    /** The families of types whose values a string literal beside them is read as. */
    private enum Family {
        TEMPORAL, NUMERIC, BOOLEAN;

        static Family of(RelDataType t) {
            return isTemporal(t) ? TEMPORAL : SqlTypeUtil.isNumeric(t) ? NUMERIC
                    : t.getSqlTypeName() == SqlTypeName.BOOLEAN ? BOOLEAN : null;
        }
    }

    private static boolean isTyped(RelDataType t) {
        return Family.of(t) != null;
    }

    static boolean isTemporal(RelDataType t) {
        return switch (t.getSqlTypeName()) {
            case DATE, TIME, TIMESTAMP, TIMESTAMP_WITH_LOCAL_TIME_ZONE, TIMESTAMP_TZ -> true;
            default -> IntervalSyntax.isInterval(t);
        };
    }

    /** Whether a CASE is the one COALESCE became ({@code CASE WHEN a IS NOT NULL THEN a ... ELSE z END}). */
    static boolean fromCoalesce(SqlCase c) {
        for (int i = 0; i < c.getWhenOperands().size(); i++) {
            if (!(c.getWhenOperands().get(i) instanceof SqlCall when) || when.getKind() != SqlKind.IS_NOT_NULL
                    || !when.operand(0).equalsDeep(c.getThenOperands().get(i), Litmus.IGNORE)) {
                return false;
            }
        }
        return c.getValueOperand() == null;
    }

    /** Whether {@code n} is a string literal ({@code '2 days'}), which DuckDB reads as the type beside it. */
    static boolean isTextLiteral(SqlNode n) {
        return n instanceof SqlLiteral lit && SqlTypeUtil.inCharFamily(lit.getTypeName());
    }

    /** A string literal read as {@code type}: an INTERVAL as DuckDB's interval text, another type by its CAST. */
    static SqlNode read(SqlNode literal, RelDataType type) {
        SqlParserPos pos = literal.getParserPosition();
        if (IntervalSyntax.isInterval(type)) {
            return TimestampFunctions.INTERVAL_LITERAL.createCall(pos, literal);
        }
        return SqlStdOperatorTable.CAST.createCall(pos, literal,
                SqlTypeUtil.convertTypeToSpec(type).withNullable(false));
    }

    /** The error for values DuckDB does not mix (text that is no literal beside a temporal value), at the value. */
    private static SqlError refused(Construct construct, String first, RelDataType type, SqlNode at) {
        return new SqlError("Cannot mix values of type " + first + " and " + name(type) + " in " + construct.name
                + " - an explicit cast is required" + SupportCheck.at(at.getParserPosition()));
    }

    private static String name(RelDataType t) {
        return switch (t.getSqlTypeName()) {
            case DATE -> "DATE";
            case TIME -> "TIME";
            case TIMESTAMP -> "TIMESTAMP";
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE, TIMESTAMP_TZ -> "TIMESTAMP WITH TIME ZONE";
            default -> IntervalSyntax.isInterval(t) ? "INTERVAL" : t.getFullTypeString().replace(" NOT NULL", "");
        };
    }
}

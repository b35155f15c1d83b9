package io.tessera.sql;

import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexVisitorImpl;
import org.apache.calcite.sql.SqlFunction;
import org.apache.calcite.sql.SqlFunctionCategory;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlOperatorBinding;
import org.apache.calcite.sql.SqlOperatorTable;
import org.apache.calcite.sql.SqlSyntax;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.type.OperandTypes;
import org.apache.calcite.sql.type.ReturnTypes;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.type.SqlTypeUtil;
import org.apache.calcite.sql.validate.SqlNameMatcher;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The numeric functions whose result types follow DuckDB rather than Calcite: ROUND of a DECIMAL(p,s) is a
 * DECIMAL(p, digits) (scale 0 without digits, at most s), SIGN is a TINYINT. They replace Calcite's functions of the
 * same names in the operator table, as does SQRT (see {@link #SQRT}); everything else is Calcite's standard table.
 */
final class MathFunctions implements SqlOperatorTable {

    /** Functions whose constant calls Calcite must not fold: its folding differs from DuckDB (ties, LN of -1). */
    static final Set<String> UNFOLDED = Set.of("MOD", "ROUND", "SIGN", "FLOOR", "CEIL", "SQRT", "LN", "EXP", "POWER");

    static final SqlFunction ROUND = new SqlFunction("ROUND", SqlKind.OTHER_FUNCTION, MathFunctions::roundType, null,
            OperandTypes.NUMERIC_OPTIONAL_INTEGER, SqlFunctionCategory.NUMERIC);

    static final SqlFunction SIGN = new SqlFunction("SIGN", SqlKind.OTHER_FUNCTION,
            ReturnTypes.explicit(SqlTypeName.TINYINT).andThen(org.apache.calcite.sql.type.SqlTypeTransforms.TO_NULLABLE),
            null, OperandTypes.NUMERIC, SqlFunctionCategory.NUMERIC);

    /** Calcite's own SQRT is converted to POWER(x, 0.5), which cannot fail on a negative number as SQRT must. */
    static final SqlFunction SQRT = new SqlFunction("SQRT", SqlKind.OTHER_FUNCTION, ReturnTypes.DOUBLE_NULLABLE, null,
            OperandTypes.NUMERIC, SqlFunctionCategory.NUMERIC);

    /**
     * MOD and the % operator of any numbers: DOUBLE when an operand is one (Calcite would make it a DECIMAL), a
     * DECIMAL at the larger scale when an operand is one (as DuckDB types it, at most 18 digits), else the wider integer
     * type.
     */
    static final SqlFunction MOD = new SqlFunction("MOD", SqlKind.MOD, MathFunctions::modType, null,
            OperandTypes.NUMERIC_NUMERIC, SqlFunctionCategory.NUMERIC);

    static final MathFunctions INSTANCE = new MathFunctions();

    private final SqlOperatorTable std = SqlStdOperatorTable.instance();

    private MathFunctions() {
    }

    private static SqlFunction own(String name) {
        return switch (name) {
            case "ROUND" -> ROUND;
            case "SIGN" -> SIGN;
            case "SQRT" -> SQRT;
            case "MOD" -> MOD;
            // DuckDB's TRY_CAST, which the parser makes Calcite's (plan.TryCasts lowers it)
            case "TRY_CAST" -> org.apache.calcite.sql.fun.SqlLibraryOperators.TRY_CAST;
            default -> {
                SqlFunction numeric = NumericFunctions.lookup(name);
                yield numeric != null ? numeric : AggregateFunctions.lookup(name);
            }
        };
    }

    /** ROUND's (and TRUNC's) type: the argument's, but a DECIMAL keeps only the scale the digits leave (0 without digits). */
    static RelDataType roundType(SqlOperatorBinding b) {
        RelDataTypeFactory f = b.getTypeFactory();
        RelDataType arg = b.getOperandType(0);
        boolean nullable = arg.isNullable() || b.getOperandCount() > 1 && b.getOperandType(1).isNullable();
        RelDataType t = arg;
        if (arg.getSqlTypeName() == SqlTypeName.DECIMAL) {
            int scale = 0;
            if (b.getOperandCount() > 1) {
                Integer digits = b.isOperandLiteral(1, false) ? b.getOperandLiteralValue(1, Integer.class) : null;
                scale = digits == null ? arg.getScale() : Math.max(0, Math.min(digits, arg.getScale()));
            }
            t = f.createSqlType(SqlTypeName.DECIMAL, arg.getPrecision(), scale);
        }
        return f.createTypeWithNullability(t, nullable);
    }

    private static RelDataType modType(SqlOperatorBinding b) {
        RelDataTypeFactory f = b.getTypeFactory();
        RelDataType x = b.getOperandType(0);
        RelDataType y = b.getOperandType(1);
        boolean nullable = x.isNullable() || y.isNullable();
        RelDataType t;
        RelDataType real = RealCommonType.of(f, java.util.List.of(x, y));
        if (real != null) {
            t = real; // a REAL beside a REAL, an integer or a DECIMAL: REAL, as DuckDB's FLOAT % 2
        } else if (SqlTypeUtil.isApproximateNumeric(x) || SqlTypeUtil.isApproximateNumeric(y)) {
            t = f.createSqlType(SqlTypeName.DOUBLE);
        } else if (x.getSqlTypeName() == SqlTypeName.DECIMAL || y.getSqlTypeName() == SqlTypeName.DECIMAL) {
            int scale = Math.max(x.getScale(), y.getScale());
            int digits = Math.max(x.getPrecision() - x.getScale(), y.getPrecision() - y.getScale());
            t = f.createSqlType(SqlTypeName.DECIMAL, Math.min(18, digits + scale), scale);
        } else {
            // integers: the wider of the two, as DuckDB types it (Calcite's is the divisor's, which made a BIGINT
            // dividend an INTEGER before the remainder was taken: 23756992081 % 700001 overflowed)
            RelDataType wider = f.leastRestrictive(java.util.List.of(x, y));
            if (wider == null) {
                return ReturnTypes.NULLABLE_MOD.inferReturnType(b);
            }
            t = wider;
        }
        return f.createTypeWithNullability(t, nullable);
    }

    /**
     * The parsed statement with every % operator and MOD call as {@link #MOD} (the parser binds % to Calcite's), and
     * {@link NumericFunctions#rewrite}'s rewrites.
     */
    static SqlNode rewrite(SqlNode parsed) {
        parsed = NumericFunctions.rewrite(parsed);
        return OperatorSwaps.replace(parsed,
                c -> c.getKind() == SqlKind.MOD && c.getOperator() != MOD && c.operandCount() == 2, MOD);
    }

    @Override
    public void lookupOperatorOverloads(SqlIdentifier name, SqlFunctionCategory category, SqlSyntax syntax,
            List<SqlOperator> operators, SqlNameMatcher matcher) {
        SqlFunction f = name.isSimple() && syntax == SqlSyntax.FUNCTION
                ? own(name.getSimple().toUpperCase(Locale.ROOT)) : null;
        if (f != null) {
            operators.add(f);
            return;
        }
        SqlOperator text = name.isSimple() ? TextDateFunctions.lookup(name.getSimple().toUpperCase(Locale.ROOT), syntax) : null;
        if (text != null) {
            operators.add(text);
            return;
        }
        std.lookupOperatorOverloads(name, category, syntax, operators, matcher);
    }

    @Override
    public List<SqlOperator> getOperatorList() {
        List<SqlOperator> all = new ArrayList<>();
        for (SqlOperator o : std.getOperatorList()) {
            if (!(o instanceof SqlFunction && own(o.getName()) != null)) {
                all.add(o);
            }
        }
        all.add(ROUND);
        all.add(SIGN);
        all.add(SQRT);
        all.add(MOD);
        all.addAll(TextDateFunctions.all());
        all.addAll(NumericFunctions.all());
        all.addAll(AggregateFunctions.ALL);
        return all;
    }

    /** Whether an expression calls one of {@link #UNFOLDED}. */
    static boolean hasUnfolded(RexNode e) {
        boolean[] found = {false};
        e.accept(new RexVisitorImpl<Void>(true) {
            @Override
            public Void visitCall(RexCall call) {
                String name = call.getOperator().getName().toUpperCase(Locale.ROOT);
                if (UNFOLDED.contains(name) || TextDateFunctions.unfolded(name)
                        || NumericFunctions.unfolded(name)) {
                    found[0] = true;
                }
                return super.visitCall(call);
            }
        });
        return found[0];
    }
}

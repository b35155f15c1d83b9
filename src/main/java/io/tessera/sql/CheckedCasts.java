package io.tessera.sql;

import org.apache.calcite.DataContexts;
import org.apache.calcite.rel.RelHomogeneousShuttle;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexExecutorImpl;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.rex.RexVisitorImpl;
import org.apache.calcite.sql.SqlFunction;
import org.apache.calcite.sql.SqlFunctionCategory;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.OperandTypes;
import org.apache.calcite.sql.type.ReturnTypes;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql.type.SqlTypeName;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;

/**
 * Keeps Calcite from folding a CAST to an exact numeric type (TINYINT, SMALLINT, INTEGER, BIGINT, DECIMAL) of a
 * constant when the folded value would not be the CAST's exact answer: Calcite truncates {@code CAST(2.5 AS INTEGER)}
 * to 2 and {@code CAST(999.995 AS DECIMAL(5,2))} to 999.99, and keeps {@code CAST(70000 AS SMALLINT)} as 70000.
 * Such a CAST stays in the plan and runs as Tessera's own conversion, which rounds half away from zero and fails
 * with the value and the target type named when the value does not fit. Three guards: the RexBuilder does not fold
 * it, the executor used while SQL is converted does not reduce it, and before the reduction rules run it becomes a
 * call ({@link #CHECKED_CAST}) that they leave alone. (The executor is not kept for those rules: with one set,
 * Calcite's predicate reduction changes other plans.)
 */
final class CheckedCasts {
    private CheckedCasts() {
    }

    /**
     * A RexBuilder whose casts of constants fold only where the folded value is exact, and whose IS NULL of a struct
     * cast is that of the struct.
     */
    static final class Builder extends RexBuilder {
        /** The session's time zone, in which a TIMESTAMP constant cast to an instant is read. */
        private final java.time.ZoneId zone;

        Builder(org.apache.calcite.rel.type.RelDataTypeFactory types, java.time.ZoneId zone) {
            super(types);
            this.zone = zone;
        }

        /**
         * {@code x IS [NOT] NULL} of a struct cast to another struct type as of the struct itself (a cast struct is NULL
         * where its source is): Calcite's simplification cannot type the cast's constraint (ROW has no type family).
         */
        @Override
        public RexNode makeCall(SqlParserPos pos, org.apache.calcite.sql.SqlOperator op,
                List<? extends RexNode> exprs) {
            return super.makeCall(pos, op, uncastStruct(op, exprs));
        }

        @Override
        public RexNode makeCall(SqlParserPos pos, RelDataType returnType, org.apache.calcite.sql.SqlOperator op,
                List<RexNode> exprs) {
            return super.makeCall(pos, returnType, op, uncastStruct(op, exprs));
        }

        private static <T extends RexNode> List<RexNode> uncastStruct(org.apache.calcite.sql.SqlOperator op,
                List<T> exprs) {
            if ((op.getKind() == SqlKind.IS_NULL || op.getKind() == SqlKind.IS_NOT_NULL) && exprs.size() == 1
                    && exprs.get(0) instanceof RexCall cast && cast.getKind() == SqlKind.CAST
                    && cast.getType().isStruct() && cast.getOperands().get(0).getType().isStruct()) {
                return uncastStruct(op, cast.getOperands());
            }
            return java.util.Collections.unmodifiableList(exprs);
        }

        @Override
        public RexNode makeCast(SqlParserPos pos, RelDataType type, RexNode exp, boolean matchNullability, boolean safe,
                RexLiteral format) {
            if (safe) {
                // TRY_CAST: never folded by Calcite, whose conversions are not DuckDB's; NULL where it fails
                return makeAbstractCast(pos, getTypeFactory().createTypeWithNullability(type, true), exp, true, format);
            }
            if (exp instanceof RexLiteral lit && !lit.isNull() && lit.getTypeName() == SqlTypeName.TIMESTAMP
                    && type.getSqlTypeName() == SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE) {
                // folded here: a UNION of constant rows needs literals of its type (the session's clock read)
                java.time.LocalDateTime local = java.time.LocalDateTime.parse(
                        lit.getValueAs(org.apache.calcite.util.TimestampString.class).toString().replace(' ', 'T'));
                java.time.LocalDateTime utc = local.atZone(zone).withZoneSameInstant(java.time.ZoneOffset.UTC)
                        .toLocalDateTime();
                RexNode folded = makeTimestampWithLocalTimeZoneLiteral(new org.apache.calcite.util.TimestampString(
                        utc.getYear(), utc.getMonthValue(), utc.getDayOfMonth(), utc.getHour(), utc.getMinute(),
                        utc.getSecond()).withNanos(utc.getNano()), type.getPrecision());
                return folded;
            }
            if (exp instanceof RexLiteral lit && !foldsExactly(type, lit)) {
                return makeAbstractCast(pos, matchNullability ? getTypeFactory().createTypeWithNullability(type,
                        exp.getType().isNullable()) : type, exp, safe, format);
            }
            return super.makeCast(pos, type, exp, matchNullability, safe, format);
        }
    }

    /**
     * The CAST of a constant that Calcite's constant reduction would fold inexactly, as a call the reduction leaves
     * alone (it is not deterministic to Calcite); it translates to Tessera's CAST.
     */
    static final SqlFunction CHECKED_CAST = new SqlFunction("TESSERA_CHECKED_CAST", SqlKind.OTHER_FUNCTION,
            ReturnTypes.ARG0, null, OperandTypes.ANY, SqlFunctionCategory.SYSTEM) {
        @Override
        public boolean isDeterministic() {
            return false;
        }
    };

    /** A TRY_CAST, as a call Calcite's constant reduction leaves alone; plan.TryCasts lowers it. */
    static final SqlFunction TRY_CAST = new SqlFunction("TESSERA_TRY_CAST", SqlKind.OTHER_FUNCTION,
            ReturnTypes.ARG0, null, OperandTypes.ANY, SqlFunctionCategory.SYSTEM) {
        @Override
        public boolean isDeterministic() {
            return false;
        }
    };

    /**
     * Replaces each CAST of a constant that would not fold exactly with {@link #CHECKED_CAST}, and each TRY_CAST with
     * {@link #TRY_CAST}.
     */
    static RelNode keepInexactCasts(RelNode rel) {
        RexShuttle casts = new RexShuttle() {
            @Override
            public RexNode visitCall(RexCall call) {
                RexCall c = (RexCall) super.visitCall(call);
                if (c.getKind() == SqlKind.SAFE_CAST) {
                    // TRY_CAST: never folded by Calcite, whose conversions are not DuckDB's (plan.TryCasts)
                    return new RexCall(c.getType(), TRY_CAST, c.getOperands()) {
                    };
                }
                if (c.getKind() == SqlKind.CAST && RexUtil.isConstant(c) && hasInexactCast(c)) {
                    return new RexCall(c.getType(), CHECKED_CAST, c.getOperands()) {
                    };
                }
                return c;
            }
        };
        return rel.accept(new RelHomogeneousShuttle() {
            @Override
            public RelNode visit(RelNode other) {
                return super.visit(other).accept(casts);
            }
        });
    }

    /** An executor that reduces constant expressions except those holding a CAST that would not fold exactly. */
    static final class Executor extends RexExecutorImpl {
        Executor() {
            super(DataContexts.EMPTY);
        }

        @Override
        public void reduce(RexBuilder rexBuilder, List<RexNode> constExps, List<RexNode> reducedValues) {
            List<RexNode> reducible = new ArrayList<>();
            for (RexNode e : constExps) {
                if (!keep(e)) {
                    reducible.add(e);
                }
            }
            List<RexNode> reduced = new ArrayList<>();
            if (!reducible.isEmpty()) {
                super.reduce(rexBuilder, reducible, reduced);
            }
            int next = 0;
            for (RexNode e : constExps) {
                reducedValues.add(keep(e) ? e : reduced.get(next++));
            }
        }
    }

    /** Whether a constant expression stays as it is: an inexact CAST, or a numeric function Calcite folds otherwise. */
    private static boolean keep(RexNode e) {
        return hasInexactCast(e) || MathFunctions.hasUnfolded(e);
    }

    static boolean hasInexactCast(RexNode e) {
        boolean[] found = {false};
        e.accept(new RexVisitorImpl<Void>(true) {
            @Override
            public Void visitCall(RexCall call) {
                if (call.getKind() == SqlKind.SAFE_CAST) {
                    found[0] = true; // TRY_CAST: Tessera's conversions, a failure NULL
                }
                if (call.getKind() == SqlKind.CAST && zoned(call)) {
                    found[0] = true; // Tessera converts in the session's time zone, Calcite in its own
                }
                if (call.getKind() == SqlKind.CAST && NestedCasts.fromText(call.getOperands().get(0).getType(),
                        call.getType())) {
                    found[0] = true; // DuckDB's text of a list or struct, which Calcite cannot read
                }
                if (call.getKind() == SqlKind.CAST && (exact(call.getType()) || textual(call.getType())
                        || parsed(call.getType()) && call.getOperands().get(0) instanceof RexLiteral)
                        && !(call.getOperands().get(0) instanceof RexLiteral lit && foldsExactly(call.getType(), lit))) {
                    found[0] = true;
                }
                return super.visitCall(call);
            }
        });
        return found[0];
    }

    /** Whether a CAST goes to or from a TIMESTAMP WITH TIME ZONE from or to another type. */
    private static boolean zoned(RexCall cast) {
        SqlTypeName to = cast.getType().getSqlTypeName();
        SqlTypeName from = cast.getOperands().get(0).getType().getSqlTypeName();
        return to != from && (to == SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE
                || from == SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE);
    }

    private static boolean exact(RelDataType t) {
        return switch (t.getSqlTypeName()) {
            case TINYINT, SMALLINT, INTEGER, BIGINT, DECIMAL -> true;
            default -> false;
        };
    }

    private static boolean parsed(RelDataType t) {
        return switch (t.getSqlTypeName()) {
            case DOUBLE, FLOAT, REAL, BOOLEAN, TIME, TIMESTAMP, TIMESTAMP_WITH_LOCAL_TIME_ZONE, BINARY, VARBINARY, UUID -> true;
            default -> false;
        };
    }

    private static boolean textual(RelDataType t) {
        return t.getSqlTypeName() == SqlTypeName.VARCHAR || t.getSqlTypeName() == SqlTypeName.CHAR;
    }

    /** Whether a CAST of this constant to {@code type} has one exact answer that Calcite's folding gives. */
    static boolean foldsExactly(RelDataType type, RexLiteral lit) {
        if (type.getSqlTypeName() == SqlTypeName.MAP && !lit.isNull()) {
            return false; // DuckDB's text of a map, which Calcite cannot read
        }
        if (type.getSqlTypeName() == SqlTypeName.BOOLEAN && !lit.isNull()
                && SqlTypeName.NUMERIC_TYPES.contains(lit.getTypeName())) {
            return false; // Calcite folds 2 to FALSE; DuckDB's is TRUE, as any number but zero
        }
        if (parsed(type) && !lit.isNull()) {
            // Calcite parses text as Java does (1.5d, NaN) where Tessera reads numbers and booleans as DuckDB does;
            // times to the millisecond, in one form, where Tessera reads DuckDB's forms to the microsecond;
            // bytes as the text's UTF-8 where DuckDB reads \xAB escapes; UUIDs in fewer forms than DuckDB's
            return !(lit.getTypeName() == SqlTypeName.CHAR || lit.getTypeName() == SqlTypeName.VARCHAR);
        }
        if (textual(type) && !lit.isNull()) {
            // Calcite spells TRUE and doubles (1.5E0) otherwise than DuckDB's 'true' and '1.5'
            SqlTypeName from = lit.getTypeName();
            return from == SqlTypeName.CHAR || from == SqlTypeName.VARCHAR || from == SqlTypeName.DATE
                    || SqlTypeName.EXACT_TYPES.contains(from);
        }
        if (!exact(type) || lit.isNull()) {
            return true;
        }
        SqlTypeFamily from = lit.getTypeName().getFamily();
        if (from != SqlTypeFamily.NUMERIC && from != SqlTypeFamily.EXACT_NUMERIC && from != SqlTypeFamily.APPROXIMATE_NUMERIC) {
            return !(lit.getTypeName() == SqlTypeName.CHAR || lit.getTypeName() == SqlTypeName.VARCHAR);
        }
        BigDecimal v = lit.getValueAs(BigDecimal.class);
        if (v == null) {
            return false;
        }
        int scale = type.getSqlTypeName() == SqlTypeName.DECIMAL ? type.getScale() : 0;
        if (v.stripTrailingZeros().scale() > scale) {
            return false; // rounding: Calcite would truncate
        }
        return switch (type.getSqlTypeName()) {
            case TINYINT -> fits(v, -128, 127);
            case SMALLINT -> fits(v, -32768, 32767);
            case INTEGER -> fits(v, Integer.MIN_VALUE, Integer.MAX_VALUE);
            case BIGINT -> fits(v, Long.MIN_VALUE, Long.MAX_VALUE);
            default -> v.abs().compareTo(BigDecimal.TEN.pow(type.getPrecision() - scale)) < 0;
        };
    }

    private static boolean fits(BigDecimal v, long min, long max) {
        return v.compareTo(BigDecimal.valueOf(min)) >= 0 && v.compareTo(BigDecimal.valueOf(max)) <= 0;
    }

}

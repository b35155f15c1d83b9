package io.tessera.plan;

import io.tessera.sql.LikePattern;
import io.tessera.sql.SqlError;
import io.tessera.storage.DataType;
import io.tessera.storage.Timestamps;
import io.tessera.storage.TypeKind;
import org.apache.calcite.avatica.util.TimeUnitRange;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexUnknownAs;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.fun.SqlLikeOperator;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.util.DateString;
import org.apache.calcite.util.TimestampString;
import org.apache.calcite.util.Sarg;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;

/** Calcite row expressions over a node's inputs to Tessera {@link Expr}s over a pipeline's slots. */
final class RexTranslator {

    private final RexBuilder rexBuilder;
    /** The casts and parts of TIMESTAMP WITH TIME ZONE values, in the session's time zone. */
    private final ZonedCalls zoned;
    /** The TIMESTAMP functions, NOW fixed for the query. */
    private final TimestampCalls timestamps;
    /** DuckDB's INTERVAL values. */
    private final IntervalCalls intervals;
    /** DuckDB's functions of a list and a lambda, and the parameters of the lambdas being translated. */
    private final LambdaCalls lambdas = new LambdaCalls();

    /** {@code zone}: the session's time zone, in which TIMESTAMP WITH TIME ZONE values are shown and taken apart. */
    RexTranslator(RexBuilder rexBuilder, java.time.ZoneId zone) {
        this.rexBuilder = rexBuilder;
        this.zoned = new ZonedCalls(zone);
        this.timestamps = new TimestampCalls(TimestampCalls.nowMicros(), zoned);
        this.intervals = new IntervalCalls(timestamps);
    }

    Expr translate(RexNode node, List<Expr> inputs) {
        if (node instanceof RexInputRef ref) {
            return inputs.get(ref.getIndex());
        }
        if (node instanceof RexLiteral lit) {
            return literal(lit);
        }
        if (node instanceof RexCall call) {
            return call(call, inputs);
        }
        if (node instanceof org.apache.calcite.rex.RexLambdaRef parameter) {
            return lambdas.parameter(parameter);
        }
        if (node instanceof org.apache.calcite.rex.RexFieldAccess access) {
            return StructCalls.field(translate(access.getReferenceExpr(), inputs), access.getField().getIndex());
        }
        throw new SqlError("unsupported: expression " + node);
    }

    static Expr.Literal literal(RexLiteral lit) {
        if (IntervalCalls.isInterval(lit)) {
            return new Expr.Literal(lit.isNull() ? null : IntervalCalls.of(lit).encode(), DataType.INTERVAL);
        }
        DataType type = Types.of(lit.getType());
        if (lit.isNull()) {
            return new Expr.Literal(null, type);
        }
        Object v = switch (type.kind()) {
            case INTEGER, BIGINT -> integerLiteral(lit.getValueAs(BigDecimal.class), type);
            case DECIMAL -> decimalLiteral(lit.getValueAs(BigDecimal.class), type);
            case DOUBLE -> type.isReal() ? realLiteral(lit.getValueAs(Double.class)) : lit.getValueAs(Double.class);
            case DATE -> (long) lit.getValueAs(DateString.class).getDaysSinceEpoch();
            case TIMESTAMP, TIMESTAMP_TZ -> Timestamps.parse(lit.getValueAs(TimestampString.class).toString());
            case TIME -> Timestamps.parseTime(lit.getValueAs(org.apache.calcite.util.TimeString.class).toString());
            case BOOLEAN -> lit.getValueAs(Boolean.class);
            // bytes as a byte string, a UUID as its canonical text: the forms VARCHAR code computes them in
            case VARCHAR -> type.isBlob() || type.isUuid() ? bytesOrUuid(lit, type) : lit.getValueAs(String.class);
        };
        return new Expr.Literal(v, type);
    }

    /** A REAL constant as the float it is ({@code 0.1::REAL} folded by Calcite holds 0.1 itself). */
    private static double realLiteral(double v) {
        try {
            return io.tessera.storage.Floats.converted(v);
        } catch (ArithmeticException e) {
            throw new SqlError(e.getMessage());
        }
    }

    /**
     * A BLOB literal as its byte string, a UUID literal as its canonical text; text that Calcite typed as either (a
     * VALUES row of an INSERT) read as DuckDB reads it.
     */
    private static String bytesOrUuid(RexLiteral lit, DataType type) {
        if (lit.getValue() instanceof org.apache.calcite.util.NlsString text) {
            try {
                return type.isBlob() ? io.tessera.storage.ByteStrings.parse(text.getValue())
                        : io.tessera.storage.Uuids.parse(text.getValue());
            } catch (IllegalArgumentException e) {
                throw new SqlError(e.getMessage(), e);
            }
        }
        return type.isBlob()
                ? io.tessera.storage.ByteStrings.of(lit.getValueAs(org.apache.calcite.avatica.util.ByteString.class).getBytes())
                : io.tessera.storage.Uuids.of(lit.getValueAs(java.util.UUID.class));
    }

    /**
     * An integer constant of its type, checked against the type's range: Calcite folds a CAST of a constant (such as
     * {@code CAST(70000 AS SMALLINT)}) into a literal of the target type without checking that the value fits.
     */
    private static long integerLiteral(BigDecimal v, DataType type) {
        BigDecimal r = v.setScale(0, java.math.RoundingMode.HALF_UP);
        if (r.compareTo(BigDecimal.valueOf(type.minValue())) < 0 || r.compareTo(BigDecimal.valueOf(type.maxValue())) > 0) {
            throw new SqlError(io.tessera.storage.Values.outOfRangeMessage(v.toPlainString(), type.toString()));
        }
        return r.longValueExact();
    }

    /** A DECIMAL(p,s) constant as its unscaled value, checked to have at most p digits (|unscaled| < 10^p). */
    private static long decimalLiteral(BigDecimal v, DataType type) {
        BigDecimal scaled = v.setScale(type.scale(), java.math.RoundingMode.HALF_UP);
        if (scaled.unscaledValue().abs().compareTo(java.math.BigInteger.TEN.pow(type.precision())) >= 0) {
            throw new SqlError(io.tessera.storage.Values.outOfRangeMessage(v.toPlainString(), type.toString()));
        }
        return scaled.unscaledValue().longValueExact();
    }

    /** Points at least this many become one set lookup (IN_LIST) rather than a chain of ORs. */
    static final int IN_LIST_MIN_POINTS = 4;

    /** The families of DuckDB's text functions lowered to {@link TextFunction} calls, each by its own class. */
    private static final List<TextCalls.Lowering> TEXT_CALLS = List.of(FormatCalls::lower,
            StringDistanceCalls::lower, PathCalls::lower, JsonCalls::lower, UnicodeCalls::lower, UuidCalls::lower);

    /**
     * A SEARCH over points ({@code x IN (...)}, or its complement {@code x NOT IN (...)}) with SQL's NULL rule, as
     * one IN_LIST; null when the search is another (ranges, NULL treated as TRUE or FALSE, few points), which is
     * then expanded into comparisons.
     */
    private Expr inList(RexCall call, List<Expr> inputs) {
        RexLiteral lit = (RexLiteral) call.getOperands().get(1);
        Sarg<?> sarg = lit.getValueAs(Sarg.class);
        if (sarg == null || sarg.nullAs != RexUnknownAs.UNKNOWN) {
            return null;
        }
        boolean negated = !sarg.isPoints();
        if (negated && !sarg.isComplementedPoints()) {
            return null;
        }
        com.google.common.collect.RangeSet<?> points = negated ? sarg.rangeSet.complement() : sarg.rangeSet;
        if (points.asRanges().size() < IN_LIST_MIN_POINTS) {
            return null;
        }
        Expr arg = translate(call.getOperands().get(0), inputs);
        DataType t = Types.of(lit.getType());
        if (t.isInterval() || arg.type().isInterval()) {
            return null; // compared by length (IntervalCalls), not by their codes
        }
        if (t.kind() != arg.type().kind() || (t.kind() == TypeKind.DECIMAL && t.scale() != arg.type().scale())
                || t.kind() == TypeKind.BOOLEAN) {
            return null;
        }
        List<Object> values = new ArrayList<>();
        for (com.google.common.collect.Range<?> r : points.asRanges()) {
            Object p = r.lowerEndpoint();
            values.add(switch (t.kind()) {
                case INTEGER, BIGINT -> ((BigDecimal) p).longValueExact();
                case DECIMAL -> ((BigDecimal) p).setScale(t.scale(), java.math.RoundingMode.UNNECESSARY)
                        .unscaledValue().longValueExact();
                case DOUBLE -> ((Number) p).doubleValue() + 0.0d; // -0.0 as 0.0: SQL compares them equal
                case DATE -> (long) ((DateString) p).getDaysSinceEpoch();
                case TIMESTAMP, TIMESTAMP_TZ -> Timestamps.parse(p.toString());
                case TIME -> Timestamps.parseTime(p.toString());
                case VARCHAR -> p instanceof org.apache.calcite.util.NlsString s ? s.getValue() : p.toString();
                case BOOLEAN -> throw new IllegalStateException();
            });
        }
        Expr in = new Expr.Call(Op.IN_LIST, List.of(arg), DataType.BOOLEAN, arg.nullable(), List.copyOf(values));
        return negated ? new Expr.Call(Op.NOT, List.of(in), DataType.BOOLEAN, arg.nullable()) : in;
    }

    /**
     * A chain of at least {@link #IN_LIST_MIN_POINTS} equalities of one expression with constants as one IN_LIST, the
     * expression computed once; null when there is no such chain or a constant's type is not the expression's.
     */
    private Expr inList(EqualityChain chain, List<Expr> inputs) {
        if (chain == null || chain.constants().size() < IN_LIST_MIN_POINTS) {
            return null;
        }
        Expr arg = translate(chain.subject(), inputs);
        DataType t = arg.type();
        if (t.kind() == TypeKind.BOOLEAN || t.isInterval()) {
            return null;
        }
        java.util.Set<Object> values = new java.util.LinkedHashSet<>();
        for (RexLiteral lit : chain.constants()) {
            Expr.Literal c = literal(lit);
            if (c.type().kind() != t.kind() || (t.kind() == TypeKind.DECIMAL && c.type().scale() != t.scale())) {
                return null;
            }
            values.add(c.value() instanceof Double d ? d + 0.0d : c.value()); // -0.0 as 0.0: SQL compares them equal
        }
        return new Expr.Call(Op.IN_LIST, List.of(arg), DataType.BOOLEAN, arg.nullable(), List.copyOf(values));
    }

    /**
     * A prefix of a string compared for equality with constants ({@link PrefixComparisons}) as comparisons of the
     * string; null when {@code call} is no such comparison.
     */
    private RexNode prefixComparison(RexCall call) {
        switch (call.getKind()) {
            case EQUALS -> {
                RexNode a = call.getOperands().get(0);
                RexNode b = call.getOperands().get(1);
                return b instanceof RexLiteral lit ? PrefixComparisons.equalAny(rexBuilder, a, List.of(lit))
                        : a instanceof RexLiteral lit ? PrefixComparisons.equalAny(rexBuilder, b, List.of(lit)) : null;
            }
            case OR -> {
                EqualityChain chain = EqualityChain.of(call);
                return chain == null ? null : PrefixComparisons.equalAny(rexBuilder, chain.subject(), chain.constants());
            }
            case SEARCH -> {
                Sarg<?> sarg = ((RexLiteral) call.getOperands().get(1)).getValueAs(Sarg.class);
                if (sarg == null || sarg.nullAs != RexUnknownAs.UNKNOWN
                        || !(sarg.isPoints() || sarg.isComplementedPoints())) {
                    return null;
                }
                boolean negated = !sarg.isPoints();
                List<RexLiteral> points = new ArrayList<>();
                for (com.google.common.collect.Range<?> r : (negated ? sarg.rangeSet.complement() : sarg.rangeSet)
                        .asRanges()) {
                    if (!(r.lowerEndpoint() instanceof org.apache.calcite.util.NlsString s)) {
                        return null;
                    }
                    points.add(rexBuilder.makeLiteral(s.getValue()));
                }
                RexNode any = PrefixComparisons.equalAny(rexBuilder, call.getOperands().get(0), points);
                return any == null || !negated ? any
                        : rexBuilder.makeCall(org.apache.calcite.sql.fun.SqlStdOperatorTable.NOT, any);
            }
            default -> {
                return null;
            }
        }
    }

    private Expr call(RexCall call, List<Expr> inputs) {
        if (call.getOperator() == io.tessera.sql.GroupsFrames.OFFSET) {
            // a GROUPS frame's offset, computed below its window: marked for the window's planning to read
            Expr n = translate(call.getOperands().get(0), inputs);
            return new Expr.Call(Op.CAST, List.of(n), n.type(), n.nullable(), WindowPlanning.GROUPS_OFFSET);
        }
        SqlKind kind = call.getKind();
        DataType type = kind == SqlKind.SEARCH ? DataType.BOOLEAN : Types.of(call.getType());
        boolean nullable = call.getType().isNullable();
        RexNode prefix = prefixComparison(call);
        if (prefix != null) {
            return translate(prefix, inputs);
        }
        if (kind == SqlKind.SEARCH) {
            Expr in = inList(call, inputs);
            return in != null ? in : translate(RexUtil.expandSearch(rexBuilder, null, call), inputs);
        }
        if (kind == SqlKind.OR) {
            Expr in = inList(EqualityChain.of(call), inputs);
            if (in != null) {
                return in;
            }
        }
        Expr lambda = lambdas.lower(call, o -> translate(o, inputs));
        if (lambda != null) {
            return lambda;
        }
        Expr interval = intervals.lower(call, o -> translate(o, inputs));
        if (interval != null) {
            return interval;
        }
        Expr parsed = ListCalls.fromText(call, o -> translate(o, inputs));
        if (parsed != null) {
            return zoned.inNested(parsed);
        }
        Expr map = MapCalls.lower(call, o -> translate(o, inputs));
        if (map != null) {
            return zoned.inNested(map);
        }
        Expr struct = StructCalls.lower(call, o -> translate(o, inputs));
        if (struct != null) {
            return zoned.inNested(struct);
        }
        Expr picked = ListSelectCalls.lower(call, o -> translate(o, inputs));
        if (picked != null) {
            return zoned.inNested(picked);
        }
        Expr splitSort = SplitSortCalls.lower(call, o -> translate(o, inputs));
        if (splitSort != null) {
            return splitSort;
        }
        Expr character = StringItemCalls.lower(call, o -> translate(o, inputs));
        if (character != null) {
            return character;
        }
        Expr slice = SliceCalls.lower(call, o -> translate(o, inputs));
        if (slice != null) {
            return zoned.inNested(slice);
        }
        Expr list = ListCalls.lower(call, o -> translate(o, inputs));
        if (list != null) {
            return zoned.inNested(list);
        }
        Expr reduced = ListAggregateCalls.lower(call, o -> translate(o, inputs));
        if (reduced != null) {
            return reduced;
        }
        for (TextCalls.Lowering family : TEXT_CALLS) {
            Expr text = family.lower(call, o -> translate(o, inputs));
            if (text != null) {
                return text;
            }
        }
        Expr made = DateConstructorCalls.lower(call, o -> translate(o, inputs), timestamps);
        if (made != null) {
            return made;
        }
        Expr bucket = TimeBucketCalls.lower(call, o -> translate(o, inputs), timestamps);
        if (bucket != null) {
            return bucket;
        }
        Expr temporal = timestamps.lower(call, o -> translate(o, inputs));
        if (temporal != null) {
            return temporal;
        }
        Expr text = TextDateCalls.lower(call, o -> translate(o, inputs));
        if (text != null) {
            return text;
        }
        if (kind == SqlKind.PLUS && isInterval(call.getOperands().get(0)) || ((kind == SqlKind.PLUS || kind == SqlKind.MINUS)
                && call.getOperands().size() == 2 && isInterval(call.getOperands().get(1)))) {
            return dateArithmetic(call, inputs, kind == SqlKind.MINUS);
        }
        if (kind == SqlKind.LIKE) {
            return like(call, inputs);
        }
        if (kind == SqlKind.EXTRACT) {
            TimeUnitRange unit = ((RexLiteral) call.getOperands().get(0)).getValueAs(TimeUnitRange.class);
            Expr arg = translate(call.getOperands().get(1), inputs);
            Expr ofTimestamp = timestamps.extract(unit.name(), arg, nullable);
            if (ofTimestamp != null) {
                return ofTimestamp;
            }
            if (arg.type().kind() != TypeKind.DATE) {
                throw new SqlError("unsupported: EXTRACT from " + arg.type());
            }
            return TextDateCalls.extract(TextDateCalls.extractUnit(unit.name()), arg, nullable);
        }
        Expr numeric = NumericCalls.lower(call, rexBuilder, o -> translate(o, inputs));
        if (numeric != null) {
            return numeric;
        }
        if (kind == SqlKind.FLOOR || kind == SqlKind.CEIL || MATH.contains(call.getOperator().getName())) {
            return math(call, inputs, type, nullable);
        }
        List<Expr> args = new ArrayList<>();
        for (RexNode o : call.getOperands()) {
            args.add(translate(o, inputs));
        }
        Op op = switch (kind) {
            case PLUS -> Op.ADD;
            case MINUS -> isDate(args.get(0)) && isDate(args.get(1)) ? Op.DATE_DIFF_DAYS : Op.SUB;
            case TIMES -> Op.MUL;
            case DIVIDE -> Op.DIV;
            case MOD -> Op.MOD;
            case MINUS_PREFIX -> Op.NEG;
            case PLUS_PREFIX -> null;
            case EQUALS, NOT_EQUALS, LESS_THAN, LESS_THAN_OR_EQUAL, GREATER_THAN, GREATER_THAN_OR_EQUAL,
                 IS_DISTINCT_FROM, IS_NOT_DISTINCT_FROM -> comparison(kind);
            case AND -> Op.AND;
            case OR -> Op.OR;
            case NOT -> Op.NOT;
            case IS_NULL -> Op.IS_NULL;
            case IS_NOT_NULL -> Op.IS_NOT_NULL;
            case IS_TRUE -> Op.IS_TRUE;
            case IS_NOT_TRUE -> Op.IS_NOT_TRUE;
            case IS_FALSE -> Op.IS_FALSE;
            case IS_NOT_FALSE -> Op.IS_NOT_FALSE;
            case CASE -> Op.CASE;
            case CAST, REINTERPRET -> Op.CAST;
            case COALESCE -> Op.COALESCE;
            default -> {
                String name = call.getOperator().getName().toUpperCase(java.util.Locale.ROOT);
                if (name.equals("TESSERA_CHECKED_CAST")) {
                    yield Op.CAST; // a CAST of a constant kept from Calcite's inexact folding
                }
                if (name.equals("ABS")) {
                    yield Op.ABS;
                }
                if (name.equals("MOD")) {
                    yield Op.MOD;
                }
                if (name.equals("LOWER") || name.equals("UPPER")) {
                    yield name.equals("LOWER") ? Op.LOWER : Op.UPPER;
                }
                if (name.equals("||")) {
                    if (type.isList()) {
                        // lists joined as the result's type: [1] || [2.5] joins [1.0] and [2.5], [{'a': 1}] ||
                        // [{'b': 2}] structs of both names
                        args.replaceAll(a -> ListCalls.as(a, type));
                    } else if (!type.isBlob()) { // BLOB || BLOB joins the bytes
                        args.replaceAll(TextDateCalls::asText); // 'a' || 1 is 'a1', as in DuckDB
                    }
                    yield Op.CONCAT;
                }
                throw new SqlError("unsupported: " + call.getOperator().getName() + " in " + call);
            }
        };
        if (op == null) {
            return args.get(0);
        }
        if (op == Op.CAST && args.get(0).type().equals(type)) {
            return args.get(0); // a cast that changes only nullability changes no value
        }
        if (op == Op.CAST && specialNumber(args.get(0), type) instanceof Expr special) {
            return special;
        }
        if (op == Op.CAST) {
            Expr zonedCast = zoned.cast(args.get(0), type, nullable);
            if (zonedCast != null) {
                return zonedCast;
            }
        }
        if (args.size() == 2 && ZonedCalls.isZoned(args.get(0)) != ZonedCalls.isZoned(args.get(1))) {
            args = zoned.compared(args); // Calcite compares a TIMESTAMP WITH TIME ZONE with a TIMESTAMP uncast
        }
        if ((op == Op.AND || op == Op.OR) && args.size() > 2) {
            Expr acc = args.get(0);
            for (int i = 1; i < args.size(); i++) {
                acc = new Expr.Call(op, List.of(acc, args.get(i)), DataType.BOOLEAN, acc.nullable() || args.get(i).nullable());
            }
            return acc;
        }
        return new Expr.Call(op, RealOperands.of(op, args, type), type, nullable);
    }

    /**
     * {@code 'nan'::DOUBLE}, {@code '-inf'::REAL} and the other words of DuckDB's special values as the constant they
     * are (Calcite folds a CAST of a number's text, not of these), so that such a comparison is one of a column with
     * a number, which every backend has code for; null for any other expression.
     */
    private static Expr specialNumber(Expr operand, DataType type) {
        if (type.kind() != io.tessera.storage.TypeKind.DOUBLE || !(operand instanceof Expr.Literal l)
                || l.type().kind() != io.tessera.storage.TypeKind.VARCHAR || l.value() == null) {
            return null;
        }
        Double special = io.tessera.storage.Values.specialDouble(l.value().toString().trim());
        return special == null ? null : new Expr.Literal(special, type);
    }

    private static final java.util.Set<String> MATH = java.util.Set.of("ROUND", "SIGN", "SQRT", "LN", "EXP", "POWER",
            "TRUNC", "ROUND_EVEN");

    /** The numeric functions: ROUND's digits must be a constant (they decide a DECIMAL result's scale). */
    private Expr math(RexCall call, List<Expr> inputs, DataType type, boolean nullable) {
        String name = call.getKind() == SqlKind.FLOOR ? "FLOOR" : call.getKind() == SqlKind.CEIL ? "CEIL"
                : call.getOperator().getName();
        List<RexNode> operands = call.getOperands();
        Object detail = null;
        if ((name.equals("FLOOR") || name.equals("CEIL")) && operands.size() != 1) {
            throw new SqlError("unsupported: " + name + " with a time unit");
        }
        boolean digitsTaken = name.equals("ROUND") || name.equals("TRUNC") || name.equals("ROUND_EVEN");
        if (digitsTaken && operands.size() == 2) {
            if (!(operands.get(1) instanceof RexLiteral lit) || lit.isNull()) {
                throw new SqlError("unsupported: " + name + " with digits that are not a constant integer");
            }
            // beyond 400 digits either way every result is as at 400 (a DOUBLE's 10^400 is infinite); clamped so
            // that the scales computed from the digits cannot overflow an int
            BigDecimal digits = lit.getValueAs(BigDecimal.class).setScale(0, java.math.RoundingMode.DOWN);
            detail = digits.max(BigDecimal.valueOf(-400)).min(BigDecimal.valueOf(400)).intValueExact();
            operands = operands.subList(0, 1);
        } else if (digitsTaken) {
            detail = 0;
        }
        List<Expr> args = new ArrayList<>();
        for (RexNode o : operands) {
            Expr a = translate(o, inputs);
            if (!numeric(a.type())) {
                throw new SqlError("unsupported: " + name + " of " + a.type());
            }
            args.add(a);
        }
        return new Expr.Call(Op.valueOf(name), args, type, nullable, detail);
    }

    private static boolean numeric(DataType t) {
        return switch (t.kind()) {
            case INTEGER, BIGINT, DECIMAL, DOUBLE -> true;
            default -> false;
        };
    }

    /** The IR comparison of a comparison's kind (=, <>, <, <=, >, >=, IS [NOT] DISTINCT FROM). */
    static Op comparison(SqlKind kind) {
        return switch (kind) {
            case EQUALS -> Op.EQ;
            case NOT_EQUALS -> Op.NE;
            case LESS_THAN -> Op.LT;
            case LESS_THAN_OR_EQUAL -> Op.LE;
            case GREATER_THAN -> Op.GT;
            case GREATER_THAN_OR_EQUAL -> Op.GE;
            case IS_DISTINCT_FROM -> Op.IS_DISTINCT;
            case IS_NOT_DISTINCT_FROM -> Op.IS_NOT_DISTINCT;
            default -> throw new IllegalArgumentException("not a comparison: " + kind);
        };
    }

    private static boolean isDate(Expr e) {
        return e.type().kind() == TypeKind.DATE;
    }

    /**
     * {@code e} as a value of {@code type} where a set operation's inputs differ in type: a TIMESTAMP made an instant
     * on the session's clock, as its CAST makes it; a list or struct as its CAST converts it (an empty {@code []} a
     * list of the other inputs' type); a list or struct with parts of the NULL type with each such part NULL; other types by a
     * plain CAST.
     */
    Expr converted(Expr e, RelDataType from, DataType type) {
        if (e.type().equals(type)) {
            return e;
        }
        if (type.isNested() && from.getSqlTypeName() == SqlTypeName.NULL) {
            return new Expr.Literal(null, type); // VALUES' NULL beside lists or structs: a column of the NULL type
        }
        if (type.isNested() && ListCalls.holdsNullType(from)) {
            return zoned.inNested(ListCalls.asFrom(e, from, type)); // {'a': NULL} beside {'a': INTERVAL 1 DAY}
        }
        if (e.type().isList() && type.isList() || e.type().isStruct() && type.isStruct()) {
            // a struct as a struct's CAST converts it ({'a': INTERVAL 1 DAY} beside {'a': '2 days'}: STRUCT(a VARCHAR))
            return zoned.inNested(ListCalls.as(e, type));
        }
        Expr zonedCast = zoned.cast(e, type, e.nullable());
        return zonedCast != null ? zonedCast : new Expr.Call(Op.CAST, List.of(e), type, e.nullable());
    }

    private static boolean isInterval(RexNode n) {
        SqlTypeFamily f = n.getType().getSqlTypeName().getFamily();
        return f == SqlTypeFamily.INTERVAL_DAY_TIME || f == SqlTypeFamily.INTERVAL_YEAR_MONTH;
    }

    /** date +/- interval: interval literals become day or month counts (Calcite keeps them in ms or months). */
    private Expr dateArithmetic(RexCall call, List<Expr> inputs, boolean minus) {
        RexNode a = call.getOperands().get(0);
        RexNode b = call.getOperands().get(1);
        if (isInterval(a)) {
            RexNode t = a;
            a = b;
            b = t;
        }
        Expr date = translate(a, inputs);
        if (date.type().kind() == TypeKind.TIME && b instanceof RexLiteral lit) {
            return timePlus(date, lit, minus);
        }
        if (!date.type().kind().isTemporal()) {
            throw new SqlError("unsupported: interval arithmetic on " + date.type());
        }
        if (!(b instanceof RexLiteral lit)) {
            throw new SqlError("unsupported: a non-constant interval in " + call);
        }
        BigDecimal v = lit.getValueAs(BigDecimal.class);
        boolean months = lit.getTypeName().getFamily() == SqlTypeFamily.INTERVAL_YEAR_MONTH;
        if (date.type().kind() == TypeKind.TIMESTAMP) {
            return addInterval(date, lit, minus);
        }
        if (ZonedCalls.isZoned(date)) { // days and months on the session's calendar, as DuckDB adds them
            return zoned.instant(addInterval(zoned.local(date), lit, minus));
        }
        long amount;
        if (months) {
            amount = v.longValueExact();
        } else {
            // an interval of hours, minutes or seconds may not be whole days (a DATE has no time of day)
            BigDecimal[] days = v.divideAndRemainder(BigDecimal.valueOf(86_400_000L));
            if (days[1].signum() != 0) {
                throw new SqlError("unsupported: a date plus an interval that is not a whole number of days");
            }
            amount = days[0].longValueExact();
        }
        if (minus) {
            amount = -amount;
        }
        Expr n = new Expr.Literal(amount, DataType.BIGINT);
        return new Expr.Call(months ? Op.DATE_ADD_MONTHS : Op.DATE_ADD_DAYS, List.of(date, n), DataType.DATE,
                date.nullable());
    }

    /**
     * A TIME plus (or minus) an interval literal, around midnight: the time on 1970-01-01 moved by the interval's
     * microseconds, its time of day taken (23:30 + 2 hours is 01:30); months count for nothing and whole days come
     * back to the same time, as in DuckDB.
     */
    private static Expr timePlus(Expr time, RexLiteral lit, boolean minus) {
        boolean months = lit.getTypeName().getFamily() == SqlTypeFamily.INTERVAL_YEAR_MONTH;
        long micros = months ? 0 : lit.getValueAs(BigDecimal.class).multiply(BigDecimal.valueOf(1000)).longValueExact();
        Expr moved = new Expr.Call(Op.TIMESTAMP_ADD_MICROS,
                List.of(time, new Expr.Literal(minus ? -micros : micros, DataType.BIGINT)), DataType.TIMESTAMP,
                time.nullable());
        return new Expr.Call(Op.CAST, List.of(moved), DataType.TIME, time.nullable());
    }

    /**
     * A TIMESTAMP plus (or minus) an interval literal: months as months, a day-time interval (Calcite's
     * milliseconds) as microseconds.
     */
    static Expr addInterval(Expr ts, RexNode interval, boolean minus) {
        if (!(interval instanceof RexLiteral lit) || !isInterval(lit)) {
            throw new SqlError("unsupported: a TIMESTAMP plus something other than a constant interval");
        }
        BigDecimal v = lit.getValueAs(BigDecimal.class);
        boolean months = lit.getTypeName().getFamily() == SqlTypeFamily.INTERVAL_YEAR_MONTH;
        long amount = months ? v.longValueExact() : v.multiply(BigDecimal.valueOf(1000)).longValueExact();
        return new Expr.Call(months ? Op.TIMESTAMP_ADD_MONTHS : Op.TIMESTAMP_ADD_MICROS,
                List.of(ts, new Expr.Literal(minus ? -amount : amount, DataType.BIGINT)), DataType.TIMESTAMP,
                ts.nullable());
    }

    private Expr like(RexCall call, List<Expr> inputs) {
        boolean negated = call.getOperator() instanceof SqlLikeOperator lo && lo.isNegated();
        Expr value = translate(call.getOperands().get(0), inputs);
        if (!(call.getOperands().get(1) instanceof RexLiteral p) || p.isNull()) {
            return TextDateCalls.likeValue(call, value, translate(call.getOperands().get(1), inputs), negated);
        }
        String pattern = p.getValueAs(String.class);
        Character escape = null;
        if (call.getOperands().size() > 2) {
            if (!(call.getOperands().get(2) instanceof RexLiteral el)) {
                throw new SqlError("unsupported: a LIKE escape that is not a constant");
            }
            String e = el.getValueAs(String.class);
            if (e == null) {
                return new Expr.Literal(null, DataType.BOOLEAN);
            }
            if (e.length() > 1) {
                throw new SqlError("invalid LIKE escape '" + e + "': it must be empty or one character");
            }
            escape = e.isEmpty() ? null : e.charAt(0); // DuckDB's empty escape: none
        }
        // ILIKE: case-insensitive by Unicode case folding (an inline flag of the bound pattern)
        boolean ilike = call.getOperator() instanceof SqlLikeOperator lo && !lo.isCaseSensitive();
        String regex = (ilike ? "(?iu)" : "") + LikePattern.toRegex(pattern, escape);
        Expr like = new Expr.Call(Op.LIKE, List.of(value), DataType.BOOLEAN, value.nullable(), regex);
        return negated ? new Expr.Call(Op.NOT, List.of(like), DataType.BOOLEAN, like.nullable()) : like;
    }
}

package io.tessera.backend.cuda.gen;

import io.tessera.plan.Expr;
import io.tessera.plan.Op;
import io.tessera.plan.Slot;
import io.tessera.storage.DataType;
import io.tessera.storage.Dictionary;
import io.tessera.storage.TypeKind;

import java.util.List;
import java.util.Locale;
import java.util.function.Function;
import java.util.function.IntFunction;

/**
 * Which expressions have CUDA code ({@link CudaExprGen}), checked over the expression tree: values that can be NULL
 * follow {@link DeviceNulls}; narrow integers are not computed (their range is checked on the JVM), nor REAL values
 * (their rounding to float is the JVM's); arithmetic is on integers, decimals (not
 * divided) and doubles (no MOD); a string is a dictionary code compared with a constant or with a code of the same
 * dictionary, in an IN list of at most {@link CudaExprGen#MAX_IN_LIST} constants, or matched by a LIKE of a prefix
 * (a run of codes); a condition over one dictionary column with other LIKEs, SUBSTRING or LENGTH is a mask of codes
 * computed on the host ({@link CodeMasks}), and a string function of one (SUBSTRING, LEFT, UPPER, ...) a map of its
 * codes to those of a dictionary of the results ({@link MappedCodes}); CASE gives no string; a CAST cannot leave its target's
 * range. The walk follows the generator's order, so the first reason is the one generating would meet.
 */
final class CudaExprSupport {

    /** What the generator knows of a value: its register type and, for a string code, its dictionary's key. */
    private record Value(CType type, String dict) {
        static final Value BOOL = new Value(CType.BOOL, null);

        static Value of(CType type) {
            return new Value(type, null);
        }
    }

    private final IntFunction<JoinLayout> tables;
    private final Function<String, Dictionary> dictionaries;
    /** Whether a join's payload may be missing (a left join probed before): {@link DeviceNulls}. */
    private final java.util.function.IntPredicate padded;
    /** The first reason met by the walk in progress. */
    private String reason;

    CudaExprSupport(IntFunction<JoinLayout> tables, Function<String, Dictionary> dictionaries,
                    java.util.function.IntPredicate padded) {
        this.tables = tables;
        this.dictionaries = dictionaries;
        this.padded = padded;
    }

    /** Why e has no CUDA code as a value, or null when it has. */
    String value(Expr e) {
        reason = null;
        gen(e);
        return reason;
    }

    /** Why e has no CUDA code as a condition (a C bool), or null when it has. */
    String condition(Expr e) {
        reason = null;
        cond(e);
        return reason;
    }

    /** The register type of e's code; e must have code. */
    CType type(Expr e) {
        reason = null;
        Value v = gen(e);
        if (v == null) {
            throw new IllegalArgumentException(reason);
        }
        return v.type();
    }

    private Value fail(String why) {
        if (reason == null) {
            reason = why;
        }
        return null;
    }

    private static String lambdaReason() {
        return "a lambda over a list (list_transform, list_filter, list_reduce, a list comprehension): lambdas run on"
                + " the JVM";
    }

    private Value gen(Expr e) {
        if (e.type().isBlob() || e.type().isUuid()) {
            return fail("a " + e.type() + " value (" + e + "): BLOB and UUID have no GPU code");
        }
        if (e instanceof Expr.Call c && c.op() == Op.LIST_LAMBDA) {
            return fail(lambdaReason());
        }
        if (touchesList(e)) {
            return fail(touches(e, DataType::isMap) ? "a MAP value (" + e + "): maps run on the JVM"
                    : touches(e, DataType::isList) ? "a LIST value (" + e + "): lists run on the JVM"
                    : "a STRUCT value (" + e + "): structs run on the JVM");
        }
        if (CodeMasks.column(e) instanceof Expr.Ref column) {
            // computed per code on the host: the column must be a dictionary code
            Value code = gen(column);
            if (code == null) {
                return null;
            }
            if (code.dict() == null) {
                return fail("a condition over a computed string (" + e + ")");
            }
            return dictionary(code.dict()) == null ? null : Value.BOOL;
        }
        if (MappedCodes.column(e) instanceof Expr.Ref column) {
            // computed per code on the host: the column must be a code of the dictionary its slot names
            Value code = gen(column);
            if (code == null) {
                return null;
            }
            String key = MappedCodes.dictionaryKey(e);
            if (code.dict() == null || !code.dict().equals(column.slot().dictionaryKey()) || key == null) {
                return fail("a string function over a computed string (" + e + ")");
            }
            return dictionary(code.dict()) == null ? null : new Value(CType.INT, key);
        }
        return switch (e) {
            case Expr.Ref r -> slot(r.slot());
            case Expr.Literal l -> literal(l);
            case Expr.Call c -> {
                if (c.type().isNarrowInteger() && c.op().canLeaveNarrowRange()) {
                    yield fail("arithmetic giving " + c.type() + " (its range is checked on the JVM)");
                }
                if (c.type().isReal()) {
                    yield fail("a computed FLOAT value (" + c + "): its rounding to float runs on the JVM");
                }
                Value x = call(c);
                yield x == null ? null : stored(x, c.type());
            }
        };
    }

    /** Whether e or a part of it is a LIST or STRUCT value. */
    static boolean touchesList(Expr e) {
        return touches(e, DataType::isNested);
    }

    private static boolean touches(Expr e, java.util.function.Predicate<DataType> type) {
        return type.test(e.type()) || e instanceof Expr.Call c && c.args().stream().anyMatch(a -> touches(a, type));
    }

    private Value cond(Expr e) {
        Value v = gen(e);
        if (v != null && v.type() != CType.BOOL) {
            return fail("a condition of type " + e.type());
        }
        return v;
    }

    private Value slot(Slot s) {
        if (!s.isSource() && tables.apply(s.joinId()) instanceof JoinLayout t && s.index() < t.payloadTypes().size()) {
            return new Value(t.payloadTypes().get(s.index()), t.payloadDicts().get(s.index()));
        }
        return new Value(CType.stored(s.type()), s.dictionaryKey());
    }

    /** A call's value as its SQL type keeps it in a register (as {@link CudaExprGen} converts it). */
    private static Value stored(Value x, DataType t) {
        if (t.kind() == TypeKind.VARCHAR) {
            return x;
        }
        CType want = CType.stored(t);
        if (x.type() == want) {
            return x;
        }
        if (want == CType.LONG && x.type() == CType.INT || want == CType.INT && x.type() == CType.LONG
                || want == CType.DOUBLE && x.type() != CType.BOOL) {
            return Value.of(want);
        }
        return x;
    }

    private Value literal(Expr.Literal l) {
        if (l.type().isInterval()) {
            return fail("an INTERVAL value (the CUDA generator has no INTERVAL values)");
        }
        if (l.value() == null) {
            return l.type().kind() == TypeKind.VARCHAR ? fail("a string value outside a comparison with a column")
                    : Value.of(CType.stored(l.type()));
        }
        return switch (l.type().kind()) {
            case INTEGER, DATE -> {
                long x = ((Number) l.value()).longValue();
                yield Value.of(x >= Integer.MIN_VALUE && x <= Integer.MAX_VALUE ? CType.INT : CType.LONG);
            }
            case BIGINT, DECIMAL, TIMESTAMP, TIMESTAMP_TZ, TIME -> Value.of(CType.LONG);
            case DOUBLE -> Value.of(CType.DOUBLE);
            case BOOLEAN -> Value.BOOL;
            case VARCHAR -> fail("a string value outside a comparison with a column");
        };
    }

    private Value call(Expr.Call c) {
        List<Expr> args = c.args();
        return switch (c.op()) {
            case ADD, SUB, MUL, DIV, MOD -> arithmetic(c);
            case COALESCE -> coalesce(c);
            case GREATEST, LEAST -> c.type().isInterval()
                    ? fail(c.op().name().toLowerCase(Locale.ROOT) + "(...) (the CUDA generator has no INTERVAL values)")
                    : caseWhen(io.tessera.backend.lower.Extremes.asCase(c));
            case NEG, ABS, CAST -> {
                Value a = gen(args.get(0));
                yield a == null ? null : convert(a, args.get(0).type(), c.type());
            }
            case EQ, NE, LT, LE, GT, GE, IS_DISTINCT, IS_NOT_DISTINCT -> compare(args.get(0), args.get(1));
            case AND, OR, DATE_ADD_DAYS -> gen(args.get(0)) == null || gen(args.get(1)) == null ? null
                    : c.op() == Op.DATE_ADD_DAYS ? Value.of(CType.INT) : Value.BOOL;
            case NOT, IS_NOT_TRUE, IS_FALSE, IS_TRUE, IS_NOT_FALSE -> cond(args.get(0)) == null ? null : Value.BOOL;
            // the operand's code is needed only where it can be NULL
            case IS_NULL, IS_NOT_NULL -> DeviceNulls.mayBeNull(args.get(0), padded) && gen(args.get(0)) == null ? null
                    : Value.BOOL;
            case CASE -> caseWhen(c);
            case LIKE -> like(c);
            case IN_LIST -> inList(c);
            case DATE_DIFF_DAYS -> gen(args.get(0)) == null || gen(args.get(1)) == null ? null
                    : convert(Value.of(CType.INT), DataType.INTEGER, c.type());
            case ROUND, ROUND_EVEN, FLOOR, CEIL, SIGN, TRUNC, SQRT, LN, EXP, POWER ->
                    fail("the numeric function " + c.op() + " (the CUDA generator does not print it yet)");
            case NUMERIC -> fail("the numeric function " + c.detail() + " (the CUDA generator does not print it yet)");
            case FUNCTION -> fail(String.valueOf(c.detail()).toLowerCase(Locale.ROOT)
                    + "(...) (the CUDA generator has no code for this string function)");
            case LIST -> c.detail() == io.tessera.plan.ListFunction.SLICE
                    ? fail("a slice (array_slice): slices of lists and strings run on the JVM")
                    : fail("a LIST value (" + c + "): lists run on the JVM");
            case LIST_LAMBDA, LAMBDA_PARAMETER -> fail(lambdaReason());
            case TEMPORAL -> fail(String.valueOf(c.detail()).toLowerCase(Locale.ROOT)
                    + (c.type().isInterval() || c.args().stream().anyMatch(a -> a.type().isInterval())
                    ? "(...) (the CUDA generator has no INTERVAL values)"
                    : "(...) (the CUDA generator has no TIMESTAMP functions)"));
            case TIMESTAMP_ADD_MICROS, TIMESTAMP_ADD_MONTHS ->
                    fail("TIMESTAMP plus an interval (the CUDA generator does not print it yet)");
            case EXTRACT -> CudaExprGen.extractUnit(c) < 0
                    ? fail("extract(" + c.detail() + ") (the CUDA generator has YEAR, QUARTER, MONTH and DAY)")
                    : gen(args.get(0)) == null ? null : Value.of(CType.LONG);
            case DATE_TRUNC -> fail("date_trunc(" + c.detail() + ") (the CUDA generator has no date truncation)");
            default -> fail(c.op().name().toLowerCase(Locale.ROOT) + "(...)");
        };
    }

    /** COALESCE: its operands up to the first that is never NULL, each converted to the call's type. */
    private Value coalesce(Expr.Call c) {
        Value out = null;
        for (Expr a : c.args()) {
            Value x = gen(a);
            if (x == null || (out = convert(x, a.type(), c.type())) == null) {
                return null;
            }
            if (!DeviceNulls.mayBeNull(a, padded)) {
                break;
            }
        }
        return out;
    }

    private Value arithmetic(Expr.Call c) {
        if (gen(c.args().get(0)) == null || gen(c.args().get(1)) == null) {
            return null;
        }
        DataType t = c.type();
        return switch (t.kind()) {
            case DOUBLE -> c.op() == Op.MOD ? fail("MOD of DOUBLE values") : Value.of(CType.DOUBLE);
            case DECIMAL -> c.op() == Op.ADD || c.op() == Op.SUB || c.op() == Op.MUL ? Value.of(CType.LONG)
                    : fail(c.op() + " on DECIMAL values");
            case INTEGER -> Value.of(CType.INT);
            case BIGINT -> Value.of(CType.LONG);
            default -> fail("arithmetic giving " + t);
        };
    }

    private Value compare(Expr a, Expr b) {
        if (a.type().kind() == TypeKind.VARCHAR || b.type().kind() == TypeKind.VARCHAR) {
            return compareStrings(a, b);
        }
        return gen(a) == null || gen(b) == null ? null : Value.BOOL;
    }

    private Value compareStrings(Expr a, Expr b) {
        boolean aConstant = a instanceof Expr.Literal;
        boolean bConstant = b instanceof Expr.Literal;
        if (aConstant != bConstant) {
            // a code against a constant: the code's dictionary gives the constant's code or bound
            Value code = gen(aConstant ? b : a);
            if (code == null) {
                return null;
            }
            if (code.dict() == null) {
                return fail("a string compared that is not a dictionary code");
            }
            return dictionary(code.dict()) == null ? null : Value.BOOL;
        }
        Value x = gen(a);
        Value y = x == null ? null : gen(b);
        if (y == null) {
            return null;
        }
        if (x.dict() != null && x.dict().equals(y.dict())) {
            return Value.BOOL;
        }
        return fail("a comparison of strings from different dictionaries (" + a + ", " + b + ")");
    }

    private Value inList(Expr.Call c) {
        List<?> values = (List<?>) c.detail();
        if (values.size() > CudaExprGen.MAX_IN_LIST) {
            return fail("an IN list of " + values.size() + " values");
        }
        Value x = gen(c.args().get(0));
        if (x == null) {
            return null;
        }
        Dictionary d = null;
        if (x.dict() != null && (d = dictionary(x.dict())) == null) {
            return null;
        }
        for (Object v : values) {
            boolean coded = switch (v) {
                case String s -> d != null;
                case Long l -> x.type() == CType.INT || x.type() == CType.LONG;
                case Double f -> x.type() == CType.DOUBLE;
                default -> false;
            };
            if (!coded) {
                return fail("an IN list of " + x.type() + " values");
            }
        }
        return Value.BOOL;
    }

    private Value like(Expr.Call c) {
        Value a = gen(c.args().get(0));
        if (a == null) {
            return null;
        }
        if (a.dict() == null) {
            return fail("LIKE over a computed string");
        }
        Dictionary d = dictionary(a.dict());
        if (d == null) {
            return null;
        }
        if (!prefixOrExact((String) c.detail())) {
            return fail("a LIKE that is not a prefix, over " + c.args().get(0) + " (no mask of codes)");
        }
        return Value.BOOL; // its matches are one run of codes in the sorted dictionary, or none
    }

    /**
     * Whether a LIKE pattern's regular expression ({@link io.tessera.sql.LikePattern}: each literal character quoted,
     * '%' as {@code .*}) is literal characters, possibly followed by one {@code .*}: a constant or a prefix, whose
     * matches in an order-preserving dictionary are consecutive codes.
     */
    static boolean prefixOrExact(String regex) {
        String rest = regex.endsWith(".*") ? regex.substring(0, regex.length() - 2) : regex;
        int i = 0;
        while (i < rest.length()) {
            if (!rest.startsWith("\\Q", i)) {
                return false;
            }
            int end = rest.indexOf("\\E", i + 2);
            if (end < 0) {
                return false;
            }
            i = end + 2;
        }
        return true;
    }

    private Value caseWhen(Expr.Call c) {
        List<Expr> args = c.args();
        DataType t = c.type();
        int pairs = (args.size() - 1) / 2;
        for (int i = 0; i < pairs; i++) {
            if (cond(args.get(2 * i)) == null || branch(args.get(2 * i + 1), t) == null) {
                return null;
            }
        }
        if (branch(args.get(args.size() - 1), t) == null) {
            return null;
        }
        if (t.kind() != TypeKind.VARCHAR) {
            return Value.of(CType.stored(t));
        }
        String dict = CodeDictionaries.ofCase(c, e -> gen(e).dict());
        return dict == null ? fail(CodeDictionaries.NOT_A_CODE) : new Value(CType.INT, dict);
    }

    private Value branch(Expr e, DataType t) {
        if (e instanceof Expr.Literal l && t.kind() == TypeKind.VARCHAR) {
            return l.value() == null ? Value.of(CType.INT) : fail(CodeDictionaries.NOT_A_CODE); // a NULL code
        }
        Value v = gen(e);
        return v == null ? null : convert(v, e.type(), t);
    }

    /** A conversion from SQL type {@code from} to {@code to}, as the JVM backend's CAST does it. */
    private Value convert(Value x, DataType from, DataType to) {
        if (from.equals(to)) {
            return x;
        }
        TypeKind f = from.kind();
        if (f == TypeKind.VARCHAR || to.kind() == TypeKind.VARCHAR) {
            return fail("CAST between " + from + " and " + to);
        }
        return switch (to.kind()) {
            case DOUBLE -> Value.of(CType.DOUBLE);
            case INTEGER, BIGINT -> {
                // a conversion that can leave the target's range runs on the JVM, whose error names the value and type
                boolean widening = switch (f) {
                    case BOOLEAN -> true;
                    case DECIMAL -> to.kind() == TypeKind.BIGINT;
                    case INTEGER, BIGINT, DATE -> DataType.fitsIn(from, to);
                    default -> false;
                };
                if (!widening) {
                    yield fail("CAST from " + from + " to " + to + " (its range is checked on the JVM)");
                }
                yield Value.of(to.kind() == TypeKind.INTEGER ? CType.INT : CType.LONG);
            }
            case DECIMAL -> {
                if (f == TypeKind.DOUBLE) {
                    yield fail("CAST from DOUBLE to " + to + " (its range is checked on the JVM)");
                }
                if (f == TypeKind.BOOLEAN) {
                    yield fail("CAST from BOOLEAN to DECIMAL");
                }
                if (f == TypeKind.DECIMAL ? !io.tessera.backend.lower.Cast.rescaleFits(from, to) : DataType.digits(from) > to.precision() - to.scale()) {
                    yield fail("CAST from " + from + " to " + to + " (its range is checked on the JVM)");
                }
                yield Value.of(CType.LONG);
            }
            case BOOLEAN -> f == TypeKind.INTEGER || f == TypeKind.BIGINT ? Value.BOOL
                    : fail("CAST from " + from + " to BOOLEAN");
            default -> fail("CAST from " + from + " to " + to);
        };
    }

    /**
     * The dictionary of a code, or null (the reason set) when the lookup refuses it: the caller's lookup throws
     * {@link GpuUnsupported} for a key the device cannot have, such as strings the query computes.
     */
    private Dictionary dictionary(String key) {
        try {
            return dictionaries.apply(key);
        } catch (GpuUnsupported e) {
            fail(e.getMessage());
            return null;
        }
    }
}

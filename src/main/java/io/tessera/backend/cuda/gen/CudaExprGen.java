package io.tessera.backend.cuda.gen;

import io.tessera.backend.CodeNames;
import io.tessera.backend.lower.Arithmetic;
import io.tessera.backend.lower.Cast;
import io.tessera.backend.lower.Comparison;
import io.tessera.backend.lower.DictionaryBound;
import io.tessera.backend.lower.Logic;
import io.tessera.backend.lower.NanOrder;
import io.tessera.backend.lower.NarrowRange;
import io.tessera.backend.lower.Scale;
import io.tessera.backend.lower.Unsupported;
import io.tessera.plan.Expr;
import io.tessera.plan.Op;
import io.tessera.plan.Slot;
import io.tessera.storage.DataType;
import io.tessera.storage.Dictionary;
import io.tessera.storage.TypeKind;

import java.util.List;
import java.util.regex.Pattern;

/**
 * Expressions to C expression text for one item of a tile ({@code [i]}), with the JVM backend's semantics:
 * integer and decimal arithmetic is checked (an overflow sets a bit of {@code err}, raised as the same error
 * after the kernel), decimals are scaled 64-bit integers, strings are dictionary codes compared against bounds
 * computed here from the order-preserving dictionary. A value that can be NULL (a left join's missing payload, a
 * NULL literal) carries a C condition for it beside its value, by the rules of {@link DeviceNulls}. The SQL rules (decimal scales, checked operations,
 * casts, logic) come from the shared lowering ({@link io.tessera.backend.lower}), as the JVM backend's ExprGen's do;
 * what the GPU does not do (a range check whose error names the value) is left to the JVM.
 */
final class CudaExprGen {

    /** What the generator needs from the kernel emitter. */
    interface Scope {
        /** The register expression of a slot's value for item i (its load was emitted before). */
        CValue slot(Slot slot);

        /** The dictionary with this key. */
        Dictionary dictionary(String key);

        /**
         * A constant of the query as a kernel parameter: its name. {@code type} is INT, LONG or DOUBLE; the value is
         * bound at launch and never written into the source.
         */
        String constant(CType type, Object value);

        /**
         * A mask of one bit per dictionary code as a kernel parameter ({@link KernelParam.Kind#CODE_MASK}): its name.
         * The bits are bound at launch and never written into the source.
         */
        String codeMask(int[] words);

        /**
         * A map from a dictionary's codes to the codes of a function's results as a kernel parameter ({@link
         * KernelParam.Kind#CODE_MAP}): its name. The codes are bound at launch and never written into the source;
         * the results' dictionary is registered for the run under {@code dictionaryKey}.
         */
        String codeMap(int[] codes, String dictionaryKey, Dictionary results);

        /**
         * The C condition that a slot is NULL for item i, or null where it never is: a payload column's from its
         * probe's hit flag or NULL flag, with no load of its value.
         */
        String isNull(Slot slot);

        /** Whether join {@code joinId}'s payload may be missing (a left join probed before). */
        boolean padded(int joinId);
    }

    private final Scope scope;

    CudaExprGen(Scope scope) {
        this.scope = scope;
    }

    /**
     * The operands each call being generated has met so far, innermost call on top: a strict call's value is NULL
     * when one of them is ({@link DeviceNulls#strict}).
     */
    private final java.util.ArrayDeque<List<CValue>> operands = new java.util.ArrayDeque<>();
    /** The values not NULL where the expression being generated is evaluated (a CASE branch's WHEN proves them). */
    private java.util.Set<Expr> known = java.util.Set.of();

    CValue gen(Expr e) {
        operands.push(new java.util.ArrayList<>());
        CValue v;
        List<CValue> met;
        try {
            v = value(e);
        } finally {
            met = operands.pop();
        }
        if (strictCall(e)) {
            String isNull = null;
            for (CValue o : met) {
                isNull = DeviceNulls.or(isNull, o.isNull());
            }
            v = DeviceNulls.guarded(v, isNull);
        }
        if (v.isNull() != null && known.contains(e)) {
            v = new CValue(v.v(), v.type(), v.dict(), null);
        }
        if (!operands.isEmpty()) {
            operands.peek().add(v);
        }
        return v;
    }

    /** Whether e is a call (or a mask of codes) whose value is NULL when an operand is. */
    private boolean strictCall(Expr e) {
        if (MappedCodes.column(e) != null) {
            return MappedCodes.nullWhereColumnIs(e);
        }
        if (CodeMasks.column(e) != null) {
            return CodeMasks.nullWhereColumnIs(e);
        }
        return e instanceof Expr.Call c && DeviceNulls.strict(c);
    }

    private CValue value(Expr e) {
        if (CodeMasks.column(e) instanceof Expr.Ref column) {
            return codeMask(e, column);
        }
        if (MappedCodes.column(e) instanceof Expr.Ref column) {
            return mappedCode(e, column);
        }
        return switch (e) {
            case Expr.Ref r -> scope.slot(r.slot());
            case Expr.Literal l -> literal(l);
            case Expr.Call c -> {
                if (NarrowRange.of(c) != null) {
                    throw new GpuUnsupported("arithmetic giving " + c.type() + " (its range is checked on the JVM)");
                }
                yield stored(call(c), c.type());
            }
        };
    }

    /** A boolean expression as a C condition. */
    String condition(Expr e) {
        CValue v = gen(e);
        if (v.type() != CType.BOOL) {
            throw new GpuUnsupported("a condition of type " + e.type());
        }
        return v.v();
    }

    private CValue stored(CValue x, DataType t) {
        if (t.kind() == TypeKind.VARCHAR) {
            return x;
        }
        CType want = CType.stored(t);
        if (x.type() == want) {
            return x;
        }
        if (want == CType.LONG && x.type() == CType.INT) {
            return x.as("((long long)" + x.v() + ")", CType.LONG);
        }
        if (want == CType.INT && x.type() == CType.LONG) {
            return x.as("tessera::q::ToIntChecked(" + x.v() + ", err)", CType.INT);
        }
        if (want == CType.DOUBLE && x.type() != CType.BOOL) {
            return x.as("((double)" + x.v() + ")", CType.DOUBLE);
        }
        return x;
    }

    // ---- literals ----

    /** A literal as a kernel parameter bound at launch: its value never enters the source. */
    private CValue literal(Expr.Literal l) {
        Object v = l.value();
        if (v == null) {
            if (l.type().kind() == TypeKind.VARCHAR) {
                throw new GpuUnsupported("a string value outside a comparison with a column");
            }
            CType t = CType.stored(l.type());
            return new CValue(DeviceNulls.zero(t), t, null, "true");
        }
        return switch (l.type().kind()) {
            case INTEGER, DATE -> {
                long x = ((Number) v).longValue();
                CType t = x >= Integer.MIN_VALUE && x <= Integer.MAX_VALUE ? CType.INT : CType.LONG;
                yield CValue.of(scope.constant(t, x), t);
            }
            case BIGINT, DECIMAL, TIMESTAMP, TIMESTAMP_TZ, TIME -> CValue.of(scope.constant(CType.LONG, ((Number) v).longValue()), CType.LONG);
            case DOUBLE -> CValue.of(scope.constant(CType.DOUBLE, ((Number) v).doubleValue()), CType.DOUBLE);
            case BOOLEAN -> CValue.of("(" + scope.constant(CType.INT, ((Boolean) v) ? 1L : 0L) + " != 0)", CType.BOOL);
            case VARCHAR -> throw new GpuUnsupported("a string value outside a comparison with a column");
        };
    }

    static String longLiteral(long v) {
        return v == Long.MIN_VALUE ? "(-9223372036854775807LL - 1)" : v + "LL";
    }

    // ---- calls ----

    private CValue call(Expr.Call c) {
        return switch (c.op()) {
            case ADD, SUB, MUL, DIV, MOD -> arithmetic(c);
            case NEG -> {
                CValue a = convert(gen(c.args().get(0)), c.args().get(0).type(), c.type());
                yield a.type() == CType.DOUBLE ? CValue.of("(-" + a.v() + ")", a.type())
                        : CValue.of("tessera::q::NegChecked(" + a.v() + ", err)", a.type());
            }
            case ABS -> {
                CValue a = convert(gen(c.args().get(0)), c.args().get(0).type(), c.type());
                yield a.type() == CType.DOUBLE ? CValue.of("fabs(" + a.v() + ")", a.type())
                        : CValue.of("(" + a.v() + " < 0 ? tessera::q::NegChecked(" + a.v() + ", err) : " + a.v() + ")", a.type());
            }
            case EQ, NE, LT, LE, GT, GE -> compare(c.op(), c.args().get(0), c.args().get(1));
            case IS_DISTINCT, IS_NOT_DISTINCT -> distinct(c);
            case AND, OR -> connective(c);
            case NOT -> CValue.of("(!" + condition(c.args().get(0)) + ")", CType.BOOL);
            case IS_NULL, IS_NOT_NULL, IS_TRUE, IS_NOT_TRUE, IS_FALSE, IS_NOT_FALSE -> isTest(c);
            case CASE -> caseWhen(c);
            case COALESCE -> coalesce(c);
            case GREATEST, LEAST -> caseWhen(io.tessera.backend.lower.Extremes.asCase(c));
            case CAST -> convert(gen(c.args().get(0)), c.args().get(0).type(), c.type());
            case LIKE -> like(c);
            case IN_LIST -> inList(c);
            case DATE_ADD_DAYS -> {
                CValue a = gen(c.args().get(0));
                CValue n = gen(c.args().get(1));
                yield CValue.of("tessera::q::ToIntChecked((long long)" + a.v() + " + (long long)" + n.v() + ", err)", CType.INT);
            }
            case DATE_DIFF_DAYS -> {
                CValue a = gen(c.args().get(0));
                CValue b = gen(c.args().get(1));
                yield convert(CValue.of("(" + a.v() + " - " + b.v() + ")", CType.INT), DataType.INTEGER, c.type());
            }
            case EXTRACT -> {
                int unit = extractUnit(c);
                if (unit < 0) {
                    throw new GpuUnsupported("extract(" + c.detail() + ") (the CUDA generator has YEAR, QUARTER, MONTH and DAY)");
                }
                CValue d = gen(c.args().get(0));
                yield CValue.of("/* extract " + UNITS.get(unit) + " */ tessera::q::ExtractDate(" + d.v() + ", " + unit + ")",
                        CType.LONG);
            }
            default -> throw new GpuUnsupported(c.op().name().toLowerCase(java.util.Locale.ROOT) + "(...)");
        };
    }

    /**
     * AND, OR: C's short circuit over two sides that cannot be NULL; with a side that can, the value is true when
     * the connective's result is TRUE, and NULL when it is neither decided by a side nor free of NULL sides
     * ({@link Logic}).
     */
    private CValue connective(Expr.Call c) {
        CValue a = gen(c.args().get(0));
        CValue b = gen(c.args().get(1));
        Logic.Connective con = Logic.Connective.of(c.op());
        String v = "(" + a.v() + " " + con.symbol + " " + b.v() + ")";
        String anyNull = DeviceNulls.or(a.isNull(), b.isNull());
        if (anyNull == null) {
            return CValue.of(v, CType.BOOL);
        }
        // AND is decided by a FALSE side, OR by a TRUE one (a NULL side's value reads false)
        String decided = con == Logic.Connective.AND ? "(" + DeviceNulls.isFalse(a) + " || " + DeviceNulls.isFalse(b) + ")" : v;
        return new CValue(v, CType.BOOL, null, "(" + anyNull + " && !" + decided + ")");
    }

    /** IS [NOT] NULL, IS [NOT] TRUE, IS [NOT] FALSE: never NULL. */
    private CValue isTest(Expr.Call c) {
        Logic.Test test = Logic.test(c.op());
        Expr x = c.args().get(0);
        CValue a = null;
        String isNull = null;
        if (test.onValue() == Logic.OnValue.VALUE || test.onValue() == Logic.OnValue.NEGATED) {
            a = gen(x);
            if (a.type() != CType.BOOL) {
                throw new GpuUnsupported("a condition of type " + x.type());
            }
            isNull = a.isNull();
        } else if (DeviceNulls.mayBeNull(x, scope::padded) && !known.contains(x)) {
            // IS [NOT] NULL of a payload column reads only its NULL condition, its value not loaded (ValueReads)
            isNull = ValueReads.nullTestOfPayload(c) ? scope.isNull(((Expr.Ref) x).slot()) : gen(x).isNull();
        }
        // what the test gives for a value that is not NULL
        String onValue = switch (test.onValue()) {
            case VALUE -> a.v();
            case NEGATED -> "(!" + a.v() + ")";
            case TRUE -> "true";
            case FALSE -> "false";
        };
        if (isNull == null) {
            return CValue.of(onValue, CType.BOOL);
        }
        return CValue.of("(" + isNull + " ? " + test.onNull() + " : " + onValue + ")", CType.BOOL);
    }

    /** IS [NOT] DISTINCT FROM: a comparison where NULL equals NULL and differs from every value; never NULL. */
    private CValue distinct(Expr.Call c) {
        boolean ne = c.op() == Op.IS_DISTINCT;
        operands.push(new java.util.ArrayList<>());
        CValue cmp;
        List<CValue> met;
        try {
            cmp = compare(ne ? Op.NE : Op.EQ, c.args().get(0), c.args().get(1));
        } finally {
            met = operands.pop();
        }
        String an = met.isEmpty() ? null : met.get(0).isNull();
        String bn = met.size() < 2 ? null : met.get(1).isNull();
        if (an == null && bn == null) {
            return cmp;
        }
        String a = an == null ? "false" : an;
        String b = bn == null ? "false" : bn;
        return CValue.of("((" + a + " || " + b + ") ? (" + a + (ne ? " != " : " == ") + b + ") : " + cmp.v() + ")", CType.BOOL);
    }

    /** COALESCE: the first operand that is not NULL; NULL when all are. */
    private CValue coalesce(Expr.Call c) {
        List<Expr> args = c.args();
        // the operands up to the first that is never NULL, in order (the later ones are never taken)
        List<CValue> xs = new java.util.ArrayList<>();
        for (int i = 0; i < args.size() && (xs.isEmpty() || xs.getLast().isNull() != null); i++) {
            xs.add(convert(gen(args.get(i)), args.get(i).type(), c.type()));
        }
        CValue last = xs.getLast();
        String v = last.v();
        String isNull = last.isNull();
        for (int i = xs.size() - 2; i >= 0; i--) {
            CValue x = xs.get(i);
            v = "(" + x.isNull() + " ? " + v + " : " + x.v() + ")";
            isNull = DeviceNulls.and(x.isNull(), isNull);
        }
        return new CValue(v, last.type(), xs.size() == 1 ? last.dict() : null, isNull);
    }

    /** The units of EXTRACT from a DATE the GPU computes ({@code tessera::q::ExtractDate}), by their number there. */
    private static final List<String> UNITS = List.of("YEAR", "QUARTER", "MONTH", "DAY");

    /** The number of an EXTRACT's unit in {@link #UNITS}, or -1 when the GPU has no code for it (or for its argument). */
    static int extractUnit(Expr.Call c) {
        return c.args().get(0).type().kind() == TypeKind.DATE ? UNITS.indexOf(String.valueOf(c.detail())) : -1;
    }

    private CValue arithmetic(Expr.Call c) {
        Expr a = c.args().get(0);
        Expr b = c.args().get(1);
        CValue x = gen(a);
        CValue y = gen(b);
        String op = switch (c.op()) {
            case ADD -> "Add";
            case SUB -> "Sub";
            case MUL -> "Mul";
            case DIV -> "Div";
            default -> "Mod";
        };
        Arithmetic ar = lowered(() -> Arithmetic.of(c));
        return switch (ar.domain()) {
            case DOUBLE -> {
                if (c.op() == Op.MOD) {
                    throw new GpuUnsupported("MOD of DOUBLE values");
                }
                yield CValue.of("(" + toDouble(x, a.type()) + " " + ar.symbol() + " " + toDouble(y, b.type()) + ")", CType.DOUBLE);
            }
            case DECIMAL_ADD -> CValue.of("tessera::q::" + op + "Checked(" + rescaled(asLong(x), ar.leftShift()) + ", "
                    + rescaled(asLong(y), ar.rightShift()) + ", err)", CType.LONG);
            case DECIMAL_MOD -> throw new GpuUnsupported("MOD on DECIMAL values");
            case DECIMAL_MUL -> CValue.of(rescaled("tessera::q::MulChecked(" + asLong(x) + ", " + asLong(y) + ", err)",
                    ar.productShift()), CType.LONG);
            case INT -> CValue.of("tessera::q::" + op + "Checked(" + asInt(x) + ", " + asInt(y) + ", err)", CType.INT);
            case LONG -> CValue.of("tessera::q::" + op + "Checked(" + asLong(x) + ", " + asLong(y) + ", err)", CType.LONG);
        };
    }

    /** A decision of the shared lowering; what it cannot lower runs on the JVM, which reports it. */
    private static <T> T lowered(java.util.function.Supplier<T> lowering) {
        try {
            return lowering.get();
        } catch (Unsupported u) {
            throw new GpuUnsupported(u.getMessage());
        }
    }

    /** An unscaled long rescaled by a power of ten (none for 0), an overflow setting a bit of {@code err}. */
    private static String rescaled(String v, int shift) {
        return shift == 0 ? v : "tessera::q::Rescale(" + v + ", " + shift + ", err)";
    }

    static int scaleOf(DataType t) {
        return Scale.of(t);
    }

    private static String asLong(CValue x) {
        return x.type() == CType.LONG ? x.v() : "((long long)" + x.v() + ")";
    }

    private static String asInt(CValue x) {
        return x.type() == CType.INT ? x.v() : "tessera::q::ToIntChecked(" + x.v() + ", err)";
    }

    private static String toDouble(CValue x, DataType t) {
        long divisor = Scale.doubleDivisor(t);
        if (divisor != 0) {
            return "((double)" + x.v() + " / " + divisor + ".0)";
        }
        return x.type() == CType.DOUBLE ? x.v() : "((double)" + x.v() + ")";
    }

    private static String rescaleTo(CValue x, DataType t, int s) {
        return rescaled(asLong(x), Scale.shift(t, s));
    }

    // ---- comparisons ----

    private CValue compare(Op op, Expr a, Expr b) {
        Comparison cmp = Comparison.of(a.type(), b.type());
        if (cmp.domain() == Comparison.Domain.STRING) {
            return CValue.of(compareStrings(op, a, b), CType.BOOL);
        }
        CValue x = gen(a);
        CValue y = gen(b);
        String sym = Comparison.symbol(op);
        String v = switch (cmp.domain()) {
            case BOOLEAN -> "((int)" + x.v() + " " + sym + " (int)" + y.v() + ")";
            case DOUBLE -> NanOrder.compare(op, toDouble(x, a.type()), toDouble(y, b.type()),
                    NanOrder.mayBeNaN(a), NanOrder.mayBeNaN(b), f -> "tessera::q::Nan" + f);
            case DECIMAL -> "(" + rescaleTo(x, a.type(), cmp.commonScale()) + " " + sym + " "
                    + rescaleTo(y, b.type(), cmp.commonScale()) + ")";
            default -> x.type() != y.type() ? "(" + asLong(x) + " " + sym + " " + asLong(y) + ")"
                    : "(" + x.v() + " " + sym + " " + y.v() + ")";
        };
        return CValue.of(v, CType.BOOL);
    }

    private String compareStrings(Op op, Expr a, Expr b) {
        if (b instanceof Expr.Literal lit && !(a instanceof Expr.Literal)) {
            return codeVsConstant(op, gen(a), lit.value().toString());
        }
        if (a instanceof Expr.Literal lit && !(b instanceof Expr.Literal)) {
            return codeVsConstant(op.mirrored(), gen(b), lit.value().toString());
        }
        CValue x = gen(a);
        CValue y = gen(b);
        if (x.dict() != null && x.dict().equals(y.dict())) {
            return "(" + x.v() + " " + Comparison.symbol(op) + " " + y.v() + ")";
        }
        throw new GpuUnsupported("a comparison of strings from different dictionaries (" + a + ", " + b + ")");
    }


    /**
     * A code against a constant string: the code or bound is looked up in the dictionary now and passed as a kernel
     * parameter (a string not in the dictionary has code -1, which no row has).
     */
    private String codeVsConstant(Op op, CValue code, String constant) {
        if (code.dict() == null) {
            throw new GpuUnsupported("a string compared that is not a dictionary code");
        }
        Dictionary d = scope.dictionary(code.dict());
        DictionaryBound bound = DictionaryBound.of(op);
        long number = switch (bound.lookup()) {
            case CODE -> d.code(constant);
            case LOWER_BOUND -> d.lowerBound(constant);
            case UPPER_BOUND -> d.upperBound(constant);
        };
        return "(" + code.v() + " " + bound.symbol() + " " + scope.constant(CType.INT, number) + ")";
    }

    /** Most constants of an IN list the GPU compares one by one; a longer list runs on the JVM (a set lookup there). */
    static final int MAX_IN_LIST = 64;

    /** {@code x IN (constants)}: a comparison with each, the constants (or their dictionary codes) kernel parameters. */
    private CValue inList(Expr.Call c) {
        List<?> values = (List<?>) c.detail();
        if (values.size() > MAX_IN_LIST) {
            throw new GpuUnsupported("an IN list of " + values.size() + " values");
        }
        CValue x = gen(c.args().get(0));
        Dictionary d = x.dict() == null ? null : scope.dictionary(x.dict());
        StringBuilder sb = new StringBuilder("(");
        for (Object v : values) {
            String k = switch (v) {
                case String s when d != null -> scope.constant(CType.INT, (long) d.code(s));
                case Long l when x.type() == CType.INT || x.type() == CType.LONG -> scope.constant(CType.LONG, l);
                case Double f when x.type() == CType.DOUBLE -> scope.constant(CType.DOUBLE, f);
                default -> throw new GpuUnsupported("an IN list of " + x.type() + " values");
            };
            // a NaN constant matches the NaN values, as DuckDB's NaN equals itself
            boolean nan = v instanceof Double f && Double.isNaN(f);
            sb.append(sb.length() == 1 ? "" : " || ").append(x.v()).append(nan ? " != " + x.v() : " == " + k);
        }
        return CValue.of(sb.append(")").toString(), CType.BOOL);
    }

    /**
     * A condition over one dictionary column computed per code on the host ({@link CodeMasks}): the kernel tests the
     * bit of its row's code in the mask, a kernel parameter; a NULL row's bit is the one past the codes where the
     * condition is TRUE or FALSE for NULL, else its value is NULL as the column's.
     */
    private CValue codeMask(Expr e, Expr.Ref column) {
        CValue code = gen(column);
        if (code.dict() == null) {
            throw new GpuUnsupported("a condition over a computed string (" + e + ")");
        }
        Dictionary d = scope.dictionary(code.dict());
        int[] words = CodeMasks.mask(e, d);
        String at = code.v();
        if (code.isNull() != null && !CodeMasks.nullWhereColumnIs(e)) {
            // TRUE or FALSE for a NULL column value: the mask's bit past the codes
            at = "(" + code.isNull() + " ? " + scope.constant(CType.INT, (long) CodeMasks.nullBit(d)) + " : " + at + ")";
        }
        return CValue.of("/* " + CodeMasks.operation(e) + " of " + KernelBuilder.comment(CodeNames.slot(column.slot()))
                + ", a mask of its codes */ tessera::q::CodeIn(" + scope.codeMask(words)
                + ", " + at + ")", CType.BOOL);
    }

    /**
     * A string function of one dictionary column computed per code on the host ({@link MappedCodes}): the kernel
     * reads its result's code from the map at its row's code, in the results' dictionary. A NULL row's code is 0,
     * within the map: a strict function's result stays NULL; where e has a value for a NULL column (a COALESCE), the
     * NULL row reads the map's last entry instead.
     */
    private CValue mappedCode(Expr e, Expr.Ref column) {
        CValue code = gen(column);
        String key = MappedCodes.dictionaryKey(e);
        if (code.dict() == null || !code.dict().equals(column.slot().dictionaryKey()) || key == null) {
            throw new GpuUnsupported("a string function over a computed string (" + e + ")");
        }
        Dictionary d = scope.dictionary(code.dict());
        MappedCodes.Mapping m = MappedCodes.mapping(e, d);
        String at = code.v();
        if (code.isNull() != null && !MappedCodes.nullWhereColumnIs(e)) {
            at = "(" + code.isNull() + " ? " + scope.constant(CType.INT, (long) MappedCodes.nullSlot(d)) + " : " + at + ")";
        }
        return new CValue("/* " + MappedCodes.operation(e) + " of " + KernelBuilder.comment(CodeNames.slot(column.slot()))
                + ", a map of its codes */ " + scope.codeMap(m.codes(), key, m.results()) + "[" + at + "]",
                CType.INT, key, null);
    }

    /**
     * LIKE of a prefix or a whole string over a dictionary ({@link CudaExprSupport#prefixOrExact}): its matches are
     * one run of codes of the sorted dictionary, whose bounds are kernel parameters (other patterns are masks).
     */
    private CValue like(Expr.Call c) {
        CValue a = gen(c.args().get(0));
        if (a.dict() == null) {
            throw new GpuUnsupported("LIKE over a computed string");
        }
        if (!CudaExprSupport.prefixOrExact((String) c.detail())) {
            throw new GpuUnsupported("a LIKE that is not a prefix, over " + c.args().get(0) + " (no mask of codes)");
        }
        Dictionary d = scope.dictionary(a.dict());
        Pattern p = Pattern.compile((String) c.detail(), Pattern.DOTALL);
        int first = -1;
        int last = -1;
        for (int k = 0; k < d.size(); k++) {
            if (p.matcher(d.value(k)).matches()) {
                first = first < 0 ? k : first;
                last = k;
            }
        }
        if (first < 0) {
            return CValue.of("false", CType.BOOL);
        }
        return CValue.of("(" + a.v() + " >= " + scope.constant(CType.INT, (long) first) + " && " + a.v() + " <= "
                + scope.constant(CType.INT, (long) last) + ")", CType.BOOL);
    }

    /**
     * CASE: the first branch whose condition is TRUE (a NULL condition is not), else the ELSE; NULL where the branch
     * taken is.
     */
    private CValue caseWhen(Expr.Call c) {
        List<Expr> args = c.args();
        DataType t = c.type();
        int pairs = (args.size() - 1) / 2;
        StringBuilder v = new StringBuilder();
        StringBuilder isNull = new StringBuilder();
        boolean nullable = false;
        java.util.Map<Expr, String> branches = new java.util.HashMap<>(); // each branch's dictionary key
        java.util.Set<Expr> outside = known;
        java.util.Set<Expr> passed = known; // what the WHENs before, none TRUE, prove not NULL
        CValue el;
        try {
            for (int i = 0; i < pairs; i++) {
                known = passed;
                String when = condition(args.get(2 * i));
                known = DeviceNulls.union(passed, DeviceNulls.notNullWhen(args.get(2 * i)));
                CValue th = branch(args.get(2 * i + 1), t);
                branches.put(args.get(2 * i + 1), th.dict());
                v.append('(').append(when).append(" ? ").append(th.v()).append(" : ");
                isNull.append('(').append(when).append(" ? ").append(th.isNull() == null ? "false" : th.isNull()).append(" : ");
                nullable |= th.isNull() != null;
                passed = DeviceNulls.union(passed, DeviceNulls.notNullUnless(args.get(2 * i)));
            }
            known = passed;
            el = branch(args.get(args.size() - 1), t);
            branches.put(args.get(args.size() - 1), el.dict());
        } finally {
            known = outside;
        }
        v.append(el.v()).append(")".repeat(pairs));
        nullable |= el.isNull() != null;
        isNull.append(el.isNull() == null ? "false" : el.isNull()).append(")".repeat(pairs));
        String dict = null;
        if (t.kind() == TypeKind.VARCHAR) {
            // codes of one dictionary pass through (a NULL branch is NULL): CASE WHEN n THEN NULL ELSE s END
            dict = CodeDictionaries.ofCase(c, branches::get);
            if (dict == null) {
                throw new GpuUnsupported(CodeDictionaries.NOT_A_CODE);
            }
        }
        return new CValue(v.toString(), CType.stored(t), dict, nullable ? isNull.toString() : null);
    }

    /** A CASE branch's value: a NULL string as a NULL code, else its value converted to the CASE's type. */
    private CValue branch(Expr e, DataType t) {
        if (e instanceof Expr.Literal l && t.kind() == TypeKind.VARCHAR) {
            if (l.value() != null) {
                throw new GpuUnsupported(CodeDictionaries.NOT_A_CODE);
            }
            return new CValue("0", CType.INT, null, "true");
        }
        return convert(gen(e), e.type(), t);
    }

    /**
     * Converts a value of SQL type {@code from} to SQL type {@code to} by the rules of {@link Cast}, as the JVM
     * backend's CAST does; a cast whose value can leave the target's range runs on the JVM, whose error names the
     * value and the type.
     */
    CValue convert(CValue x, DataType from, DataType to) {
        if (from.equals(to)) {
            return x;
        }
        TypeKind f = from.kind();
        if (f == TypeKind.VARCHAR || to.kind() == TypeKind.VARCHAR) {
            throw new GpuUnsupported("CAST between " + from + " and " + to);
        }
        Cast cast = lowered(() -> Cast.of(from, to));
        if (cast.canLeaveRange()) {
            throw new GpuUnsupported("CAST from " + from + " to " + to + " (its range is checked on the JVM)");
        }
        switch (to.kind()) {
            case DOUBLE -> {
                if (cast.conversion() == Cast.Conversion.FROM_BOOLEAN) {
                    return x.as("(" + x.v() + " ? 1.0 : 0.0)", CType.DOUBLE);
                }
                return x.as(toDouble(x, from), CType.DOUBLE);
            }
            case INTEGER, BIGINT -> {
                String lv = switch (cast.conversion()) {
                    // a DECIMAL to BIGINT, half away from zero (DOUBLE and INTEGER targets can leave the range)
                    case ROUND -> "tessera::q::Rescale(" + x.v() + ", " + cast.shift() + ", err)";
                    case FROM_BOOLEAN -> "(" + x.v() + " ? 1LL : 0LL)";
                    default -> asLong(x); // WIDEN
                };
                if (to.kind() == TypeKind.INTEGER) {
                    return x.type() == CType.INT && f != TypeKind.BOOLEAN ? x.as(x.v(), CType.INT)
                            : x.as("tessera::q::ToIntChecked(" + lv + ", err)", CType.INT);
                }
                return x.as(lv, CType.LONG);
            }
            case DECIMAL -> { // RESCALE
                return x.as(rescaleTo(x, from, to.scale()), CType.LONG);
            }
            default -> { // BOOLEAN: NONZERO
                return x.as("(" + x.v() + " != 0)", CType.BOOL);
            }
        }
    }
}

package io.tessera.backend.cuda.gen;

import io.tessera.plan.Expr;
import io.tessera.plan.Op;
import io.tessera.plan.Slot;
import io.tessera.storage.DataType;
import io.tessera.storage.Dictionary;
import io.tessera.storage.TypeKind;
import io.tessera.storage.Values;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Expressions to C expression text for one item of a tile ({@code [i]}), with the JVM backend's semantics:
 * integer and decimal arithmetic is checked (an overflow sets a bit of {@code err}, raised as the same error
 * after the kernel), decimals are scaled 64-bit integers, strings are dictionary codes compared against bounds
 * computed here from the order-preserving dictionary. Values on the GPU are never NULL: a pipeline that could
 * see a NULL runs on the JVM backend ({@link GpuUnsupported}).
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
    }

    /** Most code ranges a LIKE over a dictionary becomes before the pipeline is left to the JVM. */
    static final int MAX_LIKE_RANGES = 16;

    private final Scope scope;

    CudaExprGen(Scope scope) {
        this.scope = scope;
    }

    CValue gen(Expr e) {
        if (e.nullable()) {
            throw new GpuUnsupported("a value that can be NULL (" + e + ")");
        }
        return switch (e) {
            case Expr.Ref r -> scope.slot(r.slot());
            case Expr.Literal l -> literal(l);
            case Expr.Call c -> {
                if (c.type().isNarrowInteger() && c.op().canLeaveNarrowRange()) {
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
            return CValue.of("((long long)" + x.v() + ")", CType.LONG);
        }
        if (want == CType.INT && x.type() == CType.LONG) {
            return CValue.of("tessera::q::ToIntChecked(" + x.v() + ", err)", CType.INT);
        }
        if (want == CType.DOUBLE && x.type() != CType.BOOL) {
            return CValue.of("((double)" + x.v() + ")", CType.DOUBLE);
        }
        return x;
    }

    // ---- literals ----

    /** A literal as a kernel parameter bound at launch: its value never enters the source. */
    private CValue literal(Expr.Literal l) {
        Object v = l.value();
        return switch (l.type().kind()) {
            case INTEGER, DATE -> {
                long x = ((Number) v).longValue();
                CType t = x >= Integer.MIN_VALUE && x <= Integer.MAX_VALUE ? CType.INT : CType.LONG;
                yield CValue.of(scope.constant(t, x), t);
            }
            case BIGINT, DECIMAL -> CValue.of(scope.constant(CType.LONG, ((Number) v).longValue()), CType.LONG);
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
            case IS_DISTINCT -> compare(Op.NE, c.args().get(0), c.args().get(1));
            case IS_NOT_DISTINCT -> compare(Op.EQ, c.args().get(0), c.args().get(1));
            case AND, OR -> {
                CValue a = gen(c.args().get(0));
                CValue b = gen(c.args().get(1));
                yield CValue.of("(" + a.v() + (c.op() == Op.AND ? " && " : " || ") + b.v() + ")", CType.BOOL);
            }
            case NOT, IS_NOT_TRUE, IS_FALSE -> CValue.of("(!" + condition(c.args().get(0)) + ")", CType.BOOL);
            case IS_TRUE, IS_NOT_FALSE -> CValue.of(condition(c.args().get(0)), CType.BOOL);
            case IS_NULL -> CValue.of("false", CType.BOOL);
            case IS_NOT_NULL -> CValue.of("true", CType.BOOL);
            case CASE -> caseWhen(c);
            case COALESCE -> convert(gen(c.args().get(0)), c.args().get(0).type(), c.type());
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
            default -> throw new GpuUnsupported(c.op().name().toLowerCase(java.util.Locale.ROOT) + "(...)");
        };
    }

    private CValue arithmetic(Expr.Call c) {
        Expr a = c.args().get(0);
        Expr b = c.args().get(1);
        DataType t = c.type();
        CValue x = gen(a);
        CValue y = gen(b);
        String op = switch (c.op()) {
            case ADD -> "Add";
            case SUB -> "Sub";
            case MUL -> "Mul";
            case DIV -> "Div";
            default -> "Mod";
        };
        if (t.kind() == TypeKind.DOUBLE) {
            String sym = switch (c.op()) {
                case ADD -> "+";
                case SUB -> "-";
                case MUL -> "*";
                case DIV -> "/";
                default -> throw new GpuUnsupported("MOD of DOUBLE values");
            };
            return CValue.of("(" + toDouble(x, a.type()) + " " + sym + " " + toDouble(y, b.type()) + ")", CType.DOUBLE);
        }
        if (t.kind() == TypeKind.DECIMAL) {
            int s = t.scale();
            if (c.op() == Op.ADD || c.op() == Op.SUB) {
                return CValue.of("tessera::q::" + op + "Checked(" + rescaleTo(x, a.type(), s) + ", " + rescaleTo(y, b.type(), s)
                        + ", err)", CType.LONG);
            }
            if (c.op() == Op.MUL) {
                String prod = "tessera::q::MulChecked(" + asLong(x) + ", " + asLong(y) + ", err)";
                int shift = s - (scaleOf(a.type()) + scaleOf(b.type()));
                return CValue.of(shift == 0 ? prod : "tessera::q::Rescale(" + prod + ", " + shift + ", err)", CType.LONG);
            }
            throw new GpuUnsupported(c.op() + " on DECIMAL values");
        }
        if (t.kind() == TypeKind.INTEGER || t.kind() == TypeKind.BIGINT) {
            boolean isInt = t.kind() == TypeKind.INTEGER;
            String xv = isInt ? asInt(x) : asLong(x);
            String yv = isInt ? asInt(y) : asLong(y);
            return CValue.of("tessera::q::" + op + "Checked(" + xv + ", " + yv + ", err)", isInt ? CType.INT : CType.LONG);
        }
        throw new GpuUnsupported("arithmetic giving " + t);
    }

    static int scaleOf(DataType t) {
        return t.kind() == TypeKind.DECIMAL ? t.scale() : 0;
    }

    private static String asLong(CValue x) {
        return x.type() == CType.LONG ? x.v() : "((long long)" + x.v() + ")";
    }

    private static String asInt(CValue x) {
        return x.type() == CType.INT ? x.v() : "tessera::q::ToIntChecked(" + x.v() + ", err)";
    }

    private static String toDouble(CValue x, DataType t) {
        if (t.kind() == TypeKind.DECIMAL) {
            return "((double)" + x.v() + " / " + Values.pow10(t.scale()) + ".0)";
        }
        return x.type() == CType.DOUBLE ? x.v() : "((double)" + x.v() + ")";
    }

    private static String rescaleTo(CValue x, DataType t, int s) {
        int from = scaleOf(t);
        String v = asLong(x);
        return from == s ? v : "tessera::q::Rescale(" + v + ", " + (s - from) + ", err)";
    }

    // ---- comparisons ----

    private CValue compare(Op op, Expr a, Expr b) {
        TypeKind ka = a.type().kind();
        TypeKind kb = b.type().kind();
        if (ka == TypeKind.VARCHAR || kb == TypeKind.VARCHAR) {
            return CValue.of(compareStrings(op, a, b), CType.BOOL);
        }
        CValue x = gen(a);
        CValue y = gen(b);
        String sym = symbol(op);
        if (ka == TypeKind.BOOLEAN || kb == TypeKind.BOOLEAN) {
            return CValue.of("((int)" + x.v() + " " + sym + " (int)" + y.v() + ")", CType.BOOL);
        }
        if (ka == TypeKind.DOUBLE || kb == TypeKind.DOUBLE) {
            return CValue.of("(" + toDouble(x, a.type()) + " " + sym + " " + toDouble(y, b.type()) + ")", CType.BOOL);
        }
        if (ka == TypeKind.DECIMAL || kb == TypeKind.DECIMAL) {
            int s = Math.max(scaleOf(a.type()), scaleOf(b.type()));
            return CValue.of("(" + rescaleTo(x, a.type(), s) + " " + sym + " " + rescaleTo(y, b.type(), s) + ")", CType.BOOL);
        }
        if (x.type() != y.type()) {
            return CValue.of("(" + asLong(x) + " " + sym + " " + asLong(y) + ")", CType.BOOL);
        }
        return CValue.of("(" + x.v() + " " + sym + " " + y.v() + ")", CType.BOOL);
    }

    private static String symbol(Op op) {
        return switch (op) {
            case EQ -> "==";
            case NE -> "!=";
            case LT -> "<";
            case LE -> "<=";
            case GT -> ">";
            default -> ">=";
        };
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
            return "(" + x.v() + " " + symbol(op) + " " + y.v() + ")";
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
        return switch (op) {
            case EQ -> "(" + code.v() + " == " + scope.constant(CType.INT, (long) d.code(constant)) + ")";
            case NE -> "(" + code.v() + " != " + scope.constant(CType.INT, (long) d.code(constant)) + ")";
            case LT -> "(" + code.v() + " < " + scope.constant(CType.INT, (long) d.lowerBound(constant)) + ")";
            case LE -> "(" + code.v() + " < " + scope.constant(CType.INT, (long) d.upperBound(constant)) + ")";
            case GT -> "(" + code.v() + " >= " + scope.constant(CType.INT, (long) d.upperBound(constant)) + ")";
            default -> "(" + code.v() + " >= " + scope.constant(CType.INT, (long) d.lowerBound(constant)) + ")";
        };
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
            sb.append(sb.length() == 1 ? "" : " || ").append(x.v()).append(" == ").append(k);
        }
        return CValue.of(sb.append(")").toString(), CType.BOOL);
    }

    /** LIKE over a dictionary: the codes whose strings match, as at most {@link #MAX_LIKE_RANGES} code ranges. */
    private CValue like(Expr.Call c) {
        CValue a = gen(c.args().get(0));
        if (a.dict() == null) {
            throw new GpuUnsupported("LIKE over a computed string");
        }
        Dictionary d = scope.dictionary(a.dict());
        Pattern p = Pattern.compile((String) c.detail(), Pattern.DOTALL);
        List<int[]> ranges = new ArrayList<>();
        for (int k = 0; k < d.size(); k++) {
            if (p.matcher(d.value(k)).matches()) {
                if (!ranges.isEmpty() && ranges.get(ranges.size() - 1)[1] == k - 1) {
                    ranges.get(ranges.size() - 1)[1] = k;
                } else {
                    ranges.add(new int[] {k, k});
                }
            }
        }
        if (ranges.size() > MAX_LIKE_RANGES) {
            throw new GpuUnsupported("LIKE matching " + ranges.size() + " separate ranges of dictionary codes");
        }
        if (ranges.isEmpty()) {
            return CValue.of("false", CType.BOOL);
        }
        StringBuilder sb = new StringBuilder("(");
        for (int i = 0; i < ranges.size(); i++) {
            int[] r = ranges.get(i);
            sb.append(i == 0 ? "" : " || ");
            sb.append(r[0] == r[1] ? a.v() + " == " + r[0] : "(" + a.v() + " >= " + r[0] + " && " + a.v() + " <= " + r[1] + ")");
        }
        return CValue.of(sb.append(")").toString(), CType.BOOL);
    }

    private CValue caseWhen(Expr.Call c) {
        List<Expr> args = c.args();
        DataType t = c.type();
        if (t.kind() == TypeKind.VARCHAR) {
            throw new GpuUnsupported("CASE giving a string");
        }
        int pairs = (args.size() - 1) / 2;
        StringBuilder v = new StringBuilder();
        for (int i = 0; i < pairs; i++) {
            String when = condition(args.get(2 * i));
            CValue th = convert(gen(args.get(2 * i + 1)), args.get(2 * i + 1).type(), t);
            v.append('(').append(when).append(" ? ").append(th.v()).append(" : ");
        }
        CValue el = convert(gen(args.get(args.size() - 1)), args.get(args.size() - 1).type(), t);
        v.append(el.v()).append(")".repeat(pairs));
        return CValue.of(v.toString(), CType.stored(t));
    }

    /** Converts a value of SQL type {@code from} to SQL type {@code to}, as the JVM backend's CAST does. */
    CValue convert(CValue x, DataType from, DataType to) {
        if (from.equals(to)) {
            return x;
        }
        TypeKind f = from.kind();
        if (f == TypeKind.VARCHAR || to.kind() == TypeKind.VARCHAR) {
            throw new GpuUnsupported("CAST between " + from + " and " + to);
        }
        switch (to.kind()) {
            case DOUBLE -> {
                if (f == TypeKind.BOOLEAN) {
                    return CValue.of("(" + x.v() + " ? 1.0 : 0.0)", CType.DOUBLE);
                }
                return CValue.of(toDouble(x, from), CType.DOUBLE);
            }
            case INTEGER, BIGINT -> {
                // a conversion that can leave the target's range runs on the JVM, whose error names the value and type
                boolean widening = switch (f) {
                    case BOOLEAN -> true;
                    case DECIMAL -> to.kind() == TypeKind.BIGINT;
                    case INTEGER, BIGINT, DATE -> DataType.fitsIn(from, to);
                    default -> false;
                };
                if (!widening) {
                    throw new GpuUnsupported("CAST from " + from + " to " + to + " (its range is checked on the JVM)");
                }
                String lv = switch (f) {
                    case DECIMAL -> "tessera::q::Rescale(" + x.v() + ", " + (-from.scale()) + ", err)";
                    case BOOLEAN -> "(" + x.v() + " ? 1LL : 0LL)";
                    case DOUBLE -> throw new GpuUnsupported("CAST from DOUBLE to " + to);
                    default -> asLong(x);
                };
                if (to.kind() == TypeKind.INTEGER) {
                    return x.type() == CType.INT && f != TypeKind.BOOLEAN ? CValue.of(x.v(), CType.INT)
                            : CValue.of("tessera::q::ToIntChecked(" + lv + ", err)", CType.INT);
                }
                return CValue.of(lv, CType.LONG);
            }
            case DECIMAL -> {
                int s = to.scale();
                if (f == TypeKind.DOUBLE) {
                    throw new GpuUnsupported("CAST from DOUBLE to " + to + " (its range is checked on the JVM)");
                }
                if (f == TypeKind.BOOLEAN) {
                    throw new GpuUnsupported("CAST from BOOLEAN to DECIMAL");
                }
                if (f == TypeKind.DECIMAL ? !DataType.decimalFits(from, to)
                        : DataType.digits(from) > to.precision() - s) {
                    throw new GpuUnsupported("CAST from " + from + " to " + to + " (its range is checked on the JVM)");
                }
                return CValue.of(rescaleTo(x, from, s), CType.LONG);
            }
            case BOOLEAN -> {
                if (f == TypeKind.INTEGER || f == TypeKind.BIGINT) {
                    return CValue.of("(" + x.v() + " != 0)", CType.BOOL);
                }
                throw new GpuUnsupported("CAST from " + from + " to BOOLEAN");
            }
            default -> throw new GpuUnsupported("CAST from " + from + " to " + to);
        }
    }
}

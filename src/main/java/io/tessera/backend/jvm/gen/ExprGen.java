package io.tessera.backend.jvm.gen;

import io.tessera.backend.ValueKind;
import io.tessera.backend.lower.Arithmetic;
import io.tessera.backend.lower.Comparison;
import io.tessera.backend.lower.DictionaryBound;
import io.tessera.backend.lower.Logic;
import io.tessera.backend.lower.NanOrder;
import io.tessera.backend.lower.NarrowRange;
import io.tessera.backend.lower.Scale;
import io.tessera.backend.lower.Unsupported;
import io.tessera.plan.Expr;
import io.tessera.plan.Op;
import io.tessera.sql.SqlError;
import io.tessera.storage.DataType;
import io.tessera.storage.TypeKind;

import java.util.List;

/**
 * Expressions to Java expression text with SQL NULL semantics. Slot loads were hoisted into locals by the emitter
 * before the statement that uses them. Code stays linear in the size of the expression: an operand that three-valued
 * logic, CASE, COALESCE or IS DISTINCT FROM would read more than once is first held in locals, and what SQL evaluates
 * only on a condition (the right side of AND and OR, CASE branches, COALESCE's later arguments) is emitted as
 * statements inside an {@code if}, so that an error it could raise (a division by zero) is raised only where SQL
 * evaluates it. What SQL decides about an expression (decimal scales, which operations are checked, cast rules,
 * three-valued logic) comes from the shared lowering ({@link io.tessera.backend.lower}); this class prints it as Java.
 */
public final class ExprGen {

    /** What the generator needs from the pipeline emitter. */
    interface Scope {
        /** The loaded local of a slot (emitting the load if needed happens before generation). */
        JExpr slot(io.tessera.plan.Slot slot);

        /** Declares a field initialized once in init(); returns its name. */
        String field(String javaType, String initExpression, String hint);

        /** The field holding the dictionary with this key. */
        String dictionary(String key);

        /**
         * A constant of the query, bound at run time: the name of a field of kind {@code kind} that holds
         * {@code value} (never pasted into the source; {@code Long}, {@code Double}, {@code Boolean} or {@code String}).
         */
        String constant(ValueKind kind, Object value);

        /** A constant string for a field's initializer (only there): an expression that reads it from the bound array. */
        String constantString(String value);

        /**
         * A constant of another Java type (a sorted array, a set), bound at run time: the name of a field of type
         * {@code javaType} that holds {@code value}.
         */
        String constantObject(String javaType, Object value);

        /** Emits a statement where the code is now, before the statement that will use the expression being made. */
        void statement(String s);

        /** A fresh name for a local variable. */
        String local(String hint);

        /** Opens a block: {@code header + " {"}; statements go inside until {@link #close}. */
        void open(String header);

        /** Closes the open block and opens the next one: {@code "} " + header + " {"} (an {@code else}). */
        void reopen(String header);

        void close();

        /** Where the statements emitted so far end: a mark for {@link #cut}. */
        int mark();

        /** Removes and returns the statements emitted since {@code mark}, to {@link #paste} them elsewhere. */
        String cut(int mark);

        /** Emits statements cut before, one block deeper than they were. */
        void paste(String statements);
    }

    private final Scope scope;
    private final JavaCasts casts;
    private final JavaMath math;
    private final NumericFunctions numeric;
    private final TextFunctions text;
    private final TemporalFunctions temporal;
    private final ListFunctions lists;
    private final LambdaLoops lambdas;

    ExprGen(Scope scope) {
        this.scope = scope;
        this.casts = new JavaCasts(scope, this);
        this.math = new JavaMath(scope, this);
        this.numeric = new NumericFunctions(scope, this);
        this.text = new TextFunctions(scope, this);
        this.temporal = new TemporalFunctions(scope, this);
        this.lists = new ListFunctions(scope, this);
        this.lambdas = new LambdaLoops(scope, this, lists);
    }

    public JExpr gen(Expr e) {
        if (e instanceof Expr.Ref r) {
            return scope.slot(r.slot());
        }
        if (e instanceof Expr.Literal l) {
            return literal(l);
        }
        Expr.Call c = (Expr.Call) e;
        JExpr x = stored(call(c), e.type());
        NarrowRange range = NarrowRange.of(c);
        if (range != null) {
            // SMALLINT and TINYINT are computed as int: a result outside their range fails as a CAST would
            String v = "((int) " + RUNTIME + "checkRange(" + x.v() + ", " + range.min() + "L, " + range.max()
                    + "L, " + scope.constant(ValueKind.STRING, range.type().toString()) + "))";
            x = JExpr.of(v, x.n(), ValueKind.INT);
        }
        if (c.type().isReal() && c.op() != Op.CAST) {
            // REAL is computed as double: every result rounded to float (a CAST rounds, and checks, itself)
            x = JExpr.of("((double) (float) " + x.v() + ")", x.n(), ValueKind.DOUBLE);
        }
        return x;
    }


    /** A value in the Java kind its SQL type is stored as (e.g. EXTRACT computes an int for a BIGINT result). */
    static JExpr stored(JExpr x, DataType type) {
        if (type.kind() == TypeKind.VARCHAR) {
            return x;
        }
        ValueKind want = ValueKind.stored(type);
        if (x.kind() == want) {
            return x;
        }
        if (want == ValueKind.LONG && x.kind() == ValueKind.INT) {
            return new JExpr("((long) " + x.v() + ")", x.n(), ValueKind.LONG, null);
        }
        if (want == ValueKind.INT && x.kind() == ValueKind.LONG) {
            return new JExpr("Math.toIntExact(" + x.v() + ")", x.n(), ValueKind.INT, null);
        }
        if (want == ValueKind.DOUBLE && (x.kind() == ValueKind.INT || x.kind() == ValueKind.LONG)) {
            return new JExpr("((double) " + x.v() + ")", x.n(), ValueKind.DOUBLE, null);
        }
        return x;
    }

    private JExpr call(Expr.Call c) {
        return switch (c.op()) {
            case LOWER, UPPER -> {
                JExpr a = gen(c.args().get(0));
                yield JExpr.of("io.tessera.backend.jvm.lib.TextRuntime." + (c.op() == Op.LOWER ? "lower(" : "upper(") + asString(a)
                        + ")", a.n(), ValueKind.STRING);
            }
            case CONCAT -> {
                JExpr a = gen(c.args().get(0));
                JExpr b = gen(c.args().get(1));
                yield JExpr.of("(" + asString(a) + " + " + asString(b) + ")", or(a.n(), b.n()), ValueKind.STRING);
            }
            case ADD, SUB, MUL, DIV, MOD -> arithmetic(c);
            case NEG -> {
                JExpr a = convert(gen(c.args().get(0)), c.args().get(0).type(), c.type());
                String v = a.kind() == ValueKind.DOUBLE ? "(-" + a.v() + ")" : "Math.negateExact(" + a.v() + ")";
                yield JExpr.of(v, a.n(), a.kind());
            }
            case ABS -> {
                JExpr a = convert(gen(c.args().get(0)), c.args().get(0).type(), c.type());
                String v = a.kind() == ValueKind.DOUBLE ? "Math.abs(" + a.v() + ")" : "Math.absExact(" + a.v() + ")";
                yield JExpr.of(v, a.n(), a.kind());
            }
            case ROUND, ROUND_EVEN, FLOOR, CEIL, SIGN, TRUNC, SQRT, LN, EXP, POWER -> math.call(c);
            case NUMERIC -> numeric.call(c);
            case EQ, NE, LT, LE, GT, GE -> compare(c.op(), c.args().get(0), c.args().get(1));
            case IS_DISTINCT, IS_NOT_DISTINCT -> distinct(c);
            case AND, OR -> logic(c);
            case NOT -> {
                JExpr a = gen(c.args().get(0));
                yield JExpr.of("(!" + a.v() + ")", a.n(), ValueKind.BOOL);
            }
            case IS_NULL, IS_NOT_NULL, IS_TRUE, IS_NOT_TRUE, IS_FALSE, IS_NOT_FALSE -> isTest(c);
            case CASE -> caseWhen(c);
            case COALESCE -> coalesce(c);
            case GREATEST, LEAST -> extreme(c);
            case CAST -> convert(gen(c.args().get(0)), c.args().get(0).type(), c.type());
            case LIKE -> like(c);
            case IN_LIST -> inList(c);
            case EXTRACT -> text.extract(c);
            case FUNCTION -> text.call(c);
            case TEMPORAL -> temporal.call(c);
            case LIST -> lists.call(c);
            case LIST_LAMBDA -> lambdas.call(c);
            case LAMBDA_PARAMETER -> lambdas.parameter(c);
            case DATE_TRUNC -> text.dateTrunc(c);
            case DATE_ADD_DAYS -> {
                JExpr a = gen(c.args().get(0));
                JExpr n = gen(c.args().get(1));
                yield JExpr.of("io.tessera.backend.jvm.lib.Runtime.addDays(" + a.v() + ", " + n.v() + ")", or(a.n(), n.n()), ValueKind.INT);
            }
            case DATE_ADD_MONTHS -> {
                JExpr a = gen(c.args().get(0));
                JExpr n = gen(c.args().get(1));
                yield JExpr.of("io.tessera.backend.jvm.lib.Runtime.addMonths(" + a.v() + ", " + n.v() + ")", or(a.n(), n.n()), ValueKind.INT);
            }
            case TIMESTAMP_ADD_MICROS, TIMESTAMP_ADD_MONTHS -> {
                JExpr a = gen(c.args().get(0));
                JExpr n = gen(c.args().get(1));
                String f = c.op() == Op.TIMESTAMP_ADD_MICROS ? "Math.addExact(" : "io.tessera.backend.jvm.lib.TimestampRuntime.addMonths(";
                yield JExpr.of(f + a.v() + ", " + asLong(n) + ")", or(a.n(), n.n()), ValueKind.LONG);
            }
            case DATE_DIFF_DAYS -> {
                JExpr a = gen(c.args().get(0));
                JExpr b = gen(c.args().get(1));
                yield convert(JExpr.of("(" + a.v() + " - " + b.v() + ")", or(a.n(), b.n()), ValueKind.INT), DataType.INTEGER, c.type());
            }
        };
    }

    static String or(String a, String b) {
        if (a.equals("false")) {
            return b;
        }
        if (b.equals("false")) {
            return a;
        }
        return "(" + a + " || " + b + ")";
    }

    // ---- literals ----

    /** A literal as a constant bound at run time: its value never enters the source. */
    JExpr literal(Expr.Literal l) {
        DataType t = l.type();
        ValueKind k = t.kind() == TypeKind.VARCHAR ? ValueKind.STRING : ValueKind.stored(t);
        if (l.value() == null) {
            return JExpr.of(zero(k), "true", k);
        }
        Object v = l.value();
        Object value = switch (k) {
            case INT, LONG -> ((Number) v).longValue();
            case DOUBLE -> ((Number) v).doubleValue();
            case BOOL -> (Boolean) v;
            case STRING -> v.toString();
            case CODE -> throw new IllegalStateException();
        };
        if (k == ValueKind.INT && ((Long) value > Integer.MAX_VALUE || (Long) value < Integer.MIN_VALUE)) {
            k = ValueKind.LONG;
        }
        return JExpr.of(scope.constant(k, value), "false", k);
    }

    static String zero(ValueKind k) {
        return switch (k) {
            case INT, CODE -> "0";
            case LONG -> "0L";
            case DOUBLE -> "0.0d";
            case BOOL -> "false";
            case STRING -> "\"\"";
        };
    }

    // ---- numbers ----

    /** The Java kind in which values of this type are computed. */
    static ValueKind numericKind(DataType t) {
        return switch (t.kind()) {
            case INTEGER, DATE -> ValueKind.INT;
            case BIGINT, DECIMAL, TIMESTAMP, TIMESTAMP_TZ, TIME -> ValueKind.LONG;
            case DOUBLE -> ValueKind.DOUBLE;
            case BOOLEAN -> ValueKind.BOOL;
            case VARCHAR -> ValueKind.STRING;
        };
    }

    private JExpr arithmetic(Expr.Call c) {
        Expr a = c.args().get(0);
        Expr b = c.args().get(1);
        JExpr x = gen(a);
        JExpr y = gen(b);
        String n = or(x.n(), y.n());
        Arithmetic ar = lowered(() -> Arithmetic.of(c));
        switch (ar.domain()) {
            case DOUBLE -> {
                return JExpr.of("(" + toDouble(x, a.type()) + " " + ar.symbol() + " " + toDouble(y, b.type()) + ")", n, ValueKind.DOUBLE);
            }
            case DECIMAL_ADD -> {
                String xv = rescaled(asLong(x), ar.leftShift());
                String yv = rescaled(asLong(y), ar.rightShift());
                return JExpr.of("Math." + (c.op() == Op.ADD ? "add" : "subtract") + "Exact(" + xv + ", " + yv + ")", n, ValueKind.LONG);
            }
            case DECIMAL_MOD -> {
                String v = "io.tessera.backend.jvm.lib.Runtime.mod(" + rescaled(asLong(x), ar.leftShift()) + ", "
                        + rescaled(asLong(y), ar.rightShift()) + ")";
                return JExpr.of(n.equals("false") ? v : "(" + n + " ? 0L : " + v + ")", n, ValueKind.LONG);
            }
            case DECIMAL_MUL -> {
                return JExpr.of(rescaled("Math.multiplyExact(" + asLong(x) + ", " + asLong(y) + ")", ar.productShift()), n, ValueKind.LONG);
            }
            default -> {
                boolean isInt = ar.domain() == Arithmetic.Domain.INT;
                String xv = isInt ? asInt(x) : asLong(x);
                String yv = isInt ? asInt(y) : asLong(y);
                String v = switch (c.op()) {
                    case ADD -> "Math.addExact(" + xv + ", " + yv + ")";
                    case SUB -> "Math.subtractExact(" + xv + ", " + yv + ")";
                    case MUL -> "Math.multiplyExact(" + xv + ", " + yv + ")";
                    case DIV -> "io.tessera.backend.jvm.lib.Runtime.div(" + xv + ", " + yv + ")";
                    default -> "io.tessera.backend.jvm.lib.Runtime.mod(" + xv + ", " + yv + ")";
                };
                // a NULL operand's placeholder must not divide by zero
                if (ar.dividesExactly() && !n.equals("false")) {
                    v = "(" + n + " ? " + (isInt ? "0" : "0L") + " : " + v + ")";
                }
                return JExpr.of(v, n, isInt ? ValueKind.INT : ValueKind.LONG);
            }
        }
    }

    /** A decision of the shared lowering; what it cannot lower is an unsupported SQL construct here. */
    static <T> T lowered(java.util.function.Supplier<T> lowering) {
        try {
            return lowering.get();
        } catch (Unsupported u) {
            throw new SqlError("unsupported: " + u.getMessage());
        }
    }

    /** An unscaled long rescaled by a power of ten (none for 0). */
    static String rescaled(String v, int shift) {
        return shift == 0 ? v : "io.tessera.backend.jvm.lib.Runtime.rescale(" + v + ", " + shift + ")";
    }

    /** The scale of an exact numeric type ({@link Scale#of}). */
    static int scaleOf(DataType t) {
        return Scale.of(t);
    }

    static String asLong(JExpr x) {
        return x.kind() == ValueKind.LONG ? x.v() : "((long) " + x.v() + ")";
    }

    private static String asInt(JExpr x) {
        if (x.kind() == ValueKind.INT) {
            return x.v();
        }
        return "Math.toIntExact(" + x.v() + ")";
    }

    static String toDouble(JExpr x, DataType t) {
        long divisor = Scale.doubleDivisor(t);
        if (divisor != 0) {
            return "((double) " + x.v() + " / " + divisor + ".0d)";
        }
        return x.kind() == ValueKind.DOUBLE ? x.v() : "((double) " + x.v() + ")";
    }

    /** An exact numeric value as an unscaled long at scale s. */
    private static String rescaleTo(JExpr x, DataType t, int s) {
        return rescaled(asLong(x), Scale.shift(t, s));
    }

    // ---- comparisons ----

    private JExpr compare(Op op, Expr a, Expr b) {
        boolean literalFirst = a instanceof Expr.Literal && !(b instanceof Expr.Literal);
        Expr value = literalFirst ? b : a;
        Expr other = literalFirst ? a : b;
        JExpr v = gen(value);
        // a dictionary code against a string constant reads only the code or bound looked up in init: the
        // constant itself is not bound as a value of its own
        if (v.kind() == ValueKind.CODE && other instanceof Expr.Literal lit && lit.value() != null) {
            return JExpr.of(codeVsConstant(literalFirst ? op.mirrored() : op, v, lit.value().toString()), v.n(), ValueKind.BOOL);
        }
        JExpr o = gen(other);
        return literalFirst ? compare(op, a, b, o, v) : compare(op, a, b, v, o);
    }

    /** A comparison of a and b, whose values x and y were generated already. */
    private JExpr compare(Op op, Expr a, Expr b, JExpr x, JExpr y) {
        String n = or(x.n(), y.n());
        String jop = Comparison.symbol(op);
        Comparison cmp = Comparison.of(a.type(), b.type());
        String v = switch (cmp.domain()) {
            case STRING -> compareStrings(op, jop, x, y, a, b);
            case BOOLEAN -> "((" + x.v() + " ? 1 : 0) " + jop + " (" + y.v() + " ? 1 : 0))";
            case DOUBLE -> NanOrder.compare(op, toDouble(x, a.type()), toDouble(y, b.type()), NanOrder.mayBeNaN(a),
                    NanOrder.mayBeNaN(b), f -> "io.tessera.backend.jvm.lib.DoubleOrder.is" + f);
            case DECIMAL -> "(" + rescaleTo(x, a.type(), cmp.commonScale()) + " " + jop + " "
                    + rescaleTo(y, b.type(), cmp.commonScale()) + ")";
            case INTEGER -> "(" + x.v() + " " + jop + " " + y.v() + ")";
        };
        return JExpr.of(v, n, ValueKind.BOOL);
    }

    private String compareStrings(Op op, String jop, JExpr x, JExpr y, Expr a, Expr b) {
        if (x.kind() == ValueKind.CODE && b instanceof Expr.Literal lit && lit.value() != null) {
            return codeVsConstant(op, x, lit.value().toString());
        }
        if (y.kind() == ValueKind.CODE && a instanceof Expr.Literal lit && lit.value() != null) {
            return codeVsConstant(op.mirrored(), y, lit.value().toString());
        }
        if (x.kind() == ValueKind.CODE && y.kind() == ValueKind.CODE) {
            if (x.dict().equals(y.dict())) {
                return "(" + x.v() + " " + jop + " " + y.v() + ")";
            }
            String ranks = scope.field("int[][]", "io.tessera.backend.jvm.lib.Runtime.mergedRanks(" + scope.dictionary(x.dict())
                    + ", " + scope.dictionary(y.dict()) + ")", "ranks");
            return "(" + ranks + "[0][" + x.v() + "] " + jop + " " + ranks + "[1][" + y.v() + "])";
        }
        String sx = asString(x);
        String sy = asString(y);
        if (op == Op.EQ) {
            return sx + ".equals(" + sy + ")";
        }
        if (op == Op.NE) {
            return "!" + sx + ".equals(" + sy + ")";
        }
        // by code point, as dictionaries order strings (String.compareTo orders UTF-16 units)
        return "(io.tessera.storage.CodePointOrder.compare(" + sx + ", " + sy + ") " + jop + " 0)";
    }


    /** A code against a constant string, through the order-preserving dictionary: bounds computed once in init. */
    private String codeVsConstant(Op op, JExpr code, String constant) {
        String d = scope.dictionary(code.dict());
        String lit = scope.constantString(constant);
        DictionaryBound bound = DictionaryBound.of(op);
        String hint = switch (bound.lookup()) {
            case CODE -> "code";
            case LOWER_BOUND -> "lo";
            case UPPER_BOUND -> "hi";
        };
        return "(" + code.v() + " " + bound.symbol() + " " + scope.field("int", d + "." + bound.method() + "(" + lit + ")", hint) + ")";
    }

    /** A VARCHAR value as a Java String. */
    public String asString(JExpr x) {
        if (x.kind() == ValueKind.STRING) {
            return x.v();
        }
        if (x.kind() == ValueKind.CODE) {
            // a NULL's placeholder code may not exist in the dictionary
            String d = scope.dictionary(x.dict());
            return x.nullable() ? "(" + x.n() + " ? \"\" : " + d + ".value(" + x.v() + "))" : d + ".value(" + x.v() + ")";
        }
        throw new IllegalStateException("not a string: " + x);
    }

    /** IS [NOT] DISTINCT FROM: both sides are always evaluated, each once, into locals. */
    private JExpr distinct(Expr.Call c) {
        Expr a = c.args().get(0);
        Expr b = c.args().get(1);
        JExpr x = held(gen(a));
        JExpr y = held(gen(b));
        JExpr eq = compare(Op.EQ, a, b, x, y);
        String same = "((" + x.n() + " && " + y.n() + ") || (!" + x.n() + " && !" + y.n() + " && " + eq.v() + "))";
        return JExpr.of(c.op() == Op.IS_NOT_DISTINCT ? same : "(!" + same + ")", "false", ValueKind.BOOL);
    }

    // ---- logic ----

    /**
     * A value held in final locals when its text is more than a name or a constant: for code that reads it more than
     * once. It is evaluated here, where the code is now; a NULL's placeholder never fails (see {@link #guard}).
     */
    private JExpr held(JExpr x) {
        if (simple(x.v()) && simple(x.n())) {
            return x;
        }
        String v = x.v();
        if (!simple(v)) {
            v = scope.local("h");
            scope.statement("final " + JavaTypes.of(x.kind()) + " " + v + " = " + x.v() + ";");
        }
        String n = x.n();
        if (!simple(n)) {
            n = scope.local("hn");
            scope.statement("final boolean " + n + " = " + x.n() + ";");
        }
        return new JExpr(v, n, x.kind(), x.dict());
    }

    /** Loads every slot an expression reads before a block opens, so that no load is scoped inside one branch. */
    private void preload(Expr e) {
        List<io.tessera.plan.Slot> slots = new java.util.ArrayList<>();
        Expr.slots(e, slots);
        for (io.tessera.plan.Slot s : slots) {
            scope.slot(s);
        }
    }

    /**
     * Whether {@code e}, generated as {@code x}, compares two names or constants and cannot fail: cheaper to evaluate
     * than to branch around.
     */
    private static boolean comparisonAtHand(Expr e, JExpr x) {
        if (!(e instanceof Expr.Call c) || !io.tessera.plan.PipelineAnalysis.cannotFail(c)) {
            return false;
        }
        switch (c.op()) {
            case EQ, NE, LT, LE, GT, GE -> {
            }
            default -> {
                return false;
            }
        }
        String v = x.v();
        if (!v.startsWith("(") || !v.endsWith(")")) {
            return false;
        }
        String[] sides = v.substring(1, v.length() - 1).split(" (==|!=|<=|>=|<|>) ", -1);
        return sides.length == 2 && simple(sides[0]) && simple(sides[1]);
    }

    /** A Java name or literal word: reading it again costs nothing and repeats no text. */
    private static boolean simple(String text) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (!Character.isLetterOrDigit(c) && c != '_' && c != '.') {
                return false;
            }
        }
        return !text.isEmpty();
    }

    // ---- logic ----

    /**
     * AND and OR in three-valued logic. When both sides are plain expressions that cannot be NULL, Java's own
     * short-circuit operator; otherwise the left side is held in locals, and the right side is evaluated only where
     * the left one does not decide (not FALSE for AND, not TRUE for OR).
     */
    private JExpr logic(Expr.Call c) {
        Logic.Connective k = Logic.Connective.of(c.op());
        // the negation that makes a side's value "does not decide": "" for AND (not FALSE), "!" for OR (not TRUE)
        String undecided = k.decisive ? "!" : "";
        preload(c);
        JExpr a = gen(c.args().get(0));
        int mark = scope.mark();
        JExpr b = gen(c.args().get(1));
        String bStatements = scope.cut(mark);
        if (bStatements.isEmpty() && !a.nullable() && !b.nullable()) {
            // a comparison of values at hand on the right is evaluated whatever the left gives (& and |, not && and
            // ||): one branch where the filter tests the whole, none to mispredict per side (a range's two ends)
            String symbol = comparisonAtHand(c.args().get(1), b) ? k.symbol.substring(1) : k.symbol;
            return JExpr.of("(" + a.v() + " " + symbol + " " + b.v() + ")", "false", ValueKind.BOOL);
        }
        a = held(a);
        String rv = scope.local(k.name().toLowerCase(java.util.Locale.ROOT));
        String rn = rv + "_null";
        scope.statement("boolean " + rv + " = " + k.decisive + ";");
        scope.statement("boolean " + rn + " = false;");
        // AND: FALSE when the left side is FALSE; OR: TRUE when it is TRUE
        scope.open("if (" + a.n() + " || " + undecided + a.v() + ")");
        scope.paste(bStatements);
        b = held(b);
        scope.open("if (" + b.n() + " || " + undecided + b.v() + ")");
        // neither side decides: the other value (TRUE for AND, FALSE for OR), NULL when a side is NULL
        scope.statement(rv + " = " + (k.decisive ? "false" : "!" + a.n() + " && !" + b.n()) + ";");
        scope.statement(rn + " = " + or(a.n(), b.n()) + ";");
        scope.close();
        scope.close();
        return JExpr.of(rv, rn, ValueKind.BOOL);
    }

    /** IS [NOT] NULL / TRUE / FALSE: never NULL; the lowering says what NULL and a value give. */
    private JExpr isTest(Expr.Call c) {
        JExpr a = gen(c.args().get(0));
        Logic.Test t = Logic.test(c.op());
        String v = switch (t.onValue()) {
            case FALSE -> t.onNull() ? a.n() : "false";
            case TRUE -> t.onNull() ? "true" : "(!" + a.n() + ")";
            case VALUE -> t.onNull() ? "(" + a.n() + " || " + a.v() + ")" : a.isTrue();
            case NEGATED -> t.onNull() ? "(!" + a.isTrue() + ")" : "(!" + a.n() + " && !" + a.v() + ")";
        };
        return JExpr.of(v, "false", ValueKind.BOOL);
    }

    /**
     * CASE as statements: each WHEN is evaluated only when the ones before it did not hold, each THEN only when its
     * WHEN holds, into a result held in two locals.
     */
    private JExpr caseWhen(Expr.Call c) {
        List<Expr> args = c.args();
        DataType t = c.type();
        int pairs = (args.size() - 1) / 2;
        preload(c);
        // VARCHAR results stay codes when every branch is a code of one dictionary (checked on the plan: a branch
        // is a code when it is a dictionary column or a CASE of such)
        String dict = t.kind() == TypeKind.VARCHAR ? commonDictionary(c) : null;
        ValueKind k = dict != null ? ValueKind.CODE : t.kind() == TypeKind.VARCHAR ? ValueKind.STRING : ValueKind.stored(t);
        String rv = scope.local("case");
        String rn = rv + "_null";
        scope.statement(JavaTypes.of(k) + " " + rv + " = " + zero(k) + ";");
        scope.statement("boolean " + rn + " = true;");
        for (int i = 0; i < pairs; i++) {
            String when = gen(args.get(2 * i)).isTrue();
            scope.open("if (" + when + ")");
            assign(rv, rn, args.get(2 * i + 1), t, dict);
            scope.reopen("else");
        }
        assign(rv, rn, args.get(args.size() - 1), t, dict);
        for (int i = 0; i < pairs; i++) {
            scope.close();
        }
        return new JExpr(rv, rn, k, dict);
    }

    /** Emits {@code rv = value; rn = null;} for one branch of a CASE or COALESCE. */
    private void assign(String rv, String rn, Expr branch, DataType type, String dict) {
        JExpr x = gen(branch);
        if (dict == null) {
            x = convert(x, branch.type(), type);
        }
        if (x.kind() == ValueKind.CODE && dict == null) {
            x = JExpr.of(asString(x), x.n(), ValueKind.STRING);
        }
        if (!(branch instanceof Expr.Literal l && l.value() == null)) {
            scope.statement(rv + " = " + x.v() + ";");
        }
        scope.statement(rn + " = " + x.n() + ";");
    }

    /**
     * The one dictionary whose codes every non-NULL branch of a VARCHAR CASE is, or null: then the result is a code
     * of that dictionary too (so it can be grouped and compared as codes).
     */
    private String commonDictionary(Expr.Call c) {
        List<Expr> args = c.args();
        int pairs = (args.size() - 1) / 2;
        String dict = null;
        for (int i = 0; i <= pairs; i++) {
            Expr src = i < pairs ? args.get(2 * i + 1) : args.get(args.size() - 1);
            if (src instanceof Expr.Literal l && l.value() == null) {
                continue;
            }
            String d = dictionaryOf(src);
            if (d == null || (dict != null && !dict.equals(d))) {
                return null;
            }
            dict = d;
        }
        return dict;
    }

    /** The dictionary of a VARCHAR expression whose values are codes (a dictionary column, or a CASE of them). */
    private String dictionaryOf(Expr e) {
        if (e instanceof Expr.Ref r) {
            JExpr x = scope.slot(r.slot());
            return x.kind() == ValueKind.CODE ? x.dict() : null;
        }
        if (e instanceof Expr.Call c && c.op() == Op.CASE && c.type().kind() == TypeKind.VARCHAR) {
            return commonDictionary(c);
        }
        if (e instanceof Expr.Call c && c.op() == Op.CAST && c.args().get(0).type().kind() == TypeKind.VARCHAR) {
            return dictionaryOf(c.args().get(0));
        }
        return null;
    }

    /** COALESCE as statements: each argument is evaluated only when the ones before it were NULL. */
    private JExpr coalesce(Expr.Call c) {
        DataType t = c.type();
        List<Expr> args = c.args();
        ValueKind k = t.kind() == TypeKind.VARCHAR ? ValueKind.STRING : ValueKind.stored(t);
        preload(c);
        String rv = scope.local("coalesce");
        String rn = rv + "_null";
        scope.statement(JavaTypes.of(k) + " " + rv + " = " + zero(k) + ";");
        scope.statement("boolean " + rn + " = true;");
        for (int i = 0; i < args.size(); i++) {
            if (i > 0) {
                scope.open("if (" + rn + ")");
            }
            assign(rv, rn, args.get(i), t, null);
        }
        for (int i = 1; i < args.size(); i++) {
            scope.close();
        }
        return JExpr.of(rv, rn, k);
    }

    /**
     * GREATEST and LEAST as statements: each argument evaluated once, in order, into a result held in two locals that
     * a later argument replaces where it is not NULL and beats it (an INTERVAL in DuckDB's order there, by its parts).
     */
    private JExpr extreme(Expr.Call c) {
        DataType t = c.type();
        ValueKind k = t.kind() == TypeKind.VARCHAR ? ValueKind.STRING : ValueKind.stored(t);
        preload(c);
        String rv = scope.local(c.op() == Op.GREATEST ? "greatest" : "least");
        String rn = rv + "_null";
        scope.statement(JavaTypes.of(k) + " " + rv + " = " + zero(k) + ";");
        scope.statement("boolean " + rn + " = true;");
        JExpr result = JExpr.of(rv, rn, k);
        Expr typed = new Expr.Literal(null, t); // the result's type, for the comparison's rules
        for (Expr a : c.args()) {
            JExpr x = convert(gen(a), a.type(), t);
            if (x.kind() == ValueKind.CODE) {
                x = JExpr.of(asString(x), x.n(), ValueKind.STRING);
            }
            x = held(x);
            String beats = t.isInterval()
                    ? "(io.tessera.backend.jvm.lib.IntervalRuntime.partsOrder(" + x.v() + ", " + rv + ") "
                    + (c.op() == Op.GREATEST ? ">" : "<") + " 0)"
                    : t.kind() == TypeKind.DOUBLE ? NanOrder.compare(c.op() == Op.GREATEST ? Op.GT : Op.LT, x.v(), rv, true,
                    true, f -> "io.tessera.backend.jvm.lib.DoubleOrder.is" + f)
                    : compare(c.op() == Op.GREATEST ? Op.GT : Op.LT, typed, typed, x, result).v();
            scope.open("if (!" + x.n() + " && (" + rn + " || " + beats + "))");
            scope.statement(rv + " = " + x.v() + ";");
            scope.statement(rn + " = false;");
            scope.close();
        }
        return result;
    }

    /**
     * {@code x IN (constants)} as one lookup: a mask over the dictionary's codes, a hash set of strings, or a binary
     * search in a sorted array of numbers; the constants are bound at run time like every other.
     */
    private JExpr inList(Expr.Call c) {
        JExpr x = gen(c.args().get(0));
        List<?> values = (List<?>) c.detail();
        String test = switch (x.kind()) {
            case CODE -> {
                String set = scope.constantObject("String[]", values.stream().map(String.class::cast).toArray(String[]::new));
                String mask = scope.field("boolean[]", "io.tessera.backend.jvm.lib.Runtime.inMask("
                        + scope.dictionary(x.dict()) + ", " + set + ")", "in");
                yield mask + "[" + x.v() + "]";
            }
            case STRING -> scope.constantObject("java.util.Set", java.util.Set.copyOf(values)) + ".contains(" + x.v() + ")";
            case INT, LONG -> {
                long[] sorted = values.stream().mapToLong(v -> (Long) v).sorted().toArray();
                yield "(java.util.Arrays.binarySearch(" + scope.constantObject("long[]", sorted) + ", (long) " + x.v() + ") >= 0)";
            }
            case DOUBLE -> {
                // sorted and searched in Double.compare's order, in which NaN equals NaN; -0.0 as 0.0 on both sides
                double[] sorted = values.stream().mapToDouble(v -> (Double) v + 0.0d).sorted().toArray();
                yield "(java.util.Arrays.binarySearch(" + scope.constantObject("double[]", sorted) + ", " + x.v()
                        + " + 0.0d) >= 0)";
            }
            case BOOL -> throw new IllegalStateException("an IN list of booleans");
        };
        return JExpr.of(x.nullable() ? "(!" + x.n() + " && " + test + ")" : test, x.n(), ValueKind.BOOL);
    }

    private JExpr like(Expr.Call c) {
        JExpr a = gen(c.args().get(0));
        String regex = scope.constantString((String) c.detail());
        if (a.kind() == ValueKind.CODE) {
            String mask = scope.field("boolean[]", "io.tessera.backend.jvm.lib.Runtime.likeMask(" + scope.dictionary(a.dict())
                    + ", " + regex + ")", "like");
            return JExpr.of("(" + a.n() + " ? false : " + mask + "[" + a.v() + "])", a.n(), ValueKind.BOOL);
        }
        String p = scope.field("java.util.regex.Pattern", "java.util.regex.Pattern.compile(" + regex
                + ", java.util.regex.Pattern.DOTALL)", "pattern");
        return JExpr.of(p + ".matcher(" + asString(a) + ").matches()", a.n(), ValueKind.BOOL);
    }

    // ---- conversions ----

    /** Converts a value of SQL type {@code from} to SQL type {@code to} (CAST, and implicit widening): {@link JavaCasts}. */
    JExpr convert(JExpr x, DataType from, DataType to) {
        return casts.convert(x, from, to);
    }

    static final String RUNTIME = "io.tessera.backend.jvm.lib.Runtime.";

    /** Keeps a NULL's placeholder from reaching a conversion that could fail on it. */
    static String guard(String n, String v, ValueKind k) {
        return n.equals("false") ? v : "(" + n + " ? " + zero(k) + " : " + v + ")";
    }
}

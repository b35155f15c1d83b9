package io.tessera.backend.jvm.gen;

import io.tessera.backend.ValueKind;
import io.tessera.plan.Expr;
import io.tessera.plan.ListFunction;
import io.tessera.storage.DataType;
import io.tessera.storage.TypeKind;

import java.util.ArrayList;
import java.util.List;

/**
 * The LIST functions ({@link io.tessera.plan.Op#LIST}) as Java: a list is a String (a dictionary code where it was
 * stored), its elements encoded by {@link io.tessera.storage.ListCodec}; each function a call of
 * {@link io.tessera.backend.jvm.lib.ListRuntime}, made only on a non-NULL list.
 */
final class ListFunctions {

    private static final String LIST = "io.tessera.backend.jvm.lib.ListRuntime.";

    private final ExprGen.Scope scope;
    private final ExprGen gen;

    ListFunctions(ExprGen.Scope scope, ExprGen gen) {
        this.scope = scope;
        this.gen = gen;
    }

    JExpr call(Expr.Call c) {
        ListFunction f = (ListFunction) c.detail();
        return switch (f) {
            case VALUE -> value(c);
            case LENGTH -> {
                JExpr l = gen.gen(c.args().get(0));
                yield JExpr.of(ExprGen.guard(l.n(), LIST + "length(" + gen.asString(l) + ")", ValueKind.LONG), l.n(),
                        ValueKind.LONG);
            }
            case ELEMENT -> element(c);
            case AGGREGATE -> {
                // the aggregate's name a bound value, the elements' kind and scale from the list's type
                JExpr l = gen.gen(c.args().get(0));
                DataType element = c.args().get(0).type().element();
                String name = scope.constant(ValueKind.STRING, ((Expr.Literal) c.args().get(1)).value());
                String text = "io.tessera.backend.jvm.lib.ListAggregateRuntime.aggregate(" + gen.asString(l) + ", "
                        + name + ", " + (element.kind() == TypeKind.DOUBLE) + ", "
                        + (element.kind() == TypeKind.DECIMAL ? element.scale() : 0) + ")";
                yield element(c, l.n().equals("false") ? text : "(" + l.n() + " ? (String) null : " + text + ")");
            }
            case FLATTEN -> {
                JExpr l = gen.gen(c.args().get(0));
                yield JExpr.of(ExprGen.guard(l.n(), LIST + "flatten(" + gen.asString(l) + ")", ValueKind.STRING),
                        l.n(), ValueKind.STRING);
            }
            case CONTAINS -> {
                JExpr l = gen.gen(c.args().get(0));
                JExpr x = gen.gen(c.args().get(1));
                String n = ExprGen.or(l.n(), x.n());
                DataType element = c.args().get(0).type().element();
                // an element with an INTERVAL inside found by its order key, whose intervals are their lengths
                String v = io.tessera.storage.ListOrder.equalByKey(element)
                        ? LIST + "containsEqual(" + gen.asString(l) + ", " + text(x) + ", "
                        + scope.constantObject("io.tessera.storage.DataType", element) + ")"
                        : LIST + "contains(" + gen.asString(l) + ", " + text(x) + ")";
                yield JExpr.of(ExprGen.guard(n, v, ValueKind.BOOL), n, ValueKind.BOOL);
            }
            case POSITION -> {
                JExpr l = gen.gen(c.args().get(0));
                JExpr x = gen.gen(c.args().get(1));
                DataType element = c.args().get(0).type().element();
                // a NULL value looks for a NULL element; equal by the order key where an INTERVAL is inside
                String sought = x.n().equals("false") ? text(x) : "(" + x.n() + " ? (String) null : " + text(x) + ")";
                String v = LIST + "position(" + gen.asString(l) + ", " + sought + ", "
                        + (io.tessera.storage.ListOrder.equalByKey(element)
                        ? scope.constantObject("io.tessera.storage.DataType", element) : "null") + ")";
                yield element(c, l.n().equals("false") ? v : "(" + l.n() + " ? (String) null : " + v + ")");
            }
            case HAS_ANY, HAS_ALL -> {
                JExpr l = gen.gen(c.args().get(0));
                JExpr o = gen.gen(c.args().get(1));
                String n = ExprGen.or(l.n(), o.n());
                String v = LIST + (f == ListFunction.HAS_ANY ? "hasAny(" : "hasAll(") + gen.asString(l) + ", "
                        + gen.asString(o) + ")";
                yield JExpr.of(ExprGen.guard(n, v, ValueKind.BOOL), n, ValueKind.BOOL);
            }
            case INTERSECT -> {
                JExpr l = gen.gen(c.args().get(0));
                Expr b = c.args().get(1);
                String other;
                if (b instanceof Expr.Literal lit && lit.value() == null) {
                    other = "(String) null";
                } else {
                    JExpr o = gen.gen(b);
                    other = o.n().equals("false") ? gen.asString(o)
                            : "(" + o.n() + " ? (String) null : " + gen.asString(o) + ")";
                }
                String v = LIST + "intersect(" + gen.asString(l) + ", " + other + ")";
                yield JExpr.of(ExprGen.guard(l.n(), v, ValueKind.STRING), l.n(), ValueKind.STRING);
            }
            case UNIQUE -> {
                JExpr l = gen.gen(c.args().get(0));
                yield JExpr.of(ExprGen.guard(l.n(), LIST + "unique(" + gen.asString(l) + ")", ValueKind.LONG), l.n(),
                        ValueKind.LONG);
            }
            case JOIN -> {
                JExpr l = gen.gen(c.args().get(0));
                JExpr sep = gen.gen(c.args().get(1));
                boolean empty = (Boolean) ((Expr.Literal) c.args().get(2)).value();
                String n = ExprGen.or(l.n(), sep.n());
                String v = LIST + "join(" + gen.asString(l) + ", " + gen.asString(sep) + ", " + empty + ")";
                yield element(c, n.equals("false") ? v : "(" + n + " ? (String) null : " + v + ")");
            }
            case ORDER_KEY -> order(c, "orderKey", c.args().get(0).type());
            case FROM_ORDER_KEY -> order(c, "fromOrderKey", c.type());
            case CODE -> {
                JExpr x = gen.gen(c.args().get(0));
                yield JExpr.of(gen.asString(x), x.n(), ValueKind.STRING);
            }
            case FROM_TEXT -> {
                JExpr x = gen.gen(c.args().get(0));
                // the LIST or STRUCT type, which says how each part reads, and the session's zone (a TIMESTAMP WITH
                // TIME ZONE inside without an offset is read on its clock), bound constants; the text a value
                String type = scope.constantObject("io.tessera.storage.DataType", c.type());
                String zone = scope.constantObject("java.time.ZoneId", zone(c));
                String v = LIST + "fromText(" + gen.asString(x) + ", " + type + ", " + zone + ")";
                yield JExpr.of(ExprGen.guard(x.n(), v, ValueKind.STRING), x.n(), ValueKind.STRING);
            }
            case EQUALITY_HASH -> {
                JExpr x = gen.gen(c.args().get(0));
                String type = scope.constantObject("io.tessera.storage.DataType", c.args().get(0).type());
                String v = LIST + "equalityHash(" + gen.asString(x) + ", " + type + ")";
                yield JExpr.of(ExprGen.guard(x.n(), v, ValueKind.LONG), x.n(), ValueKind.LONG);
            }
            case TEXT -> {
                JExpr x = gen.gen(c.args().get(0));
                // the type, which names the fields, a bound constant
                String type = scope.constantObject("io.tessera.storage.DataType", c.args().get(0).type());
                // a TIMESTAMP WITH TIME ZONE inside is written in the session's zone, a bound constant
                String zone = scope.constantObject("java.time.ZoneId", zone(c));
                String v = LIST + "display(" + gen.asString(x) + ", " + type + ", " + zone + ")";
                yield JExpr.of(ExprGen.guard(x.n(), v, ValueKind.STRING), x.n(), ValueKind.STRING);
            }
            case STRUCT_ELEMENTS -> {
                JExpr x = gen.gen(c.args().get(0));
                // both element types, which name the fields, bound constants
                String from = scope.constantObject("io.tessera.storage.DataType", c.args().get(0).type().element());
                String to = scope.constantObject("io.tessera.storage.DataType", c.type().element());
                String v = LIST + "structElements(" + gen.asString(x) + ", " + from + ", " + to + ")";
                yield JExpr.of(ExprGen.guard(x.n(), v, ValueKind.STRING), x.n(), ValueKind.STRING);
            }
            case RANGE, GENERATE_SERIES -> {
                JExpr start = gen.gen(c.args().get(0));
                JExpr stop = gen.gen(c.args().get(1));
                JExpr step = gen.gen(c.args().get(2));
                String n = ExprGen.or(ExprGen.or(start.n(), stop.n()), step.n());
                String v = LIST + "series(" + ExprGen.asLong(start) + ", " + ExprGen.asLong(stop) + ", "
                        + ExprGen.asLong(step) + ", " + (f == ListFunction.GENERATE_SERIES) + ")";
                yield JExpr.of(ExprGen.guard(n, v, ValueKind.STRING), n, ValueKind.STRING);
            }
            case CAST -> {
                JExpr x = gen.gen(c.args().get(0));
                // the conversion, made once from both types (which name the fields), a bound constant
                io.tessera.backend.jvm.lib.NestedCast cast = ExprGen.lowered(
                        () -> io.tessera.backend.jvm.lib.NestedCast.of(c.args().get(0).type(), c.type(), zone(c)));
                String k = scope.constantObject("io.tessera.backend.jvm.lib.NestedCast", cast);
                String v = k + ".apply(" + gen.asString(x) + ")";
                yield JExpr.of(ExprGen.guard(x.n(), v, ValueKind.STRING), x.n(), ValueKind.STRING);
            }
            case TRY_CAST -> {
                JExpr x = gen.gen(c.args().get(0));
                // the CAST's conversion of the value's text, made once, a bound constant; a failure is NULL (inside
                // a list or struct, the element's or field's)
                io.tessera.backend.jvm.lib.NestedCast cast = ExprGen.lowered(
                        () -> io.tessera.backend.jvm.lib.NestedCast.tried(c.args().get(0).type(), c.type(), zone(c)));
                String k = scope.constantObject("io.tessera.backend.jvm.lib.NestedCast", cast);
                String tried = k + ".tryApply(" + text(x) + ")";
                yield element(c, x.n().equals("false") ? tried : "(" + x.n() + " ? (String) null : " + tried + ")");
            }
            case SORT -> reordered(c, "sortAscending");
            case REVERSE_SORT -> reordered(c, "sortDescending");
            case DISTINCT -> reordered(c, "distinct");
            case REVERSE -> reordered(c, "reverse");
            case SLICE -> {
                JExpr x = gen.gen(c.args().get(0));
                JExpr begin = gen.gen(c.args().get(1));
                JExpr end = gen.gen(c.args().get(2));
                JExpr step = gen.gen(c.args().get(3));
                String n = ExprGen.or(ExprGen.or(x.n(), begin.n()), ExprGen.or(end.n(), step.n()));
                String of = c.args().get(0).type().isList() ? "list(" : "text(";
                String v = "io.tessera.backend.jvm.lib.Slices." + of + gen.asString(x) + ", " + ExprGen.asLong(begin)
                        + ", " + ExprGen.asLong(end) + ", " + ExprGen.asLong(step) + ")";
                yield JExpr.of(ExprGen.guard(n, v, ValueKind.STRING), n, ValueKind.STRING);
            }
            case ZIP -> {
                // the lists, a NULL one as null (empty); the truncate flag a BOOLEAN constant of the plan
                List<String> nulls = new ArrayList<>();
                List<String> lists = argumentsOr("(String) null", c.args().subList(0, c.args().size() - 1), nulls);
                boolean truncate = Boolean.TRUE.equals(((Expr.Literal) c.args().getLast()).value());
                yield JExpr.of(PICK + "zip(new String[] {" + String.join(", ", lists) + "}, " + truncate + ")",
                        "false", ValueKind.STRING);
            }
            case SELECT, WHERE -> {
                JExpr l = gen.gen(c.args().get(0));
                JExpr by = gen.gen(c.args().get(1));
                String n = ExprGen.or(l.n(), by.n());
                String v = PICK + (f == ListFunction.SELECT ? "select(" : "where(") + gen.asString(l) + ", "
                        + gen.asString(by) + ")";
                yield JExpr.of(ExprGen.guard(n, v, ValueKind.STRING), n, ValueKind.STRING);
            }
            case GRADE_UP -> {
                JExpr l = gen.gen(c.args().get(0));
                // the element type, which says how elements compare, a bound constant; the orders plan constants
                String type = scope.constantObject("io.tessera.storage.DataType", c.args().get(0).type());
                String v = PICK + "gradeUp(" + gen.asString(l) + ", " + type + ", "
                        + ((Expr.Literal) c.args().get(1)).value() + ", " + ((Expr.Literal) c.args().get(2)).value()
                        + ")";
                yield JExpr.of(ExprGen.guard(l.n(), v, ValueKind.STRING), l.n(), ValueKind.STRING);
            }
            case RESIZE -> {
                JExpr l = gen.gen(c.args().get(0));
                JExpr size = gen.gen(c.args().get(1));
                Expr fillArg = c.args().get(2);
                String fill = "(String) null";
                if (!(fillArg instanceof Expr.Literal lit && lit.value() == null)) {
                    JExpr x = gen.gen(fillArg);
                    fill = x.nullable() ? "(" + x.n() + " ? (String) null : " + text(x) + ")" : text(x);
                }
                // a NULL size gives the empty list, as a size of 0
                String size0 = size.n().equals("false") ? ExprGen.asLong(size)
                        : "(" + size.n() + " ? 0L : " + ExprGen.asLong(size) + ")";
                String v = PICK + "resize(" + gen.asString(l) + ", " + size0 + ", " + fill + ")";
                yield JExpr.of(ExprGen.guard(l.n(), v, ValueKind.STRING), l.n(), ValueKind.STRING);
            }
            case DISTANCE -> {
                JExpr a = gen.gen(c.args().get(0));
                JExpr b = gen.gen(c.args().get(1));
                // the measure's name a bound value
                String measure = scope.constant(ValueKind.STRING, ((Expr.Literal) c.args().get(2)).value());
                String n = ExprGen.or(a.n(), b.n());
                String v = PICK + "distance(" + gen.asString(a) + ", " + gen.asString(b) + ", " + measure + ")";
                yield JExpr.of(ExprGen.guard(n, v, ValueKind.DOUBLE), n, ValueKind.DOUBLE);
            }
            case MAP_CHECK -> {
                JExpr x = gen.gen(c.args().get(0));
                String v = MAP + "checked(" + gen.asString(x) + ", " + type(c.type()) + ")";
                yield JExpr.of(ExprGen.guard(x.n(), v, ValueKind.STRING), x.n(), ValueKind.STRING);
            }
            case MAP_OF_LISTS -> {
                JExpr k = gen.gen(c.args().get(0));
                JExpr v = gen.gen(c.args().get(1));
                String n = ExprGen.or(k.n(), v.n());
                String m = MAP + "ofLists(" + gen.asString(k) + ", " + gen.asString(v) + ", " + type(c.type()) + ")";
                yield JExpr.of(ExprGen.guard(n, m, ValueKind.STRING), n, ValueKind.STRING);
            }
            case MAP_GET -> {
                JExpr m = gen.gen(c.args().get(0));
                String key = keyText(c.args().get(1));
                String at = MAP + "value(" + gen.asString(m) + ", " + key + ", " + type(c.args().get(0).type()) + ")";
                yield element(c, m.n().equals("false") ? at : "(" + m.n() + " ? (String) null : " + at + ")");
            }
            case MAP_EXTRACT -> {
                JExpr m = gen.gen(c.args().get(0));
                String key = keyText(c.args().get(1));
                String v = MAP + "extract(" + gen.asString(m) + ", " + key + ", " + type(c.args().get(0).type()) + ")";
                yield JExpr.of(ExprGen.guard(m.n(), v, ValueKind.STRING), m.n(), ValueKind.STRING);
            }
            case MAP_KEYS, MAP_VALUES -> {
                JExpr m = gen.gen(c.args().get(0));
                String v = MAP + "parts(" + gen.asString(m) + ", " + (f == ListFunction.MAP_KEYS ? 1 : 2) + ")";
                yield JExpr.of(ExprGen.guard(m.n(), v, ValueKind.STRING), m.n(), ValueKind.STRING);
            }
            case CONCAT -> {
                // the lists' encodings one after another, a NULL list as none; NULL only where all are
                List<String> nulls = new ArrayList<>();
                List<String> lists = argumentsOr("\"\"", c.args(), nulls);
                String n = !c.nullable() ? "false" : allNull(nulls);
                String v = "(" + String.join(" + ", lists) + ")";
                yield JExpr.of(ExprGen.guard(n, v, ValueKind.STRING), n, ValueKind.STRING);
            }
            case MAP_CONCAT -> {
                // the maps, a NULL one as null; NULL only where all are
                List<String> nulls = new ArrayList<>();
                List<String> maps = argumentsOr("(String) null", c.args(), nulls);
                String n = allNull(nulls);
                String v = MAP + "concat(new String[] {" + String.join(", ", maps) + "}, " + type(c.type()) + ")";
                yield JExpr.of(ExprGen.guard(n, v, ValueKind.STRING), n, ValueKind.STRING);
            }
            case MAP_CONTAINS -> {
                JExpr m = gen.gen(c.args().get(0));
                JExpr k = gen.gen(c.args().get(1));
                String n = ExprGen.or(m.n(), k.n());
                String v = MAP + "contains(" + gen.asString(m) + ", " + text(k) + ", " + type(c.args().get(0).type())
                        + ")";
                yield JExpr.of(ExprGen.guard(n, v, ValueKind.BOOL), n, ValueKind.BOOL);
            }
        };
    }

    private static final String MAP = "io.tessera.backend.jvm.lib.MapRuntime.";
    private static final String PICK = "io.tessera.backend.jvm.lib.ListSelectRuntime.";

    /** A type the run-time call reads (a map's key type, which says how keys equal), a bound constant. */
    private String type(DataType t) {
        return scope.constantObject("io.tessera.storage.DataType", t);
    }

    /** A key's canonical text, or null where it is NULL. */
    private String keyText(Expr key) {
        if (key instanceof Expr.Literal l && l.value() == null) {
            return "(String) null";
        }
        JExpr k = gen.gen(key);
        return k.nullable() ? "(" + k.n() + " ? (String) null : " + text(k) + ")" : text(k);
    }

    /**
     * A list reordered: its element type, which says how elements compare, a bound constant; a sort's second
     * argument, whether NULLs come first, a BOOLEAN constant of the plan.
     */
    private JExpr reordered(Expr.Call c, String method) {
        JExpr x = gen.gen(c.args().get(0));
        String type = scope.constantObject("io.tessera.storage.DataType", c.args().get(0).type());
        String nullsFirst = c.args().size() > 1
                ? ", " + Boolean.TRUE.equals(((Expr.Literal) c.args().get(1)).value()) : "";
        String v = LIST + method + "(" + gen.asString(x) + ", " + type + nullsFirst + ")";
        return JExpr.of(ExprGen.guard(x.n(), v, ValueKind.STRING), x.n(), ValueKind.STRING);
    }

    /**
     * The session's time zone a CAST, TEXT or FROM_TEXT call carries as its second argument where a TIMESTAMP WITH TIME ZONE is
     * inside (plan.ZonedCalls); UTC where it carries none.
     */
    /**
     * Each argument's string, {@code whereNull} where the argument is NULL; each argument's NULL condition added to
     * {@code nulls}.
     */
    private List<String> argumentsOr(String whereNull, List<Expr> args, List<String> nulls) {
        List<String> out = new ArrayList<>();
        for (Expr a : args) {
            JExpr x = gen.gen(a);
            out.add(x.n().equals("false") ? gen.asString(x) : "(" + x.n() + " ? " + whereNull + " : " + gen.asString(x) + ")");
            nulls.add(x.n());
        }
        return out;
    }

    /** The condition that every one of these NULL conditions holds. */
    private static String allNull(List<String> nulls) {
        return nulls.contains("false") ? "false" : "(" + String.join(" && ", nulls) + ")";
    }

    private static java.time.ZoneId zone(Expr.Call c) {
        return c.args().size() > 1 && c.args().get(1) instanceof Expr.Literal z && z.value() != null
                ? io.tessera.storage.ZonedTimestamps.zone(z.value().toString()) : java.time.ZoneOffset.UTC;
    }

    /** A list's order key, or the list of one: a String, NULL where the argument is. */
    private JExpr order(Expr.Call c, String method, DataType nested) {
        JExpr x = gen.gen(c.args().get(0));
        // the LIST or STRUCT type, which says how each part reads, a bound constant
        String type = scope.constantObject("io.tessera.storage.DataType", nested);
        String v = LIST + method + "(" + gen.asString(x) + ", " + type + ")";
        return JExpr.of(ExprGen.guard(x.n(), v, ValueKind.STRING), x.n(), ValueKind.STRING);
    }

    /** The list of the arguments: each one's text, or null for a NULL. Never NULL itself. */
    private JExpr value(Expr.Call c) {
        List<String> texts = new ArrayList<>();
        for (Expr a : c.args()) {
            if (a instanceof Expr.Literal l && l.value() == null) {
                texts.add("(String) null");
                continue;
            }
            JExpr x = gen.gen(a);
            texts.add(x.nullable() ? "(" + x.n() + " ? (String) null : " + text(x) + ")" : text(x));
        }
        return JExpr.of(LIST + "of(new String[] {" + String.join(", ", texts) + "})", "false", ValueKind.STRING);
    }

    /** An element's text held in a local (null: NULL), then its value as the element type's Java kind. */
    private JExpr element(Expr.Call c) {
        JExpr l = gen.gen(c.args().get(0));
        JExpr i = gen.gen(c.args().get(1));
        String n = ExprGen.or(l.n(), i.n());
        String at = LIST + "textAt(" + gen.asString(l) + ", " + ExprGen.asLong(i) + ")";
        return element(c, n.equals("false") ? at : "(" + n + " ? (String) null : " + at + ")");
    }

    /** An element's text, from {@code text} (null: NULL), held in a local, then its value as the call's type. */
    private JExpr element(Expr.Call c, String text) {
        String t = scope.local("element");
        scope.statement("final String " + t + " = " + text + ";");
        return elementOf(c.type(), t);
    }

    /** The value of an element of type {@code element} whose text a local {@code t} holds (null: NULL). */
    JExpr elementOf(DataType element, String t) {
        String isNull = "(" + t + " == null)";
        if (element.kind() == TypeKind.VARCHAR) {
            return JExpr.of("(" + t + " == null ? \"\" : " + t + ")", isNull, ValueKind.STRING);
        }
        ValueKind k = ValueKind.stored(element);
        String parse = switch (k) {
            case INT -> "intOf";
            case LONG -> "longOf";
            case DOUBLE -> "doubleOf";
            case BOOL -> "boolOf";
            case CODE, STRING -> throw new IllegalStateException(element.toString());
        };
        return JExpr.of(ExprGen.guard(isNull, LIST + parse + "(" + t + ")", k), isNull, k);
    }

    /** A non-NULL element value's canonical text. */
    String text(JExpr x) {
        return switch (x.kind()) {
            case CODE, STRING -> gen.asString(x);
            case INT, LONG -> LIST + "text((long) " + x.v() + ")";
            case DOUBLE -> LIST + "text(" + x.v() + ")";
            case BOOL -> LIST + "text(" + x.v() + ")";
        };
    }
}

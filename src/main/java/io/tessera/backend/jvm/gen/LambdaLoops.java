package io.tessera.backend.jvm.gen;

import io.tessera.backend.ValueKind;
import io.tessera.plan.Expr;
import io.tessera.plan.LambdaParameter;
import io.tessera.plan.ListLambda;
import io.tessera.storage.DataType;
import io.tessera.storage.TypeKind;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The functions of a list and a lambda ({@link io.tessera.plan.Op#LIST_LAMBDA}) as a loop in the generated code over
 * the list's element texts: each element's value (and its position, and for a reduce the value so far) held in
 * locals that the lambda's parameters ({@link io.tessera.plan.Op#LAMBDA_PARAMETER}) read, and the body generated
 * inside the loop as any expression is, so that it runs per element as Java. The list's NULL is the result's NULL.
 */
final class LambdaLoops {

    private static final String RUNTIME = "io.tessera.backend.jvm.lib.LambdaRuntime.";

    private final ExprGen.Scope scope;
    private final ExprGen gen;
    private final ListFunctions lists;
    /** The locals each parameter of the lambdas being generated is bound to. */
    private final Map<LambdaParameter, JExpr> bound = new HashMap<>();

    LambdaLoops(ExprGen.Scope scope, ExprGen gen, ListFunctions lists) {
        this.scope = scope;
        this.gen = gen;
        this.lists = lists;
    }

    /** The value of a parameter, inside the loop that binds it. */
    JExpr parameter(Expr.Call c) {
        JExpr x = bound.get((LambdaParameter) c.detail());
        if (x == null) {
            throw new IllegalStateException("a lambda parameter outside its loop: " + c);
        }
        return x;
    }

    JExpr call(Expr.Call c) {
        ListLambda lambda = (ListLambda) c.detail();
        // the slots the body reads (the row's columns it captures) loaded before the loop opens
        List<io.tessera.plan.Slot> slots = new java.util.ArrayList<>();
        Expr.slots(c, slots);
        slots.forEach(scope::slot);
        Expr listArg = c.args().get(0);
        JExpr list = gen.gen(listArg);
        String text = scope.local("list");
        scope.statement("final String " + text + " = " + (list.nullable()
                ? "(" + list.n() + " ? (String) null : " + gen.asString(list) + ")" : gen.asString(list)) + ";");
        DataType element = listArg.type().element();
        return lambda.kind() == ListLambda.Kind.REDUCE ? reduce(c, lambda, text, element)
                : elementwise(c, lambda, text, element);
    }

    /** TRANSFORM, FILTER and COMPREHENSION: a new list, built element by element. */
    private JExpr elementwise(Expr.Call c, ListLambda lambda, String list, DataType element) {
        String out = scope.local("mapped");
        scope.statement("String " + out + " = null;");
        scope.open("if (" + list + " != null)");
        String elements = scope.local("elements");
        scope.statement("final String[] " + elements + " = " + RUNTIME + "elements(" + list + ");");
        String builder = scope.local("built");
        scope.statement("final StringBuilder " + builder + " = new StringBuilder();");
        String i = scope.local("i");
        scope.open("for (int " + i + " = 0; " + i + " < " + elements + ".length; " + i + "++)");
        String t = scope.local("e");
        scope.statement("final String " + t + " = " + elements + "[" + i + "];");
        List<LambdaParameter> ps = lambda.parameters();
        bind(ps, 0, value(element, t));
        bind(ps, 1, JExpr.of("((long) " + i + " + 1L)", "false", ValueKind.LONG));
        switch (lambda.kind()) {
            case TRANSFORM -> append(builder, gen.gen(c.args().get(1)));
            case FILTER -> {
                JExpr keep = gen.gen(c.args().get(1));
                scope.open("if (" + keep.isTrue() + ")");
                scope.statement(RUNTIME + "append(" + builder + ", " + t + ");");
                scope.close();
            }
            case COMPREHENSION -> {
                // every element's result computed, as DuckDB computes it, then kept where the condition holds
                JExpr result = gen.gen(c.args().get(1));
                String r = scope.local("result");
                scope.statement("final String " + r + " = " + textOrNull(result) + ";");
                JExpr keep = gen.gen(c.args().get(2));
                scope.open("if (" + keep.isTrue() + ")");
                scope.statement(RUNTIME + "append(" + builder + ", " + r + ");");
                scope.close();
            }
            case REDUCE -> throw new IllegalStateException();
        }
        unbind(ps);
        scope.close();
        scope.statement(out + " = " + builder + ".toString();");
        scope.close();
        return JExpr.of("(" + out + " == null ? \"\" : " + out + ")", "(" + out + " == null)", ValueKind.STRING);
    }

    /** REDUCE: the value so far in two locals, replaced by the body's value element by element. */
    private JExpr reduce(Expr.Call c, ListLambda lambda, String list, DataType element) {
        DataType type = c.type();
        ValueKind k = kind(type);
        String acc = scope.local("reduced");
        String accNull = acc + "_null";
        scope.statement(JavaTypes.of(k) + " " + acc + " = " + ExprGen.zero(k) + ";");
        scope.statement("boolean " + accNull + " = true;");
        scope.open("if (" + list + " != null)");
        String elements = scope.local("elements");
        scope.statement("final String[] " + elements + " = " + RUNTIME + "elements(" + list + ");");
        String start = scope.local("start");
        if (c.args().size() > 2) {
            assign(acc, accNull, gen.gen(c.args().get(2)), c.args().get(2).type(), type);
            scope.statement("final int " + start + " = 0;");
        } else {
            // the first element is the value so far; a list without one fails, as DuckDB's does
            scope.statement(RUNTIME + "checkReducible(" + elements + ".length);");
            String first = scope.local("e");
            scope.statement("final String " + first + " = " + elements + "[0];");
            assign(acc, accNull, value(element, first), element, type);
            scope.statement("final int " + start + " = 1;");
        }
        String i = scope.local("i");
        scope.open("for (int " + i + " = " + start + "; " + i + " < " + elements + ".length; " + i + "++)");
        String t = scope.local("e");
        scope.statement("final String " + t + " = " + elements + "[" + i + "];");
        List<LambdaParameter> ps = lambda.parameters();
        bind(ps, 0, JExpr.of(acc, accNull, k));
        bind(ps, 1, value(element, t));
        bind(ps, 2, JExpr.of("((long) " + i + " + 1L)", "false", ValueKind.LONG));
        JExpr body = gen.gen(c.args().get(1));
        assign(acc, accNull, body, c.args().get(1).type(), type);
        unbind(ps);
        scope.close();
        scope.close();
        return JExpr.of(acc, accNull, k);
    }

    /**
     * The value so far replaced by {@code x} (of SQL type {@code from}) as the accumulated type: held in fresh locals
     * first, since its code may read the value so far.
     */
    private void assign(String acc, String accNull, JExpr x, DataType from, DataType type) {
        ValueKind k = kind(type);
        JExpr v = gen.convert(x, from, type);
        String value = k == ValueKind.STRING ? gen.asString(v) : v.v();
        String nv = scope.local("next");
        scope.statement("final " + JavaTypes.of(k) + " " + nv + " = " + ExprGen.guard(v.n(), value, k) + ";");
        String nn = scope.local("next_null");
        scope.statement("final boolean " + nn + " = " + v.n() + ";");
        scope.statement(acc + " = " + nv + ";");
        scope.statement(accNull + " = " + nn + ";");
    }

    /** An element's value from its text in local {@code t}, held in locals so the body reads it without parsing again. */
    private JExpr value(DataType element, String t) {
        JExpr x = lists.elementOf(element, t);
        String v = scope.local("x");
        scope.statement("final " + JavaTypes.of(x.kind()) + " " + v + " = " + x.v() + ";");
        return JExpr.of(v, x.n(), x.kind());
    }

    /** The value's element text, or null where it is NULL. */
    private String textOrNull(JExpr x) {
        return x.nullable() ? "(" + x.n() + " ? (String) null : " + lists.text(x) + ")" : lists.text(x);
    }

    private void append(String builder, JExpr x) {
        scope.statement(RUNTIME + "append(" + builder + ", " + textOrNull(x) + ");");
    }

    private void bind(List<LambdaParameter> ps, int i, JExpr x) {
        if (i < ps.size()) {
            bound.put(ps.get(i), x);
        }
    }

    private void unbind(List<LambdaParameter> ps) {
        ps.forEach(bound::remove);
    }

    private static ValueKind kind(DataType t) {
        return t.kind() == TypeKind.VARCHAR ? ValueKind.STRING : ValueKind.stored(t);
    }
}

package io.tessera.plan;

import io.tessera.sql.LambdaFunctions;
import io.tessera.sql.SqlError;
import io.tessera.storage.DataType;
import io.tessera.storage.TypeKind;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexLambda;
import org.apache.calcite.rex.RexLambdaRef;
import org.apache.calcite.rex.RexNode;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

/**
 * DuckDB's functions of a list and a lambda ({@code sql.LambdaFunctions}) as {@link Op#LIST_LAMBDA} calls: the
 * lambda's body translated as any expression is, each parameter an {@link Op#LAMBDA_PARAMETER} of a number unique in
 * the query, which the generated code binds to a local per element. A name inside a body is its innermost lambda's
 * parameter of that name (validation resolved columns and parameters already; a parameter hides a column). One per
 * translator: it numbers the parameters and knows the lambdas being translated.
 */
final class LambdaCalls {

    /** The parameters of the lambdas whose bodies are being translated, innermost first, by name. */
    private final Deque<Map<String, Expr>> scopes = new ArrayDeque<>();
    private int next;

    /** The lowered call, or null where it is none of these functions. */
    Expr lower(RexCall call, Function<RexNode, Expr> translate) {
        String kindName = LambdaFunctions.kindOf(call.getOperator().getName().toUpperCase(Locale.ROOT));
        if (kindName == null) {
            return null;
        }
        if (call.getType().getSqlTypeName() == org.apache.calcite.sql.type.SqlTypeName.NULL) {
            return new Expr.Literal(null, Types.of(call.getType())); // of a NULL of no list type, as DuckDB's
        }
        ListLambda.Kind kind = ListLambda.Kind.valueOf(kindName);
        List<RexNode> ops = call.getOperands();
        Expr list = translate.apply(ops.get(0));
        RexLambda lambda = (RexLambda) ops.get(1);
        int captures = (int) lambda.getParameters().stream().filter(p -> LambdaFunctions.isCapture(p.getName())).count();
        int fixed = ops.size() - captures;
        List<LambdaParameter> parameters = new ArrayList<>();
        Map<String, Expr> scope = new HashMap<>();
        for (RexLambdaRef p : lambda.getParameters()) {
            if (LambdaFunctions.isCapture(p.getName())) {
                // a value captured from outside the lambda: the call's operand after its own, read as it is
                scope.put(p.getName(), translate.apply(ops.get(fixed + scope.size() - parameters.size())));
                continue;
            }
            LambdaParameter parameter = new LambdaParameter(next++);
            parameters.add(parameter);
            DataType t = Types.of(p.getType());
            scope.put(p.getName(), new Expr.Call(Op.LAMBDA_PARAMETER, List.of(), t, p.getType().isNullable(), parameter));
        }
        if (kind == ListLambda.Kind.REDUCE && parameters.size() > 1) {
            // the elements read as the accumulated type, where the lambda widened it (DuckDB casts the list)
            DataType element = Types.of(lambda.getParameters().get(1).getType());
            if (!list.type().element().equals(element)) {
                list = new Expr.Call(Op.LIST, List.of(list), DataType.list(element), list.nullable(), ListFunction.CAST);
            }
        }
        DataType type = Types.of(call.getType());
        List<Expr> args = new ArrayList<>(List.of(list));
        scopes.push(scope);
        try {
            Expr body = translate.apply(lambda.getExpression());
            switch (kind) {
                case TRANSFORM -> args.add(body);
                case FILTER -> args.add(condition(body));
                case REDUCE -> {
                    args.add(as(body, type));
                    if (fixed > 2) {
                        args.add(as(translate.apply(ops.get(2)), type));
                    }
                }
                case COMPREHENSION -> {
                    args.add(body);
                    // the condition's lambda has the result's parameters: its names bound to the same ones
                    RexLambda condition = (RexLambda) ops.get(2);
                    Map<String, Expr> same = new HashMap<>();
                    for (int i = 0; i < condition.getParameters().size(); i++) {
                        same.put(condition.getParameters().get(i).getName(),
                                scope.get(lambda.getParameters().get(i).getName()));
                    }
                    scopes.push(same);
                    try {
                        args.add(condition(translate.apply(condition.getExpression())));
                    } finally {
                        scopes.pop();
                    }
                }
            }
        } finally {
            scopes.pop();
        }
        return new Expr.Call(Op.LIST_LAMBDA, args, type, call.getType().isNullable() || list.nullable(),
                new ListLambda(kind, parameters));
    }

    /** The parameter a name in a lambda's body reads. */
    Expr parameter(RexLambdaRef ref) {
        for (Map<String, Expr> scope : scopes) {
            Expr p = scope.get(ref.getName());
            if (p != null) {
                return p;
            }
        }
        throw new SqlError("unsupported: the lambda parameter " + ref.getName() + " outside its lambda");
    }

    /** A filter's condition as a BOOLEAN: a number is TRUE where it is not 0, as DuckDB casts it. */
    private static Expr condition(Expr body) {
        DataType t = body.type();
        if (t.kind() == TypeKind.BOOLEAN) {
            return body;
        }
        if (body instanceof Expr.Literal l && l.value() == null) {
            return new Expr.Literal(null, DataType.BOOLEAN);
        }
        return new Expr.Call(Op.NE, List.of(body, new Expr.Literal(0L, t)), DataType.BOOLEAN, body.nullable());
    }

    /** A value as the accumulated type of a reduce. */
    private static Expr as(Expr e, DataType type) {
        if (e.type().equals(type)) {
            return e;
        }
        if (e instanceof Expr.Literal l && l.value() == null) {
            return new Expr.Literal(null, type);
        }
        return new Expr.Call(Op.CAST, List.of(e), type, e.nullable());
    }
}

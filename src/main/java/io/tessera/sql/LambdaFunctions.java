package io.tessera.sql;

import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlCallBinding;
import org.apache.calcite.sql.SqlFunction;
import org.apache.calcite.sql.SqlFunctionCategory;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLambda;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlOperandCountRange;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlOperatorBinding;
import org.apache.calcite.sql.type.FunctionSqlType;
import org.apache.calcite.sql.type.SqlOperandCountRanges;
import org.apache.calcite.sql.type.SqlOperandTypeChecker;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.type.SqlTypeUtil;
import org.apache.calcite.sql.validate.SqlLambdaScope;
import org.apache.calcite.sql.validate.SqlValidator;

import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * DuckDB's functions of a list and a lambda: {@code list_transform(l, x -> x + 1)} (also list_apply, array_transform,
 * array_apply, apply), {@code list_filter(l, x -> x > 1)} (array_filter, filter) and {@code list_reduce(l, (a, b) -> a +
 * b[, initial])} (array_reduce, reduce), typed as DuckDB types them. The lambda's parameters are the element (and for
 * transform and filter a second one, the element's 1-based position as a BIGINT; for reduce the accumulated value, the
 * element and a third one, the position), typed here before its body is validated, so that the body is typed as any
 * expression is; a parameter hides a column of the same name, as in DuckDB. A list comprehension {@code [x * 2 for x
 * in l if x > 1]} is {@link #COMPREHENSION}. Lowered by {@code plan.LambdaCalls}.
 */
public final class LambdaFunctions {

    private LambdaFunctions() {
    }

    /** What a function does with its lambda. */
    enum Kind { TRANSFORM, FILTER, REDUCE, COMPREHENSION }

    /** The function a call names, by upper-case name. */
    private static final Map<String, Kind> KINDS = Map.ofEntries(
            Map.entry("LIST_TRANSFORM", Kind.TRANSFORM), Map.entry("LIST_APPLY", Kind.TRANSFORM),
            Map.entry("ARRAY_TRANSFORM", Kind.TRANSFORM), Map.entry("ARRAY_APPLY", Kind.TRANSFORM),
            Map.entry("APPLY", Kind.TRANSFORM), Map.entry("LIST_FILTER", Kind.FILTER),
            Map.entry("ARRAY_FILTER", Kind.FILTER), Map.entry("FILTER", Kind.FILTER),
            Map.entry("LIST_REDUCE", Kind.REDUCE), Map.entry("ARRAY_REDUCE", Kind.REDUCE),
            Map.entry("REDUCE", Kind.REDUCE));

    /**
     * {@code [result for x[, i] in list if condition]}: (list, lambda of the result, lambda of the condition), both
     * lambdas of the same parameters; the condition TRUE where there was no IF. Made by the grammar.
     */
    public static final SqlFunction COMPREHENSION = function("TESSERA_LIST_COMPREHENSION", Kind.COMPREHENSION);

    private static final Map<String, SqlFunction> FUNCTIONS = new HashMap<>();

    static {
        KINDS.forEach((name, kind) -> FUNCTIONS.put(name, function(name, kind)));
    }

    /** The function of this upper-case name, or null. */
    static SqlOperator lookup(String name) {
        return FUNCTIONS.get(name);
    }

    static boolean has(String name) {
        return KINDS.containsKey(name) || name.equals(COMPREHENSION.getName());
    }

    static Collection<SqlFunction> all() {
        return FUNCTIONS.values();
    }

    /** Whether a lambda's parameter holds a value the lambda captured from outside ({@link LambdaCaptures}). */
    public static boolean isCapture(String parameter) {
        return LambdaCaptures.isCapture(parameter);
    }

    /** The kind of an operator of this class, by its upper-case name: transform, filter, reduce or comprehension. */
    public static String kindOf(String name) {
        Kind k = name.equals(COMPREHENSION.getName()) ? Kind.COMPREHENSION : KINDS.get(name);
        return k == null ? null : k.name();
    }

    private static SqlFunction function(String name, Kind kind) {
        return new LambdaFunction(name, kind);
    }

    /**
     * A function of a list and a lambda. Calcite types a call's operands before it checks them, which would type a
     * lambda's body with parameters of no type: here the other operands are typed first, and the lambda only when
     * {@link Checker} has typed its parameters.
     */
    private static final class LambdaFunction extends SqlFunction {
        LambdaFunction(String name, Kind kind) {
            super(name, SqlKind.OTHER_FUNCTION, b -> returnType(b, kind), null, new Checker(kind),
                    SqlFunctionCategory.SYSTEM);
        }

        @Override
        public RelDataType deriveType(SqlValidator validator, org.apache.calcite.sql.validate.SqlValidatorScope scope,
                                      SqlCall call) {
            for (SqlNode o : call.getOperandList()) {
                if (!(o instanceof SqlLambda)) {
                    validator.deriveType(scope, o);
                }
            }
            return validateOperands(validator, scope, call);
        }
    }

    /** The result: a list of the lambda's results (transform, comprehension), the list (filter), the value (reduce). */
    private static RelDataType returnType(SqlOperatorBinding b, Kind kind) {
        RelDataTypeFactory f = b.getTypeFactory();
        RelDataType list = b.getOperandType(0);
        if (list.getSqlTypeName() == SqlTypeName.ANY || list.getSqlTypeName() == SqlTypeName.NULL) {
            return list; // a parameter of an enclosing lambda not typed yet; a NULL of no type, DuckDB's NULL of no type
        }
        boolean nullable = list.isNullable();
        return switch (kind) {
            case FILTER -> list;
            case TRANSFORM, COMPREHENSION -> f.createTypeWithNullability(
                    f.createArrayType(f.createTypeWithNullability(resultOf(b.getOperandType(1)), true), -1), nullable);
            case REDUCE -> f.createTypeWithNullability(accumulator(b), true);
        };
    }

    /** A lambda operand's result type: a validated lambda's function type's, or a converted lambda's own. */
    private static RelDataType resultOf(RelDataType lambda) {
        return lambda instanceof FunctionSqlType fn ? fn.getReturnType() : lambda;
    }

    /** The type list_reduce accumulates in: its lambda's first parameter's, as {@link Checker} typed it. */
    private static RelDataType accumulator(SqlOperatorBinding b) {
        if (b instanceof SqlCallBinding call && call.operand(1) instanceof SqlLambda lambda) {
            SqlLambdaScope scope = (SqlLambdaScope) call.getValidator().getLambdaScope(lambda);
            return scope.getParameterTypes().get(lambda.getParameters().get(0).toString());
        }
        return resultOf(b.getOperandType(1));
    }

    /** Types the lambda's parameters from the list's element type, then validates its body. */
    private record Checker(Kind kind) implements SqlOperandTypeChecker {

        @Override
        public boolean checkOperandTypes(SqlCallBinding b, boolean throwOnFailure) {
            SqlCall call = b.getCall();
            String name = name(call);
            int fixed = call.operandCount() - captures(call);
            boolean counted = switch (kind) {
                case TRANSFORM, FILTER -> fixed == 2;
                case REDUCE -> fixed == 2 || fixed == 3;
                case COMPREHENSION -> fixed == 3;
            };
            if (!counted) {
                throw error(name + " with " + fixed + " arguments (it takes "
                        + (kind == Kind.REDUCE ? "a list, a lambda and an initial value" : "a list and a lambda")
                        + ")", call);
            }
            RelDataType list = b.getOperandType(0);
            if (list.getSqlTypeName() == SqlTypeName.ANY) {
                return true; // a parameter of an enclosing lambda, typed when that lambda's function types it
            }
            if (list.getSqlTypeName() == SqlTypeName.NULL) {
                // a NULL of no list type, whose answer is NULL, as DuckDB's: the body's names still resolved
                RelDataType any = b.getTypeFactory().createTypeWithNullability(
                        b.getTypeFactory().createSqlType(SqlTypeName.ANY), true);
                for (int i = 1; i < fixed; i++) {
                    if (call.operand(i) instanceof SqlLambda l) {
                        try {
                            bind(b, l, List.of(any, any, any), fixed);
                        } catch (org.apache.calcite.runtime.CalciteContextException e) {
                            // a body that needs the element's type (a field of it): DuckDB answers NULL here
                            if (!String.valueOf(e.getMessage()).contains("Incompatible types")) {
                                throw e;
                            }
                            throw error(name + " of a NULL of no list type with a lambda whose body needs the"
                                    + " element's type (CAST the NULL to a list type)", l.getExpression());
                        }
                    }
                }
                return true;
            }
            if (list.getComponentType() == null) {
                throw new SqlError(name + " of a " + typeName(list) + ": its first argument must be a list"
                        + SupportCheck.at(call.operand(0).getParserPosition()));
            }
            RelDataTypeFactory f = b.getTypeFactory();
            RelDataType element = f.createTypeWithNullability(list.getComponentType(), true);
            if (kind == Kind.COMPREHENSION) {
                bind(b, lambda(call, 1, name), List.of(element, index(f)), fixed);
                SqlLambda condition = lambda(call, 2, name);
                bind(b, condition, List.of(element, index(f)), fixed);
                RelDataType c = resultOf(b.getValidator().getValidatedNodeType(condition));
                if (c.getSqlTypeName() != SqlTypeName.BOOLEAN && c.getSqlTypeName() != SqlTypeName.NULL) {
                    throw new SqlError("a list comprehension's IF condition of type " + typeName(c)
                            + " (it must be a BOOLEAN)" + SupportCheck.at(condition.getExpression().getParserPosition()));
                }
                return true;
            }
            SqlLambda lambda = lambda(call, 1, name);
            if (kind != Kind.REDUCE) {
                bind(b, lambda, List.of(element, index(f)), fixed);
                RelDataType r = resultOf(b.getValidator().getValidatedNodeType(lambda));
                if (kind == Kind.FILTER && r.getSqlTypeName() != SqlTypeName.BOOLEAN
                        && !SqlTypeUtil.isIntType(r) && r.getSqlTypeName() != SqlTypeName.NULL) {
                    throw new SqlError(name + " with a lambda of type " + typeName(r) + " (it must give a BOOLEAN)"
                            + SupportCheck.at(lambda.getExpression().getParserPosition()));
                }
                return true;
            }
            // list_reduce, bound as DuckDB binds it: the value so far of the initial value's type (or the element
            // type), the element of the element type; where the lambda gives another type, the value so far of the
            // common type of both and the lambda bound once more, its result cast to that type
            RelDataType start = element;
            String startWhat = "the list's element";
            SqlNode initialNode = null;
            if (fixed == 3 && b.getOperandType(2).getSqlTypeName() != SqlTypeName.NULL) {
                start = f.createTypeWithNullability(b.getOperandType(2), true);
                startWhat = "the initial value's";
                initialNode = call.operand(2);
            }
            bind(b, lambda, List.of(start, element, index(f)), fixed);
            RelDataType r = resultOf(b.getValidator().getValidatedNodeType(lambda));
            if (r.getSqlTypeName() == SqlTypeName.NULL) {
                return true;
            }
            RelDataType acc = fixed == 3 && initialNode == null
                    ? f.createTypeWithNullability(r, true) // a NULL initial value: the lambda's type
                    : common(f, start, r, startWhat, "the lambda's result", lambda.getExpression(), name);
            if (!SqlTypeUtil.equalSansNullability(f, acc, start)) {
                bind(b, lambda, List.of(acc, element, index(f)), fixed);
            }
            return true;
        }

        /**
         * The type that holds both, as DuckDB's TryGetMaxLogicalType gives it for these: an integer type beside a
         * BOOLEAN is the integer type; numbers the common number type; else none (an error naming both types).
         */
        private static RelDataType common(RelDataTypeFactory f, RelDataType acc, RelDataType other, String what,
                                          String otherWhat, SqlNode where, String name) {
            if (SqlTypeUtil.equalSansNullability(f, acc, other)) {
                return f.createTypeWithNullability(acc, true);
            }
            boolean accBoolean = acc.getSqlTypeName() == SqlTypeName.BOOLEAN;
            boolean otherBoolean = other.getSqlTypeName() == SqlTypeName.BOOLEAN;
            if (accBoolean && SqlTypeUtil.isIntType(other) || otherBoolean && SqlTypeUtil.isIntType(acc)) {
                return f.createTypeWithNullability(accBoolean ? other : acc, true);
            }
            RelDataType t = f.leastRestrictive(List.of(acc, other));
            boolean numbers = SqlTypeUtil.isNumeric(acc) == SqlTypeUtil.isNumeric(other);
            if (t == null || !numbers || accBoolean != otherBoolean) {
                throw new SqlError(name + ": no common type of " + what + " type " + typeName(acc) + " and "
                        + otherWhat + " type " + typeName(other) + SupportCheck.at(where.getParserPosition()));
            }
            return f.createTypeWithNullability(t, true);
        }

        /** A type as an error names it: INTEGER, VARCHAR, INTEGER[], ... */
        private static String typeName(RelDataType t) {
            return t.getComponentType() != null ? typeName(t.getComponentType()) + "[]"
                    : t.getSqlTypeName() == SqlTypeName.CHAR ? "VARCHAR" : t.getSqlTypeName().getName();
        }

        private static RelDataType index(RelDataTypeFactory f) {
            return f.createSqlType(SqlTypeName.BIGINT);
        }

        /** The lambda at operand {@code i}, with the number of parameters the function takes. */
        private SqlLambda lambda(SqlCall call, int i, String name) {
            if (call.operandCount() <= i || !(call.operand(i) instanceof SqlLambda lambda)) {
                throw error(name + " without a lambda as its argument " + (i + 1) + " (x -> ...)",
                        call.operandCount() > i ? call.operand(i) : call);
            }
            int n = lambda.getParameters().size() - captures(call);
            if (kind == Kind.REDUCE ? n < 2 || n > 3 : n < 1 || n > 2) {
                throw error(name + " with a lambda of " + n + " parameter" + (n == 1 ? "" : "s") + " (it takes "
                        + (kind == Kind.REDUCE ? "2 or 3: the value so far, the element and its position"
                        : "1 or 2: the element and its position") + ")",
                        n > 0 ? lambda.getParameters().get(0) : lambda);
            }
            return lambda;
        }

        /**
         * Types the lambda's parameters (as many as it has of {@code types}, then those that hold the captured values
         * of the operands from {@code fixed} on) and validates its body afresh.
         */
        private static void bind(SqlCallBinding b, SqlLambda lambda, List<RelDataType> types, int fixed) {
            SqlValidator validator = b.getValidator();
            SqlLambdaScope scope = (SqlLambdaScope) validator.getLambdaScope(lambda);
            int own = lambda.getParameters().size() - (b.getOperandCount() - fixed);
            for (int i = 0; i < lambda.getParameters().size(); i++) {
                scope.getParameterTypes().put(lambda.getParameters().get(i).toString(),
                        i < own ? types.get(i) : b.getOperandType(fixed + i - own));
            }
            lambda.accept(new org.apache.calcite.sql.util.SqlBasicVisitor<Void>() {
                @Override
                public Void visit(SqlCall c) {
                    validator.removeValidatedNodeType(c);
                    return super.visit(c);
                }

                @Override
                public Void visit(org.apache.calcite.sql.SqlIdentifier id) {
                    validator.removeValidatedNodeType(id);
                    return null;
                }
            });
            validator.validateLambda(lambda);
        }

        /** The number of values the call's lambdas capture, which {@link LambdaCaptures} appended to its operands. */
        private static int captures(SqlCall call) {
            for (SqlNode o : call.getOperandList()) {
                if (o instanceof SqlLambda lambda) {
                    return (int) lambda.getParameters().stream()
                            .filter(p -> LambdaCaptures.isCapture(p.toString())).count();
                }
            }
            return 0;
        }

        private static String name(SqlCall call) {
            String n = call.getOperator().getName();
            return n.equals(COMPREHENSION.getName()) ? "a list comprehension" : n.toLowerCase(Locale.ROOT);
        }

        private static SqlError error(String message, SqlNode where) {
            return new SqlError("unsupported: " + message + SupportCheck.at(where.getParserPosition()));
        }

        @Override
        public SqlOperandCountRange getOperandCountRange() {
            return SqlOperandCountRanges.from(2); // and the values its lambdas capture
        }

        @Override
        public String getAllowedSignatures(SqlOperator op, String opName) {
            return opName + (kind == Kind.REDUCE ? "(<LIST>, <LAMBDA>[, <INITIAL>])" : "(<LIST>, <LAMBDA>)");
        }
    }
}

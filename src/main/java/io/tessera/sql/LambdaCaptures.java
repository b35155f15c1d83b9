package io.tessera.sql;

import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLambda;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.util.SqlShuttle;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The lambdas of DuckDB's list functions ({@link LambdaFunctions}) made into what Calcite's validator reads, before
 * validation. Calcite resolves a name in a lambda's body only as one of its parameters, so:
 * <ul>
 *   <li>a name whose first part is a parameter (ignoring case, as DuckDB matches it) is that parameter, spelt as the
 *   parameter is, and its further parts fields of it ({@code s.a} the field a of the struct s);</li>
 *   <li>any other name is captured from outside the lambda (a column of the row, {@code t.c}, or a parameter of an
 *   enclosing lambda): it becomes one more argument of the call, after its own, read in the body through one more
 *   parameter named {@link #PREFIX} and a number, which the function types as that argument
 *   ({@code list_transform(l, x -> x + c)} is {@code list_transform(l, (x, tessera_capture_0) -> x + tessera_capture_0,
 *   c)}); so is an aggregate that reads no parameter ({@code x -> x + sum(c)}), computed over the rows as DuckDB
 *   computes it, and so is a window function that reads no parameter ({@code x -> x + row_number() OVER ()}).</li>
 * </ul>
 * Inner lambdas are rewritten first, so that what they capture from an outer lambda becomes the outer's. A lambda
 * the rewrites before this one rebuilt as a plain call is a {@link SqlLambda} again. A subquery inside a lambda and an
 * aggregate of a parameter are refused, as DuckDB refuses them, and so is a window function of a parameter (which
 * DuckDB fails on).
 */
final class LambdaCaptures {

    private LambdaCaptures() {
    }

    /** The first part of the name of a parameter that holds a captured value; no lambda of a user may use it. */
    static final String PREFIX = "tessera_capture_";

    /**
     * The first part of the name a lambda's own parameter is given (its position and its name follow), so that every
     * name in a body is known for a parameter's ({@link #isParameter}).
     */
    private static final String OWN = "tessera_lambda_";

    static SqlNode rewrite(SqlNode node) {
        return node == null ? null : node.accept(new Rewriter());
    }

    /** Whether a name, after this rewrite, is a lambda's parameter (its own or one that holds a captured value). */
    static boolean isParameter(String name) {
        return name.startsWith(OWN) || name.startsWith(PREFIX);
    }

    /** The name a lambda's own parameter at {@code position} is given. */
    private static String own(int position, SqlIdentifier parameter) {
        return OWN + position + "_" + parameter.getSimple();
    }

    /** Whether a lambda's parameter holds a captured value. */
    static boolean isCapture(String parameter) {
        return parameter.startsWith(PREFIX);
    }

    private static final class Rewriter extends SqlShuttle {
        @Override
        public SqlNode visit(SqlCall call) {
            if (LambdaFunctions.has(call.getOperator().getName().toUpperCase(Locale.ROOT))) {
                return function(call);
            }
            return super.visit(call);
        }

        /** A call of a list function with its lambdas rewritten and their captures appended. */
        private SqlNode function(SqlCall call) {
            List<SqlNode> operands = new ArrayList<>();
            List<Integer> lambdas = new ArrayList<>();
            for (SqlNode o : call.getOperandList()) {
                if (o != null && o.getKind() == SqlKind.LAMBDA) {
                    lambdas.add(operands.size());
                    operands.add(o);
                } else {
                    operands.add(o == null ? null : o.accept(this));
                }
            }
            // the captures of all the call's lambdas (a comprehension has two), each lambda given all of them
            List<SqlNode> captured = new ArrayList<>();
            List<SqlNode> bodies = new ArrayList<>();
            for (int i : lambdas) {
                SqlCall lambda = (SqlCall) operands.get(i);
                SqlNodeList parameters = parameters(lambda);
                SqlNode body = lambda.getOperandList().get(1).accept(this); // inner lambdas first
                bodies.add(body.accept(new Body(parameters, captured)));
            }
            for (int j = 0; j < lambdas.size(); j++) {
                SqlCall lambda = (SqlCall) operands.get(lambdas.get(j));
                SqlNodeList parameters = new SqlNodeList(lambda.getParserPosition());
                SqlNodeList own = parameters(lambda);
                for (int p = 0; p < own.size(); p++) {
                    parameters.add(new SqlIdentifier(own(p, (SqlIdentifier) own.get(p)), own.get(p).getParserPosition()));
                }
                for (int c = 0; c < captured.size(); c++) {
                    parameters.add(new SqlIdentifier(PREFIX + c, captured.get(c).getParserPosition()));
                }
                operands.set(lambdas.get(j), new SqlLambda(lambda.getParserPosition(), parameters, bodies.get(j)));
            }
            operands.addAll(captured);
            return call.getOperator().createCall(call.getFunctionQuantifier(), call.getParserPosition(),
                    operands.toArray(new SqlNode[0]));
        }

        private static SqlNodeList parameters(SqlCall lambda) {
            SqlNodeList parameters = (SqlNodeList) lambda.getOperandList().get(0);
            for (SqlNode p : parameters) {
                if (((SqlIdentifier) p).getSimple().toLowerCase(Locale.ROOT).startsWith("tessera_")) {
                    throw new SqlError("unsupported: a lambda parameter named " + p + SupportCheck.at(p.getParserPosition())
                            + " (names starting with tessera_ are Tessera's own)");
                }
            }
            return parameters;
        }
    }

    /** A lambda's body: its parameters spelt as declared, fields of them as field accesses, other names captured. */
    private static final class Body extends SqlShuttle {
        private final SqlNodeList parameters;
        private final List<SqlNode> captured;

        Body(SqlNodeList parameters, List<SqlNode> captured) {
            this.parameters = parameters;
            this.captured = captured;
        }

        @Override
        public SqlNode visit(SqlIdentifier id) {
            if (id.isStar()) {
                throw new SqlError("unsupported: * inside a lambda" + SupportCheck.at(id.getParserPosition()));
            }
            SqlIdentifier parameter = parameter(id.names.get(0));
            if (parameter != null) {
                SqlNode value = new SqlIdentifier(own(parameters.indexOf(parameter), parameter),
                        id.getComponentParserPosition(0));
                for (int i = 1; i < id.names.size(); i++) {
                    value = SqlStdOperatorTable.DOT.createCall(id.getParserPosition(), value,
                            new SqlIdentifier(id.names.get(i), id.getComponentParserPosition(i)));
                }
                return value;
            }
            return capture(id);
        }

        /** A value from outside the lambda: the parameter that holds it (one per distinct value). */
        private SqlNode capture(SqlNode value) {
            for (int c = 0; c < captured.size(); c++) {
                if (captured.get(c).equalsDeep(value, org.apache.calcite.util.Litmus.IGNORE)) {
                    return new SqlIdentifier(PREFIX + c, value.getParserPosition());
                }
            }
            captured.add(value);
            return new SqlIdentifier(PREFIX + (captured.size() - 1), value.getParserPosition());
        }

        @Override
        public SqlNode visit(SqlCall call) {
            if (call instanceof SqlSelect || call.getKind() == SqlKind.SCALAR_QUERY || call.getKind() == SqlKind.EXISTS) {
                throw new SqlError("unsupported: a subquery inside a lambda" + SupportCheck.at(call.getParserPosition()));
            }
            if (call.getKind() == SqlKind.OVER) {
                // computed over the rows, outside the lambda, as DuckDB computes it: captured whole
                if (readsParameter(call)) {
                    throw new SqlError("unsupported: a window function of a lambda's parameter"
                            + SupportCheck.at(call.getParserPosition()) + " (it is computed over the rows, not the elements)");
                }
                return capture(call);
            }
            boolean aggregate = isAggregate(call.getOperator());
            if (aggregate || call.getKind() == SqlKind.FILTER || call.getKind() == SqlKind.WITHIN_GROUP) {
                // computed over the rows, outside the lambda, as DuckDB computes it: captured whole
                if (readsParameter(call)) {
                    String what = aggregate ? "the aggregate " + call.getOperator().getName().toLowerCase(Locale.ROOT)
                            : "an aggregate";
                    throw new SqlError("unsupported: " + what + " of a lambda's parameter"
                            + SupportCheck.at(call.getParserPosition()) + " (it is computed over the rows, not the elements)");
                }
                return capture(call);
            }
            if (call.getKind() == SqlKind.LAMBDA) {
                // an inner lambda, rewritten already: its own parameters are no names of this one
                return call;
            }
            if ((call.getKind() == SqlKind.IN || call.getKind() == SqlKind.NOT_IN)
                    && call.operand(1) instanceof SqlNodeList values && call.operand(0).getKind() != SqlKind.ROW) {
                // Calcite converts an IN list as a subquery of the row, where no lambda parameter is in scope; as
                // comparisons it means the same, NULLs included (x IN (a, b) is x = a OR x = b)
                return comparisons(call, values).accept(this);
            }
            return super.visit(call);
        }

        /** {@code x IN (a, b)} as {@code x = a OR x = b}; {@code x NOT IN (a, b)} as {@code NOT (x = a OR x = b)}. */
        private static SqlNode comparisons(SqlCall in, SqlNodeList values) {
            org.apache.calcite.sql.parser.SqlParserPos pos = in.getParserPosition();
            SqlNode any = null;
            for (SqlNode v : values) {
                SqlNode equal = SqlStdOperatorTable.EQUALS.createCall(pos, in.operand(0), v);
                any = any == null ? equal : SqlStdOperatorTable.OR.createCall(pos, any, equal);
            }
            return in.getKind() == SqlKind.NOT_IN ? SqlStdOperatorTable.NOT.createCall(pos, any) : any;
        }

        /** Whether a name inside {@code node} is one of the lambda's parameters. */
        private boolean readsParameter(SqlNode node) {
            boolean[] found = {false};
            node.accept(new org.apache.calcite.sql.util.SqlBasicVisitor<Void>() {
                @Override
                public Void visit(SqlIdentifier id) {
                    found[0] |= !id.isStar() && parameter(id.names.get(0)) != null;
                    return null;
                }
            });
            return found[0];
        }

        /** Whether {@code op} (or, not resolved yet, a function of its name) is an aggregate. */
        private static boolean isAggregate(org.apache.calcite.sql.SqlOperator op) {
            if (op.isAggregator()) {
                return true;
            }
            if (op.getSyntax() != org.apache.calcite.sql.SqlSyntax.FUNCTION) {
                return false;
            }
            List<org.apache.calcite.sql.SqlOperator> overloads = new ArrayList<>();
            MathFunctions.INSTANCE.lookupOperatorOverloads(op.getNameAsId(),
                    org.apache.calcite.sql.SqlFunctionCategory.USER_DEFINED_FUNCTION,
                    org.apache.calcite.sql.SqlSyntax.FUNCTION, overloads,
                    org.apache.calcite.sql.validate.SqlNameMatchers.withCaseSensitive(false));
            return overloads.stream().anyMatch(org.apache.calcite.sql.SqlOperator::isAggregator);
        }

        /** The parameter of this name (ignoring case), or null. */
        private SqlIdentifier parameter(String name) {
            for (SqlNode p : parameters) {
                SqlIdentifier id = (SqlIdentifier) p;
                if (id.getSimple().equalsIgnoreCase(name)) {
                    return id;
                }
            }
            return null;
        }
    }
}

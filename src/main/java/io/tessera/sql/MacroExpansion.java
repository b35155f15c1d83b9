package io.tessera.sql;

import io.tessera.storage.Macro;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlFunction;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlSyntax;
import org.apache.calcite.sql.SqlUnresolvedFunction;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParseException;
import org.apache.calcite.sql.parser.SqlParser;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.util.SqlBasicVisitor;
import org.apache.calcite.sql.util.SqlShuttle;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Calls of macros (CREATE MACRO) replaced by their bodies, in the parsed tree: a scalar macro's call by its
 * expression, a table macro's call in FROM by its query (named as the macro unless the call has an alias). The
 * arguments bind to the parameters by position, then by name ({@code f(1, c := 2)}); a parameter given neither
 * takes its default. Each body is parsed from its text and its parameters replaced by the arguments' trees
 * ({@link MacroParameters}), never by pasting text; a body's own macro calls are expanded in turn, and a macro met
 * again inside its own expansion is an error. The result columns are named before, by the calls as written
 * ({@code add1(a)}), as DuckDB names them.
 */
final class MacroExpansion extends SqlShuttle {

    private final Macros macros;
    /** The macros being expanded, outermost first: one met again calls itself. */
    private final Deque<String> expanding;

    private MacroExpansion(Macros macros, Deque<String> expanding) {
        this.macros = macros;
        this.expanding = expanding;
    }

    /**
     * {@code statement} with its macro calls expanded; {@code text} its text (null where none) and {@code result}
     * whether its SELECT's columns are a result's, for naming them ({@link ColumnNames#nameExpressions}).
     */
    static SqlNode expand(SqlNode statement, String text, boolean result, Macros macros) {
        if (macros.isEmpty() || !calls(statement, macros)) {
            return statement;
        }
        ColumnNames.nameExpressions(statement, text, result);
        return statement.accept(new MacroExpansion(macros, new ArrayDeque<>()));
    }

    /**
     * Checks a macro being created against {@code macros} with it in place: its body's macro calls bind, and none
     * leads back to it; an error names {@code at} (the macro's name in its CREATE MACRO).
     */
    static void check(Macro macro, Macros macros, SqlParserPos at) {
        Deque<String> expanding = new ArrayDeque<>();
        expanding.add(macro.name());
        body(macro, at).accept(new MacroExpansion(macros.with(macro), expanding));
    }

    /** Whether {@code node} calls one of {@code macros}. */
    private static boolean calls(SqlNode node, Macros macros) {
        boolean[] found = {false};
        node.accept(new SqlBasicVisitor<Void>() {
            @Override
            public Void visit(SqlCall call) {
                if (macroOf(call, macros) != null) {
                    found[0] = true;
                    return null;
                }
                return super.visit(call);
            }
        });
        return found[0];
    }

    /** The macro that {@code call} calls by its name, or null (a built-in or unknown function, an operator). */
    private static Macro macroOf(SqlCall call, Macros macros) {
        if (!(call.getOperator() instanceof SqlFunction f) || call.getOperator().getSyntax() != SqlSyntax.FUNCTION
                && call.getOperator().getSyntax() != SqlSyntax.FUNCTION_STAR) {
            return null;
        }
        if (f instanceof SqlUnresolvedFunction u && u.getSqlIdentifier() != null
                && !u.getSqlIdentifier().isSimple()) {
            return null;
        }
        return macros.get(f.getName());
    }

    @Override
    public SqlNode visit(SqlCall call) {
        if (call.getKind() == SqlKind.AS && call.operand(0) instanceof SqlCall from) {
            Macro m = tableMacro(from);
            if (m != null) {
                List<SqlNode> operands = new ArrayList<>(call.getOperandList());
                operands.set(0, table(from.operand(0), m)); // the alias and column names kept
                return SqlStdOperatorTable.AS.createCall(call.getParserPosition(), operands);
            }
        }
        Macro table = tableMacro(call);
        if (table != null) {
            return SqlStdOperatorTable.AS.createCall(call.getParserPosition(), table(call.operand(0), table),
                    new SqlIdentifier(table.name(), call.getParserPosition()));
        }
        if (call.getKind() == SqlKind.COLLECTION_TABLE && call.operand(0) instanceof SqlCall function
                && macroOf(function, macros) != null) {
            // a scalar macro of a table function's name (range): in FROM the table function is called, as in DuckDB
            for (int i = 0; i < function.operandCount(); i++) {
                function.setOperand(i, function.operand(i).accept(this));
            }
            return call;
        }
        Macro m = macroOf(call, macros);
        if (m != null) {
            if (m.table()) {
                throw new SqlError("macro " + m.name() + " is a table macro: it is called in FROM, as a table"
                        + SupportCheck.at(call.getParserPosition()));
            }
            return expanded(call, m);
        }
        return super.visit(call);
    }

    /** The table macro that a FROM item {@code TABLE(f(...))} calls, or null. */
    private Macro tableMacro(SqlCall from) {
        if (from.getKind() != SqlKind.COLLECTION_TABLE || !(from.operand(0) instanceof SqlCall call)) {
            return null;
        }
        Macro m = macroOf(call, macros);
        return m != null && m.table() ? m : null;
    }

    /** A table macro's call: its query, as a subquery. */
    private SqlNode table(SqlCall call, Macro m) {
        return expanded(call, m);
    }

    /** The body of {@code m} with the call's arguments in place of its parameters, its own macro calls expanded. */
    private SqlNode expanded(SqlCall call, Macro m) {
        SqlParserPos pos = call.getParserPosition();
        Map<String, SqlNode> values = arguments(call, m);
        if (expanding.stream().anyMatch(name -> name.equalsIgnoreCase(m.name()))) {
            throw new SqlError("macro " + m.name() + " calls itself (" + String.join(" -> ", expanding) + " -> "
                    + m.name() + ")" + SupportCheck.at(pos));
        }
        SqlNode body = MacroParameters.substitute(body(m, pos), values);
        expanding.addLast(m.name());
        try {
            return body.accept(this);
        } finally {
            expanding.removeLast();
        }
    }

    /**
     * The arguments of {@code call} by parameter name in lower case, each expanded: positional ones first, then
     * named ones, then the defaults of the parameters neither gave.
     */
    private Map<String, SqlNode> arguments(SqlCall call, Macro m) {
        List<Macro.Parameter> parameters = m.parameters();
        SqlNode[] bound = new SqlNode[parameters.size()];
        if (call.getFunctionQuantifier() != null) {
            throw unsupported(call, m, "a macro's arguments take no " + call.getFunctionQuantifier());
        }
        boolean named = false;
        int position = 0;
        for (SqlNode argument : call.getOperandList()) {
            if (argument.getKind() == SqlKind.ARGUMENT_ASSIGNMENT) {
                named = true;
                SqlCall assignment = (SqlCall) argument;
                String name = ((SqlIdentifier) assignment.operand(1)).getSimple();
                int i = indexOf(parameters, name);
                if (i < 0) {
                    throw unsupported(call, m, "it has no parameter " + name);
                }
                if (bound[i] != null) {
                    throw unsupported(call, m, "parameter " + parameters.get(i).name() + " is given twice");
                }
                bound[i] = assignment.operand(0).accept(this);
            } else if (named) {
                throw unsupported(call, m, "a positional argument follows a named one");
            } else if (position >= parameters.size()) {
                throw unsupported(call, m, "it takes " + count(parameters) + ", "
                        + call.getOperandList().size() + " were given");
            } else {
                bound[position++] = argument.accept(this);
            }
        }
        Map<String, SqlNode> values = new HashMap<>();
        for (int i = 0; i < bound.length; i++) {
            Macro.Parameter p = parameters.get(i);
            if (bound[i] == null) {
                if (p.defaultValue() == null) {
                    throw unsupported(call, m, "parameter " + p.name() + " has no argument");
                }
                bound[i] = expression(p.defaultValue(), m, call.getParserPosition()).accept(this);
            }
            values.put(p.name().toLowerCase(Locale.ROOT), bound[i]);
        }
        return values;
    }

    private static int indexOf(List<Macro.Parameter> parameters, String name) {
        for (int i = 0; i < parameters.size(); i++) {
            if (parameters.get(i).name().equalsIgnoreCase(name)) {
                return i;
            }
        }
        return -1;
    }

    /** "1 argument", "1 to 3 arguments": how many arguments the macro takes. */
    private static String count(List<Macro.Parameter> parameters) {
        long required = parameters.stream().filter(p -> p.defaultValue() == null).count();
        String n = required == parameters.size() ? String.valueOf(required) : required + " to " + parameters.size();
        return n + (parameters.size() == 1 && required == 1 ? " argument" : " arguments");
    }

    /** DuckDB's error for a call whose arguments do not fit the macro, with the reason and the macro's form. */
    private static SqlError unsupported(SqlCall call, Macro m, String reason) {
        return new SqlError("macro " + signature(m) + " does not support the supplied arguments"
                + SupportCheck.at(call.getParserPosition()) + ": " + reason);
    }

    /** The macro as its CREATE MACRO names it: {@code f(a, b := 5)}. */
    static String signature(Macro m) {
        return m.name() + m.parameters().stream()
                .map(p -> p.defaultValue() == null ? p.name() : p.name() + " := " + p.defaultValue())
                .collect(Collectors.joining(", ", "(", ")"));
    }

    /**
     * The macro's body parsed from its text (a query for a table macro), its SELECTs' columns named from it, each
     * node at {@code at}: an error inside it names the call, a position of the statement.
     */
    private static SqlNode body(Macro m, SqlParserPos at) {
        SqlNode body;
        try {
            SqlParser parser = SqlParser.create(m.body(), SqlFrontEnd.PARSER);
            body = m.table() ? parser.parseQuery() : parser.parseExpression();
        } catch (SqlParseException e) {
            throw new SqlError("macro " + m.name() + ": " + ParseErrors.of(e, m.body()).getMessage());
        }
        ColumnNames.nameExpressions(body, m.body(), false);
        return body.accept(new Positions(at));
    }

    private static SqlNode expression(String text, Macro m, SqlParserPos at) {
        try {
            return SqlParser.create(text, SqlFrontEnd.PARSER).parseExpression().accept(new Positions(at));
        } catch (SqlParseException e) {
            throw new SqlError("macro " + m.name() + ": " + ParseErrors.of(e, text).getMessage());
        }
    }

    /** A tree copied with every node at one position (where a copy cannot be made, the node is kept). */
    private static final class Positions extends SqlShuttle {

        private final SqlParserPos at;

        Positions(SqlParserPos at) {
            this.at = at;
        }

        @Override
        public SqlNode visit(SqlIdentifier id) {
            return id.clone(at);
        }

        @Override
        public SqlNode visit(SqlLiteral literal) {
            return literal.clone(at);
        }

        @Override
        public SqlNode visit(SqlNodeList list) {
            List<SqlNode> items = new ArrayList<>(list.size());
            for (SqlNode item : list) {
                items.add(item == null ? null : item.accept(this));
            }
            return new SqlNodeList(items, at);
        }

        @Override
        public SqlNode visit(SqlCall call) {
            List<SqlNode> operands = new ArrayList<>();
            for (SqlNode operand : call.getOperandList()) {
                operands.add(operand == null ? null : operand.accept(this));
            }
            try {
                return call.getOperator().createCall(call.getFunctionQuantifier(), at,
                        operands.toArray(new SqlNode[0]));
            } catch (RuntimeException cannotCopy) {
                return call;
            }
        }
    }
}

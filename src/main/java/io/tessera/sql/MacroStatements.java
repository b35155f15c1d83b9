package io.tessera.sql;

import io.tessera.sql.parser.TesseraParserImplConstants;
import io.tessera.storage.Macro;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.parser.SqlParseException;
import org.apache.calcite.sql.parser.SqlParser;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.util.SqlBasicVisitor;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * DuckDB's macro statements, read from their tokens: {@code CREATE [OR REPLACE] [TEMP | TEMPORARY] MACRO name(p1,
 * p2 := default, ...) AS expression}, {@code ... AS TABLE query}, {@code DROP MACRO [TABLE] [IF EXISTS] name}, with
 * FUNCTION as MACRO's synonym. The body and each default are parsed here, in place in the statement's text, so a
 * syntax error names its position in the statement; the macro keeps their texts as written
 * ({@link MacroExpansion} parses them again where the macro is called).
 */
final class MacroStatements {

    private MacroStatements() {
    }

    /** Whether the statement whose first tokens are {@code head} creates or drops a macro. */
    static boolean is(List<LeadingTokens.Token> head) {
        int i = LeadingTokens.objectAt(head);
        return i < head.size() && isMacroWord(head.get(i));
    }

    private static boolean isMacroWord(LeadingTokens.Token t) {
        return t.named("MACRO") || t.named("FUNCTION");
    }

    /** The CREATE MACRO or DROP MACRO statement {@code sql} ({@link #is} said so). */
    static Statement parse(String sql) {
        List<LeadingTokens.Token> tokens = LeadingTokens.read(sql, Integer.MAX_VALUE);
        if (tokens.isEmpty() || !tokens.getLast().isEnd()) {
            SqlFrontEnd.parse(sql); // a text the tokenizer cannot read: the parser names the error
            throw new SqlError("syntax error in the macro statement");
        }
        return tokens.getFirst().is(TesseraParserImplConstants.DROP) ? drop(tokens) : create(sql, tokens);
    }

    private static Statement drop(List<LeadingTokens.Token> t) {
        int i = 2; // DROP MACRO
        boolean table = false;
        if (t.get(1).named("MACRO") && t.get(i).is(TesseraParserImplConstants.TABLE)) {
            table = true;
            i++;
        }
        boolean ifExists = false;
        if (t.get(i).named("IF") && t.get(i + 1).named("EXISTS")) {
            ifExists = true;
            i += 2;
        }
        LeadingTokens.Token nameToken = t.get(i);
        String name = name(nameToken, "DROP MACRO needs the macro's name");
        if (!t.get(i + 1).isEnd()) {
            throw new SqlError("syntax error" + t.get(i + 1).at() + ": DROP MACRO takes one name; found "
                    + t.get(i + 1).image());
        }
        return new Statement.DropMacro(name, table, ifExists, position(nameToken));
    }

    private static Statement create(String sql, List<LeadingTokens.Token> t) {
        int i = 1;
        boolean replace = false;
        if (t.get(i).is(TesseraParserImplConstants.OR)) {
            replace = true;
            i += 2;
        }
        boolean temporary = false;
        if (t.get(i).named("TEMP") || t.get(i).named("TEMPORARY")) {
            temporary = true;
            i++;
        }
        i++; // MACRO or FUNCTION
        LeadingTokens.Token nameToken = t.get(i);
        String name = name(nameToken, "CREATE MACRO needs the macro's name");
        i++;
        expect(t.get(i), TesseraParserImplConstants.LPAREN, "(, the macro's parameters");
        i++;
        List<Macro.Parameter> parameters = new ArrayList<>();
        while (!t.get(i).is(TesseraParserImplConstants.RPAREN)) {
            if (!parameters.isEmpty()) {
                expect(t.get(i), TesseraParserImplConstants.COMMA, ", or ) after a parameter");
                i++;
            }
            LeadingTokens.Token p = t.get(i);
            String parameter = name(p, "a macro's parameter is a name");
            for (Macro.Parameter other : parameters) {
                if (other.name().equalsIgnoreCase(parameter)) {
                    throw new SqlError("duplicate parameter \"" + parameter + "\" in macro " + name + p.at());
                }
            }
            i++;
            String defaultValue = null;
            if (t.get(i).is(TesseraParserImplConstants.COLON) && t.get(i + 1).is(TesseraParserImplConstants.EQ)) {
                int start = i + 2;
                int end = endOfDefault(t, start);
                if (end == start) {
                    throw new SqlError("syntax error" + t.get(end).at() + ": parameter " + parameter
                            + " needs a default value after :=");
                }
                defaultValue = sql.substring(t.get(start).offset(), t.get(end).offset()).strip();
                checkDefault(sql, t.get(start).offset(), t.get(end).offset(), parameter);
                i = end;
            } else if (!parameters.isEmpty() && parameters.getLast().defaultValue() != null) {
                throw new SqlError("parameter " + parameter + " without a default follows a parameter with a default"
                        + " in macro " + name + p.at());
            }
            parameters.add(new Macro.Parameter(parameter, defaultValue));
        }
        i++;
        expect(t.get(i), TesseraParserImplConstants.AS, "AS and the macro's body");
        i++;
        boolean table = t.get(i).is(TesseraParserImplConstants.TABLE);
        if (table) {
            i++;
        }
        if (t.get(i).isEnd()) {
            throw new SqlError("syntax error" + t.get(i).at() + ": CREATE MACRO " + name + " needs a body after AS"
                    + (table ? " TABLE (a query)" : " (an expression, or TABLE and a query)"));
        }
        int bodyStart = t.get(i).offset();
        String inPlace = blankOutside(sql, bodyStart, sql.length());
        try {
            SqlParser parser = SqlParser.create(inPlace, SqlFrontEnd.PARSER);
            if (table) {
                parser.parseQuery();
            } else {
                parser.parseExpression();
            }
        } catch (SqlParseException e) {
            throw ParseErrors.of(e, inPlace);
        }
        try {
            return new Statement.CreateMacro(new Macro(name, parameters, sql.substring(bodyStart), table), replace,
                    temporary, position(nameToken));
        } catch (IllegalArgumentException e) {
            throw new SqlError("CREATE MACRO: " + e.getMessage() + nameToken.at());
        }
    }

    /** The index of the token that ends a default starting at {@code start}: a comma or ) outside parentheses. */
    private static int endOfDefault(List<LeadingTokens.Token> t, int start) {
        int depth = 0;
        for (int i = start; i < t.size(); i++) {
            LeadingTokens.Token k = t.get(i);
            if (k.isEnd()) {
                throw new SqlError("syntax error" + k.at() + ": the macro's parameters are closed by )");
            }
            if (depth == 0 && (k.is(TesseraParserImplConstants.COMMA) || k.is(TesseraParserImplConstants.RPAREN))) {
                return i;
            }
            if (k.is(TesseraParserImplConstants.LPAREN) || k.is(TesseraParserImplConstants.LBRACKET)) {
                depth++;
            } else if (k.is(TesseraParserImplConstants.RPAREN) || k.is(TesseraParserImplConstants.RBRACKET)) {
                depth--;
            }
        }
        throw new SqlError("syntax error: the macro's parameters are closed by )");
    }

    /** A default parses as an expression and names no column, as DuckDB requires. */
    private static void checkDefault(String sql, int from, int to, String parameter) {
        String inPlace = blankOutside(sql, from, to);
        SqlNode value;
        try {
            value = SqlParser.create(inPlace, SqlFrontEnd.PARSER).parseExpression();
        } catch (SqlParseException e) {
            throw ParseErrors.of(e, inPlace);
        }
        value.accept(new SqlBasicVisitor<Void>() {
            @Override
            public Void visit(SqlIdentifier id) {
                throw new SqlError("the default value of parameter " + parameter + " cannot name a column ("
                        + id + ")" + SupportCheck.at(id.getParserPosition()));
            }
        });
    }

    private static SqlParserPos position(LeadingTokens.Token t) {
        return new SqlParserPos(t.line(), t.column());
    }

    private static void expect(LeadingTokens.Token t, int kind, String what) {
        if (!t.is(kind)) {
            throw new SqlError("syntax error" + t.at() + ": expected " + what + ", found "
                    + (t.isEnd() ? "the end" : t.image()));
        }
    }

    /** A name: an identifier, quoted or not, or a word that is no reserved word; quotes removed. */
    private static String name(LeadingTokens.Token t, String what) {
        if (t.is(TesseraParserImplConstants.QUOTED_IDENTIFIER)) {
            return t.image().substring(1, t.image().length() - 1).replace("\"\"", "\"");
        }
        String image = t.image();
        boolean word = t.is(TesseraParserImplConstants.IDENTIFIER) || !t.isEnd() && !image.isEmpty()
                && Character.isLetter(image.charAt(0))
                && image.chars().allMatch(c -> Character.isLetterOrDigit(c) || c == '_')
                && !ReservedWords.isReserved(image);
        if (!word) {
            throw new SqlError("syntax error" + t.at() + ": " + what + ", found "
                    + (t.isEnd() ? "the end" : image.toUpperCase(Locale.ROOT)));
        }
        return image;
    }

    /** {@code s} with its text outside {@code [from, to)} turned into spaces, line breaks kept: positions stay. */
    static String blankOutside(String s, int from, int to) {
        StringBuilder b = new StringBuilder(s);
        for (int i = 0; i < b.length(); i++) {
            if ((i < from || i >= to) && b.charAt(i) != '\n' && b.charAt(i) != '\r') {
                b.setCharAt(i, ' ');
            }
        }
        return b.toString();
    }
}

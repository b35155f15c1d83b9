package io.tessera.sql;

import io.tessera.sql.parser.TesseraParserImplConstants;

import java.util.ArrayList;
import java.util.List;

/**
 * The statements of a text that holds several, separated by semicolons ({@code select 1; select 2}): split where
 * Calcite's tokenizer reads a semicolon, so one inside a string, a quoted name or a comment separates nothing.
 * Where the tokenizer cannot go on (an unterminated comment), the rest of the text is one statement, whose parse then
 * names the error.
 */
public final class StatementList {

    private StatementList() {
    }

    /** The statements of {@code text}, each trimmed, without its semicolon; empty ones (only a ;) left out. */
    public static List<String> split(String text) {
        List<String> out = new ArrayList<>();
        int start = 0;
        for (LeadingTokens.Token t : LeadingTokens.read(text, Integer.MAX_VALUE)) {
            if (t.is(TesseraParserImplConstants.SEMICOLON)) {
                add(out, text.substring(start, t.offset()));
                start = t.offset() + 1;
            }
        }
        add(out, text.substring(start));
        return out;
    }

    /** Adds a piece that holds a token (or text the tokenizer cannot read), not only spaces and comments. */
    private static void add(List<String> out, String statement) {
        List<LeadingTokens.Token> first = LeadingTokens.read(statement, 1);
        if (first.isEmpty() || !first.getFirst().isEnd()) {
            out.add(statement.strip());
        }
    }
}

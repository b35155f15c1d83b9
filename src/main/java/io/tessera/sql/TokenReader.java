package io.tessera.sql;

import io.tessera.sql.parser.TesseraParserImplConstants;

import java.util.List;

/**
 * A statement's tokens ({@link LeadingTokens}), read one by one, for the statements Tessera reads from their tokens
 * rather than through the grammar (sequences, indexes): each error names the token's position.
 */
final class TokenReader {

    private final List<LeadingTokens.Token> tokens;
    private int at;

    TokenReader(List<LeadingTokens.Token> tokens) {
        this.tokens = tokens;
    }

    LeadingTokens.Token peek() {
        return tokens.get(Math.min(at, tokens.size() - 1));
    }

    /** The token {@code ahead} places after the next one (0: the next one). */
    LeadingTokens.Token peek(int ahead) {
        return tokens.get(Math.min(at + ahead, tokens.size() - 1));
    }

    LeadingTokens.Token next() {
        LeadingTokens.Token t = peek();
        if (!t.isEnd()) {
            at++;
        }
        return t;
    }

    boolean accept(String word) {
        if (peek().named(word)) {
            at++;
            return true;
        }
        return false;
    }

    void expect(String word) {
        LeadingTokens.Token t = next();
        if (!t.named(word)) {
            throw new SqlError("syntax error" + t.at() + ": " + word + " expected, found "
                    + (t.isEnd() ? "the end" : t.image()));
        }
    }

    /**
     * An object's name: an identifier, quoted or not, or a word that is not reserved; {@code what} names the object
     * in errors ("sequence", "index").
     */
    String name(String what) {
        LeadingTokens.Token t = next();
        if (t.is(TesseraParserImplConstants.QUOTED_IDENTIFIER)) {
            return t.image().substring(1, t.image().length() - 1).replace("\"\"", "\"");
        }
        boolean word = !t.isEnd() && !t.image().isEmpty() && Character.isLetter(t.image().charAt(0))
                && t.image().chars().allMatch(c -> Character.isLetterOrDigit(c) || c == '_');
        if (!word || !t.is(TesseraParserImplConstants.IDENTIFIER) && ReservedWords.isReserved(t.image())) {
            throw new SqlError("syntax error" + t.at() + ": the " + what + "'s name expected, found "
                    + (t.isEnd() ? "the end" : t.image()));
        }
        if (peek().is(TesseraParserImplConstants.DOT)) {
            throw SupportCheck.unsupported("a qualified " + what + " name",
                    new org.apache.calcite.sql.parser.SqlParserPos(t.line(), t.column()));
        }
        return t.image();
    }

    /** A BIGINT, with an optional sign. */
    long number() {
        LeadingTokens.Token t = next();
        boolean negative = false;
        if (t.is(TesseraParserImplConstants.MINUS) || t.is(TesseraParserImplConstants.PLUS)) {
            negative = t.is(TesseraParserImplConstants.MINUS);
            t = next();
        }
        if (!t.is(TesseraParserImplConstants.UNSIGNED_INTEGER_LITERAL)) {
            throw new SqlError("syntax error" + t.at() + ": an integer expected, found "
                    + (t.isEnd() ? "the end" : t.image()));
        }
        try {
            return Long.parseLong((negative ? "-" : "") + t.image());
        } catch (NumberFormatException e) {
            throw new SqlError("syntax error" + t.at() + ": " + (negative ? "-" : "") + t.image()
                    + " is out of BIGINT's range");
        }
    }

    void end() {
        LeadingTokens.Token t = peek();
        if (!t.isEnd()) {
            throw new SqlError("syntax error" + t.at() + ": unexpected " + t.image());
        }
    }
}

package io.tessera.sql;

import io.tessera.sql.parser.ParseException;
import io.tessera.sql.parser.Token;
import org.apache.calcite.sql.parser.SqlParseException;
import org.apache.calcite.sql.parser.SqlParserPos;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A parse error as Tessera reports it: {@code syntax error at line L, column C: ...}. Where the parser met a
 * reserved word where a name could stand ({@code SELECT 1 AS order}), the message says the word is reserved and how
 * to quote it, instead of only that it was not expected ({@link ReservedWords}: {@code value}, {@code year},
 * {@code date}, ... are names, not reserved words).
 */
final class ParseErrors {

    /**
     * The first line of Calcite's message: {@code Encountered "value" at line 1, column 8.}, or, for a word written
     * in upper case, {@code Incorrect syntax near the keyword 'VALUE' at line 1, column 13.}
     */
    private static final Pattern ENCOUNTERED = Pattern.compile(
            "^(?:Encountered \"([^\"]+)\"|Incorrect syntax near the keyword '([^']+)') at line");

    private ParseErrors() {
    }

    static SqlError of(SqlParseException e) {
        String msg = e.getMessage() == null ? "syntax error" : e.getMessage().split("\n")[0];
        Matcher m = ENCOUNTERED.matcher(msg);
        if (m.find() && expectsName(e)) {
            Word word = m.group(1) != null ? lastEncountered(e, m.group(1)) : null;
            if (word == null && m.group(2) != null) {
                word = new Word(m.group(2), e.getPos());
            }
            if (word != null && ReservedWords.isReserved(word.text())) {
                return reservedWord(word.text(), word.pos(), e);
            }
        }
        return new SqlError("syntax error" + SupportCheck.at(e.getPos()) + ": " + msg, e);
    }

    /** A word of the statement and where it stands. */
    private record Word(String text, SqlParserPos pos) {
    }

    /**
     * The last of the tokens the parser encountered ({@code Encountered "table none"}: the parser looked two tokens
     * ahead and failed on {@code none}), with its position, from the parser's token chain; null where there is none.
     */
    private static Word lastEncountered(SqlParseException e, String encountered) {
        int ahead = encountered.split(" ").length;
        if (e.getCause() instanceof ParseException p && p.currentToken != null) {
            Token t = p.currentToken;
            for (int i = 0; i < ahead && t.next != null; i++) {
                t = t.next;
            }
            return new Word(t.image, new SqlParserPos(t.beginLine, t.beginColumn));
        }
        return ahead == 1 ? new Word(encountered, e.getPos()) : null;
    }

    /**
     * The error for a reserved word where a name stands, with how to quote it: a word that DuckDB and PostgreSQL
     * both reserve "is a reserved word"; one that only Tessera's grammar keeps says so.
     */
    static SqlError reservedWord(String word, SqlParserPos pos, Throwable cause) {
        String quoted = "quote it as \"" + word.toLowerCase(Locale.ROOT) + "\"";
        String what = ReservedWords.isShared(word) ? "is a reserved word"
                : "is a keyword that Tessera's SQL grammar cannot take as a name there (DuckDB and PostgreSQL can)";
        return new SqlError("syntax error" + SupportCheck.at(pos) + ": \"" + word + "\" " + what + "; " + quoted, cause);
    }

    /** Whether the parser could have taken a name (an identifier) where it failed. */
    private static boolean expectsName(SqlParseException e) {
        java.util.Collection<String> expected = e.getExpectedTokenNames();
        return expected == null || expected.isEmpty() || expected.stream().anyMatch(t -> t.contains("IDENTIFIER"));
    }
}

package io.tessera.sql;

import io.tessera.sql.parser.ParseException;
import io.tessera.sql.parser.Token;
import org.apache.calcite.sql.parser.SqlParseException;
import org.apache.calcite.sql.parser.SqlParser;
import org.apache.calcite.sql.parser.SqlParserPos;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A parse error as Tessera reports it: {@code syntax error at line L, column C: ...}, with what the parser expected
 * there ({@link ExpectedTokens}) and an unterminated string, quoted name or comment called so. Where the parser met
 * a reserved word used as a name ({@code SELECT 1 AS order}: the statement parses with the word quoted), the
 * message says the word is reserved and how to quote it ({@link ReservedWords}: {@code value}, {@code year},
 * {@code date}, ... are names, not reserved words); a reserved word that starts a construct Tessera lacks
 * ({@code USING SAMPLE}) gets the parser's own message.
 */
final class ParseErrors {

    /**
     * The first line of Calcite's message: {@code Encountered "value" at line 1, column 8.}, or, for a word written
     * in upper case, {@code Incorrect syntax near the keyword 'VALUE' at line 1, column 13.}
     */
    private static final Pattern ENCOUNTERED = Pattern.compile(
            "^(?:Encountered \"((?:[^\"\\\\]|\\\\.)+)\"|Incorrect syntax near the keyword '([^']+)') at line");

    private ParseErrors() {
    }

    /** The error for {@code e}, thrown by parsing {@code sql} with {@link SqlFrontEnd#PARSER}. */
    static SqlError of(SqlParseException e, String sql) {
        String msg = e.getMessage() == null ? "syntax error" : e.getMessage().split("\n")[0];
        Matcher m = ENCOUNTERED.matcher(msg);
        if (m.find()) {
            Word word = m.group(1) != null ? lastEncountered(e, m.group(1)) : null;
            if (word == null && m.group(2) != null) {
                word = new Word(m.group(2), e.getPos());
            }
            if (word != null && expectsName(e) && ReservedWords.isReserved(word.text())
                    && parsesQuoted(sql, word)) {
                return reservedWord(word.text(), word.pos(), e);
            }
            if (word != null && (word.text().equals("'") || word.text().equals("\""))) {
                return unterminated(word, e);
            }
            String token = m.group(1) != null ? m.group(1) : m.group(2);
            msg = "Encountered \"" + token + "\"" + ExpectedTokens.describe(e.getExpectedTokenNames());
        } else if (msg.startsWith("Lexical error") && msg.contains("Encountered: <EOF>")) {
            return unterminatedAtEnd(sql, e);
        }
        Matcher pivot = PIVOT_STATEMENT.matcher(sql);
        if (pivot.find()) {
            String word = pivot.group(1).toUpperCase(java.util.Locale.ROOT);
            String before = sql.substring(0, pivot.start(1));
            int line = (int) before.chars().filter(c -> c == '\n').count() + 1;
            int column = before.length() - before.lastIndexOf('\n');
            return new SqlError("unsupported: this form of DuckDB's " + word + " statement at line " + line
                    + ", column " + column + " (syntax error" + SupportCheck.at(e.getPos()) + ": " + msg
                    + "); it is read as PIVOT t [ON col [IN (v, ...)], ...] [USING agg(x) [AS name], ...] [GROUP BY "
                    + "name, ...]; else write it as a query: SELECT * FROM t PIVOT (sum(x) FOR col IN ('a', 'b')), "
                    + "the values named", e);
        }
        if (msg.startsWith("Non-query expression encountered in illegal context")) {
            return notAStatement(sql, e);
        }
        return new SqlError("syntax error" + SupportCheck.at(e.getPos()) + ": " + msg, e);
    }

    /** The words a statement may begin with, for the hint when its first word is none of them. */
    private static final java.util.List<String> STATEMENT_WORDS = java.util.List.of("SELECT", "WITH", "FROM", "VALUES",
            "TABLE", "INSERT", "UPDATE", "DELETE", "CREATE", "DROP", "COPY", "EXPLAIN", "DESCRIBE", "SHOW", "SUMMARIZE",
            "PIVOT", "UNPIVOT", "EXPORT", "IMPORT");

    /**
     * A statement whose first word begins none ({@code selec 1}, {@code form t}): the parser read an expression there
     * and names only its context. Said as DuckDB says it, with the statement word it is closest to.
     */
    private static SqlError notAStatement(String sql, SqlParseException e) {
        java.util.List<LeadingTokens.Token> first = LeadingTokens.read(sql, 1);
        if (first.isEmpty() || first.getFirst().isEnd()) {
            return new SqlError("syntax error" + SupportCheck.at(e.getPos()) + ": no statement", e);
        }
        LeadingTokens.Token word = first.getFirst();
        if (STATEMENT_WORDS.contains(word.image().toUpperCase(java.util.Locale.ROOT))) {
            // the statement begins well; the parser read a part of it as an expression where none may stand
            // (INSERT INTO t BY NAME ...): its place, not its first word
            return new SqlError("syntax error" + SupportCheck.at(e.getPos()) + ": " + word.image().toUpperCase(
                    java.util.Locale.ROOT) + " does not take what stands there", e);
        }
        String hint = DidYouMean.hint(word.image(), STATEMENT_WORDS);
        return new SqlError("syntax error" + word.at() + " at or near \"" + word.image()
                + "\": no statement begins with it" + (hint.isEmpty()
                ? "; a statement begins with " + String.join(", ", STATEMENT_WORDS) : hint), e);
    }

    /** A statement that begins with DuckDB's PIVOT, whose forms the parser does not all read. */
    private static final Pattern PIVOT_STATEMENT = Pattern.compile("^\\s*(PIVOT)\\b", Pattern.CASE_INSENSITIVE);

    /**
     * The tokenizer met a quote it could not close ({@code 'abc from t}): it gives the quote alone as a token.
     */
    private static SqlError unterminated(Word quote, SqlParseException e) {
        String what = quote.text().equals("'") ? "string literal" : "quoted name";
        return new SqlError("syntax error" + SupportCheck.at(quote.pos()) + ": unterminated " + what + " (the "
                + quote.text() + " here has no closing " + quote.text() + ")", e);
    }

    /** The statement ended inside a comment or a literal the tokenizer had begun. */
    private static SqlError unterminatedAtEnd(String sql, SqlParseException e) {
        int comment = sql.lastIndexOf("/*");
        String what = comment >= 0 && sql.indexOf("*/", comment) < 0 ? "an unterminated comment (/* without */)"
                : "an unterminated literal or quoted name";
        return new SqlError("syntax error" + SupportCheck.at(e.getPos()) + ": the statement ends inside " + what, e);
    }

    /**
     * Whether the statement parses once {@code word} is quoted: then the word stood where a name stands, and only
     * being reserved kept it from being one. A word the statement does not hold at its position (a tab or a line
     * break the parser counts otherwise) is taken as used as a name, as before this check.
     */
    private static boolean parsesQuoted(String sql, Word word) {
        int at = offset(sql, word.pos());
        if (at < 0 || !sql.regionMatches(true, at, word.text(), 0, word.text().length())) {
            return true;
        }
        String quoted = sql.substring(0, at) + '"' + word.text().toLowerCase(Locale.ROOT) + '"'
                + sql.substring(at + word.text().length());
        try {
            SqlParser.create(quoted, SqlFrontEnd.PARSER).parseStmt();
            return true;
        } catch (SqlParseException | RuntimeException again) {
            return false;
        }
    }

    /** The character offset of a parser position (lines and columns from 1), or -1 outside the text. */
    private static int offset(String sql, SqlParserPos pos) {
        int at = 0;
        for (int line = 1; line < pos.getLineNum(); line++) {
            at = sql.indexOf('\n', at) + 1;
            if (at == 0) {
                return -1;
            }
        }
        at += pos.getColumnNum() - 1;
        return at >= 0 && at < sql.length() ? at : -1;
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

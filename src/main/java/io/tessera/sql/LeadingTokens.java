package io.tessera.sql;

import org.apache.calcite.sql.parser.SqlAbstractParserImpl;
import org.apache.calcite.sql.parser.SqlParserPos;
import io.tessera.sql.parser.SimpleCharStream;
import io.tessera.sql.parser.TesseraParserImplConstants;
import io.tessera.sql.parser.TesseraParserImplTokenManager;
import io.tessera.sql.parser.TokenMgrError;
import org.apache.calcite.util.SourceStringReader;

import java.util.ArrayList;
import java.util.List;

/**
 * The first tokens of a statement, read by Calcite's own tokenizer with the configuration queries are parsed with
 * (comments skipped, quoted identifiers whole), each with the offset in the text where it begins. Enough to tell
 * which kind of statement the text is, and where the query of an EXPLAIN starts.
 */
final class LeadingTokens {

    /**
     * One token: its kind (a constant of {@link TesseraParserImplConstants}), its text, and where it begins: as an
     * offset in the text, and as the 1-based line and column that errors name.
     */
    record Token(int kind, String image, int offset, int line, int column) {

        boolean is(int k) {
            return kind == k;
        }

        /** Whether this is the unquoted word {@code word}, in any case: a word of Tessera's that Calcite lacks. */
        boolean isWord(String word) {
            return kind == TesseraParserImplConstants.IDENTIFIER && image.equalsIgnoreCase(word);
        }

        /** Whether this is {@code word}, in any case, as a keyword or an unquoted word (ANALYZE, FORMAT, JSON). */
        boolean named(String word) {
            // a quoted identifier's or a literal's image keeps its quotes, so it never matches
            return image.equalsIgnoreCase(word);
        }

        /** " at line L, column C", as errors name a position. */
        String at() {
            return SupportCheck.at(new SqlParserPos(line, column));
        }

        boolean isEnd() {
            return kind == TesseraParserImplConstants.EOF;
        }
    }

    /** The tokenizer's state for the quoting of identifiers that queries are parsed with. */
    private static final int LEXICAL_STATE = List.of(TesseraParserImplTokenManager.lexStateNames)
            .indexOf(SqlAbstractParserImpl.LexicalState.forConfig(SqlFrontEnd.PARSER).name());

    private LeadingTokens() {
    }

    /**
     * Up to {@code max} tokens of {@code sql}, ending early at its end (an EOF token) or where the tokenizer
     * cannot go on (then the parser that reads the whole text names the error).
     */
    static List<Token> read(String sql, int max) {
        TesseraParserImplTokenManager tokenizer = new TesseraParserImplTokenManager(new CharStream(sql), LEXICAL_STATE);
        List<Token> tokens = new ArrayList<>();
        try {
            for (int i = 0; i < max; i++) {
                io.tessera.sql.parser.Token t = tokenizer.getNextToken();
                boolean end = t.kind == TesseraParserImplConstants.EOF;
                tokens.add(new Token(t.kind, t.image, end ? sql.length() : offset(sql, t.beginLine, t.beginColumn),
                        t.beginLine, t.beginColumn));
                if (end) {
                    break;
                }
            }
        } catch (TokenMgrError e) {
            // not a token: the parser of the whole statement reports it with its position
        }
        return tokens;
    }

    /** The text as Calcite's tokenizer reads it, a tab one column as in the parser's positions. */
    private static final class CharStream extends SimpleCharStream {

        CharStream(String sql) {
            // the buffer grows as needed; an empty one would not
            super(new SourceStringReader(sql), 1, 1, Math.clamp(sql.length(), 16, 4096));
            setTabSize(1);
        }
    }

    /** Where the word naming the object stands: after CREATE, CREATE OR REPLACE, CREATE TEMP, DROP. */
    static int objectAt(List<LeadingTokens.Token> head) {
        int i = 1;
        if (head.getFirst().is(TesseraParserImplConstants.CREATE)) {
            if (i + 1 < head.size() && head.get(i).is(TesseraParserImplConstants.OR)
                    && head.get(i + 1).is(TesseraParserImplConstants.REPLACE)) {
                i += 2;
            }
            if (i < head.size() && (head.get(i).named("TEMP") || head.get(i).named("TEMPORARY"))) {
                i++;
            }
        }
        return i;
    }

    /**
     * The offset of a 1-based line and column in {@code text}, counting line breaks as Calcite's tokenizer does:
     * {@code \n}, {@code \r} and {@code \r\n} each end a line.
     */
    static int offset(String text, int line, int column) {
        int i = 0;
        for (int l = 1; l < line && i < text.length(); l++) {
            while (i < text.length() && text.charAt(i) != '\n' && text.charAt(i) != '\r') {
                i++;
            }
            if (i + 1 < text.length() && text.charAt(i) == '\r' && text.charAt(i + 1) == '\n') {
                i++;
            }
            i++;
        }
        return Math.min(text.length(), i + column - 1);
    }
}

package io.tessera.cli;

import java.util.ArrayList;
import java.util.List;

/**
 * Splits SQL text into statements at semicolons, except semicolons inside string literals ({@code 'it''s;'}),
 * quoted identifiers ({@code "a;b"}), line comments ({@code -- ;}) and block comments ({@code /* ; *}{@code /}).
 * A piece that holds only whitespace and comments is no statement.
 */
public final class StatementSplitter {

    /**
     * The result of splitting.
     *
     * @param pieces     the complete statements (each ended by a semicolon), trimmed, without the semicolon
     * @param rest       the text after the last semicolon, as it was
     * @param restHasCode whether the rest holds anything besides whitespace and comments
     * @param restOpen   whether the rest ends inside a string, a quoted identifier or a block comment
     */
    public record Split(List<Piece> pieces, String rest, boolean restHasCode, boolean restOpen) {

        /** The complete statements' text. */
        public List<String> statements() {
            return pieces.stream().map(Piece::sql).toList();
        }

        /** Whether more input is needed to finish the last statement. */
        public boolean pending() {
            return restHasCode || restOpen;
        }
    }

    /**
     * A statement of the text and where it starts there.
     *
     * @param sql    the statement, trimmed, without its semicolon
     * @param offset where its first character is in the text split
     */
    public record Piece(String sql, int offset) {
    }

    private StatementSplitter() {
    }

    /** All statements of a script; text after the last semicolon counts as a statement when it holds code. */
    public static List<String> statements(String script) {
        return pieces(script).stream().map(Piece::sql).toList();
    }

    /** {@link #statements}, each with where it starts in the script. */
    public static List<Piece> pieces(String script) {
        Split s = split(script);
        if (!s.restHasCode()) {
            return s.pieces();
        }
        List<Piece> all = new ArrayList<>(s.pieces());
        all.add(piece(script, script.length() - s.rest().length(), script.length()));
        return all;
    }

    public static Split split(String text) {
        List<Piece> out = new ArrayList<>();
        int start = 0;
        boolean code = false;
        int n = text.length();
        int i = 0;
        while (i < n) {
            char ch = text.charAt(i);
            if (ch == '\'' || ch == '"') {
                code = true;
                int close = closingQuote(text, i + 1, ch);
                if (close < 0) {
                    return new Split(out, text.substring(start), true, true);
                }
                i = close + 1;
            } else if (ch == '-' && i + 1 < n && text.charAt(i + 1) == '-') {
                int eol = text.indexOf('\n', i + 2);
                i = eol < 0 ? n : eol + 1;
            } else if (ch == '/' && i + 1 < n && text.charAt(i + 1) == '*') {
                int end = text.indexOf("*/", i + 2);
                if (end < 0) {
                    return new Split(out, text.substring(start), code, true);
                }
                i = end + 2;
            } else if (ch == ';') {
                if (code) {
                    out.add(piece(text, start, i));
                }
                start = i + 1;
                code = false;
                i++;
            } else {
                if (!Character.isWhitespace(ch)) {
                    code = true;
                }
                i++;
            }
        }
        return new Split(out, text.substring(start), code, false);
    }

    /** The statement of {@code text} from {@code start} to {@code end}, trimmed, and where it starts. */
    private static Piece piece(String text, int start, int end) {
        String raw = text.substring(start, end);
        String sql = raw.strip();
        return new Piece(sql, start + raw.length() - raw.stripLeading().length());
    }

    /** Index of the quote that closes a literal opened before {@code from}, or -1; a doubled quote is an escape. */
    private static int closingQuote(String text, int from, char quote) {
        int i = from;
        while (true) {
            int q = text.indexOf(quote, i);
            if (q < 0) {
                return -1;
            }
            if (q + 1 < text.length() && text.charAt(q + 1) == quote) {
                i = q + 2;
                continue;
            }
            return q;
        }
    }
}

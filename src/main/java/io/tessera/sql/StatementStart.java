package io.tessera.sql;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Where a statement starts in the text it was split from ({@code select 1; selec 2}: the second at line 1, column
 * 11), 1-based as the parser counts (a tab one column). An error names positions in the statement it parsed; {@link
 * #moved} names them in the whole text, as the user typed it.
 */
public record StatementStart(int line, int column) {

    /** A statement that is the whole text. */
    public static final StatementStart FIRST = new StatementStart(1, 1);

    /** A position in an error's message ({@code at line 1, column 8}, {@code From line 1, column 8 to line 1, ...}). */
    private static final Pattern POSITION = Pattern.compile("\\bline (\\d{1,9}), column (\\d{1,9})");

    /**
     * An error of a view names positions in the view's query, not the statement's: the message's text from this
     * on is left as it is.
     */
    private static final Pattern VIEW = Pattern.compile("\\bview [^\\s:]+: ");

    /** Where {@code text}'s character at {@code offset} stands in it. */
    public static StatementStart of(String text, int offset) {
        int line = 1;
        int lineStart = 0;
        for (int i = 0; i < offset; i++) {
            char c = text.charAt(i);
            // \r\n is one line break, as the parser counts it; so is a \r alone
            if (c == '\n' || c == '\r' && (i + 1 >= text.length() || text.charAt(i + 1) != '\n')) {
                line++;
                lineStart = i + 1;
            }
        }
        return new StatementStart(line, offset - lineStart + 1);
    }

    /**
     * Where {@code inner}, the query a statement holds (EXPLAIN's, CREATE ... AS's, COPY (query) TO's), starts in
     * {@code statement}'s text: at its end, trailing semicolons and spaces aside, else where the text holds it once;
     * {@link #FIRST} where it holds it nowhere (DESCRIBE t's query of the table) or twice.
     */
    public static StatementStart ofInner(String statement, String inner) {
        String s = statement.stripTrailing();
        while (s.endsWith(";")) {
            s = s.substring(0, s.length() - 1).stripTrailing();
        }
        if (s.endsWith(inner)) {
            return of(s, s.length() - inner.length());
        }
        int at = s.indexOf(inner);
        return at >= 0 && at == s.lastIndexOf(inner) ? of(s, at) : FIRST;
    }

    /** The position in the whole text of a position in the statement ({@code inner}'s line 1 starts at this). */
    public StatementStart plus(StatementStart inner) {
        return inner.line == 1 ? new StatementStart(line, column + inner.column - 1)
                : new StatementStart(line + inner.line - 1, inner.column);
    }

    /** {@code message} with each position in the statement named as its position in the whole text. */
    public String moved(String message) {
        if (equals(FIRST) || message == null) {
            return message;
        }
        Matcher view = VIEW.matcher(message);
        int end = view.find() ? view.start() : message.length();
        Matcher m = POSITION.matcher(message).region(0, end);
        StringBuilder sb = new StringBuilder();
        while (m.find()) {
            StatementStart p = plus(new StatementStart(Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2))));
            m.appendReplacement(sb, "line " + p.line + ", column " + p.column);
        }
        m.appendTail(sb);
        return sb.toString();
    }
}

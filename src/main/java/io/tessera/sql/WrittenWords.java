package io.tessera.sql;

import org.apache.calcite.sql.parser.SqlParserPos;

/**
 * The words of a statement's text as the user wrote them, found by a parsed node's position: DuckDB names a result
 * column with some words as written ({@code CAST(x AS Date)}), where the parsed tree keeps only their meaning.
 */
final class WrittenWords {

    /** No text: every look-up finds nothing, and names are spelt from the parsed tree alone. */
    static final WrittenWords NONE = new WrittenWords(null);

    private final String text;

    private WrittenWords(String text) {
        this.text = text;
    }

    static WrittenWords of(String text) {
        return text == null ? NONE : new WrittenWords(text);
    }

    /**
     * The word (letters, digits and _) that starts at {@code pos} in the text, where it is {@code expected} but for
     * case; null where the text has another word there, or none.
     */
    String at(SqlParserPos pos, String expected) {
        int start = offset(pos.getLineNum(), pos.getColumnNum());
        if (start < 0) {
            return null;
        }
        int end = start;
        while (end < text.length() && (Character.isLetterOrDigit(text.charAt(end)) || text.charAt(end) == '_')) {
            end++;
        }
        String word = start < end ? text.substring(start, end) : null;
        return word != null && word.equalsIgnoreCase(expected) ? word : null;
    }

    /** Whether the text from {@code pos}'s start to its end is {@code words}, but for case and white space. */
    boolean spans(SqlParserPos pos, String words) {
        int start = offset(pos.getLineNum(), pos.getColumnNum());
        int end = offset(pos.getEndLineNum(), pos.getEndColumnNum());
        return start >= 0 && end >= start && end < text.length()
                && text.substring(start, end + 1).replaceAll("\\s+", " ").equalsIgnoreCase(words);
    }

    /** The text from {@code pos}'s start to its end, as written; null where the text is not known. */
    String span(SqlParserPos pos) {
        int start = offset(pos.getLineNum(), pos.getColumnNum());
        int end = offset(pos.getEndLineNum(), pos.getEndColumnNum());
        return start >= 0 && end >= start ? text.substring(start, end + 1) : null;
    }

    /** Whether the first word after {@code pos}'s end, past white space, is {@code word} but for case. */
    boolean followedBy(SqlParserPos pos, String word) {
        int end = offset(pos.getEndLineNum(), pos.getEndColumnNum());
        if (end < 0) {
            return false;
        }
        int start = end + 1;
        while (start < text.length() && Character.isWhitespace(text.charAt(start))) {
            start++;
        }
        int stop = start;
        while (stop < text.length() && (Character.isLetterOrDigit(text.charAt(stop)) || text.charAt(stop) == '_')) {
            stop++;
        }
        return text.substring(start, stop).equalsIgnoreCase(word);
    }

    /** The offset in the text of a 1-based line and column (the parser counts a tab as one column); -1 if none. */
    private int offset(int line, int column) {
        if (text == null || line < 1 || column < 1) {
            return -1;
        }
        int start = 0;
        for (int l = 1; l < line; l++) {
            start = text.indexOf('\n', start) + 1;
            if (start == 0) {
                return -1;
            }
        }
        return start + column - 1 < text.length() ? start + column - 1 : -1;
    }
}

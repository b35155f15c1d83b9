package io.tessera.cli;

import org.jline.reader.EOFError;
import org.jline.reader.ParsedLine;
import org.jline.reader.Parser;
import org.jline.reader.SyntaxError;
import org.jline.reader.impl.DefaultParser;

/**
 * Tells JLine when the buffer holds complete input: Enter on a statement that does not end in ';' (or that ends
 * inside a string or a comment) opens a continuation line instead of accepting. A backslash command is complete
 * on its own line. Backslashes are no escape characters here, so {@code \timing} reaches the shell as typed.
 */
final class SqlLineParser implements Parser {

    private final DefaultParser words = new DefaultParser().escapeChars(new char[0]);

    @Override
    public ParsedLine parse(String line, int cursor, ParseContext context) throws SyntaxError {
        if (context == ParseContext.ACCEPT_LINE && !isComplete(line)) {
            throw new EOFError(-1, -1, "the statement continues", "...");
        }
        return words.parse(line, cursor, ParseContext.COMPLETE);
    }

    static boolean isComplete(String buffer) {
        if (SqlSession.isCommand(buffer)) {
            return true;
        }
        return !StatementSplitter.split(buffer).pending();
    }

    @Override
    public boolean isEscapeChar(char ch) {
        return false;
    }
}

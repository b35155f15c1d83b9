package io.tessera.cli;

import org.jline.reader.CompletingParsedLine;
import org.jline.reader.EOFError;
import org.jline.reader.ParsedLine;
import org.jline.reader.Parser;
import org.jline.reader.SyntaxError;

import java.util.List;

/**
 * Tells JLine when the buffer holds complete input: Enter on a statement that does not end in ';' (or that ends
 * inside a string or a comment) opens a continuation line instead of accepting. A command is complete on its own
 * line, also on a line after an unfinished statement (the shell runs it, then gives the statement back to finish).
 * Backslashes are no escape characters here, so {@code \timing} reaches the shell as typed. For completion, the word
 * at the cursor is a name as SQL writes it ({@code t.col}), or on a command line anything up to a blank.
 */
final class SqlLineParser implements Parser {

    @Override
    public ParsedLine parse(String line, int cursor, ParseContext context) throws SyntaxError {
        if (context == ParseContext.ACCEPT_LINE && !isComplete(line)) {
            throw new EOFError(-1, -1, "the statement continues", "...");
        }
        return Word.at(line, cursor);
    }

    static boolean isComplete(String buffer) {
        if (SqlSession.isCommand(buffer) || lastLineIsCommand(buffer)) {
            return true;
        }
        return !StatementSplitter.split(buffer).pending();
    }

    /** Whether the buffer's last line, after an earlier line, is a command. */
    static boolean lastLineIsCommand(String buffer) {
        int nl = buffer.lastIndexOf('\n');
        return nl >= 0 && ShellCommand.isCommand(buffer.substring(nl + 1), true);
    }

    @Override
    public boolean isEscapeChar(char ch) {
        return false;
    }

    /** The word before the cursor, which a completion replaces; candidates are inserted as they are. */
    record Word(String line, int cursor, String word, int wordCursor) implements CompletingParsedLine {

        static Word at(String line, int cursor) {
            int lineStart = line.lastIndexOf('\n', Math.max(0, cursor - 1)) + 1;
            boolean command = isCommandLine(line.substring(lineStart, cursor));
            int start = cursor;
            while (start > lineStart && (command ? !Character.isWhitespace(line.charAt(start - 1))
                    : isNameChar(line.charAt(start - 1)))) {
                start--;
            }
            return new Word(line, cursor, line.substring(start, cursor), cursor - start);
        }

        /** Whether the text of a line (up to the cursor) is a command being typed. */
        static boolean isCommandLine(String text) {
            String s = text.stripLeading();
            return s.startsWith("\\") || s.startsWith(".") && (s.length() == 1 || Character.isLetter(s.charAt(1)));
        }

        private static boolean isNameChar(char ch) {
            return Character.isLetterOrDigit(ch) || ch == '_' || ch == '.' || ch == '$';
        }

        @Override
        public int wordIndex() {
            return 0;
        }

        @Override
        public List<String> words() {
            return List.of(word);
        }

        @Override
        public CharSequence escape(CharSequence candidate, boolean complete) {
            return candidate;
        }

        @Override
        public int rawWordCursor() {
            return wordCursor;
        }

        @Override
        public int rawWordLength() {
            return word.length();
        }
    }
}

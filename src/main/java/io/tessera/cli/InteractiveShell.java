package io.tessera.cli;

import io.tessera.sql.StatementStart;
import io.tessera.api.QueryCancel;
import org.jline.reader.EndOfFileException;
import org.jline.reader.LineReader;
import org.jline.reader.LineReaderBuilder;
import org.jline.reader.UserInterruptException;
import org.jline.terminal.Terminal;

import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The interactive shell on a terminal, with line editing and history (JLine). Prompts are {@code tessera> } and
 * {@code      ...> } on continuation lines. Ctrl-C drops the line being typed, or cancels the statement that runs
 * (the shell stays); Ctrl-D or {@code \q} quits. Tab completes ({@link SqlCompleter}). A command typed on a line
 * after an unfinished statement runs, and the statement comes back to be finished (as psql keeps it).
 */
final class InteractiveShell {

    static final String PROMPT = "tessera> ";
    static final String CONTINUATION = "     ...> ";

    private InteractiveShell() {
    }

    /** Where history is kept: the system property {@code tessera.history}, else {@code ~/.tessera_history}. */
    static Path historyFile() {
        String p = System.getProperty("tessera.history");
        return p != null && !p.isBlank() ? Path.of(p) : Path.of(System.getProperty("user.home"), ".tessera_history");
    }

    static void run(Terminal terminal, SqlSession session) {
        LineReader reader = LineReaderBuilder.builder()
                .terminal(terminal)
                .appName("tessera")
                .parser(new SqlLineParser())
                .completer(new SqlCompleter(session.database()))
                .variable(LineReader.HISTORY_FILE, historyFile())
                .variable(LineReader.HISTORY_FILE_SIZE, 10_000)
                .variable(LineReader.SECONDARY_PROMPT_PATTERN, CONTINUATION)
                .option(LineReader.Option.DISABLE_EVENT_EXPANSION, true)
                .option(LineReader.Option.HISTORY_IGNORE_DUPS, true)
                .option(LineReader.Option.CASE_INSENSITIVE, true)
                .build();
        // Ctrl-C while a statement runs cancels it (it stops at its next morsel or kernel launch and says "query
        // cancelled"); while a line is typed, JLine handles it (the line is dropped). Without this handler the
        // signal would end the JVM, and the shell with it.
        AtomicReference<QueryCancel> running = new AtomicReference<>();
        terminal.handle(Terminal.Signal.INT, signal -> {
            QueryCancel c = running.get();
            if (c != null) {
                c.cancel();
            }
        });
        var w = terminal.writer();
        w.println("Tessera shell. Statements end with ';'. \\help lists the commands, \\q quits.");
        w.flush();
        String unfinished = null;
        try {
            while (true) {
                String input;
                try {
                    input = reader.readLine(PROMPT, null, (Character) null, unfinished);
                } catch (UserInterruptException e) {
                    unfinished = null;
                    continue;
                } catch (EndOfFileException e) {
                    break;
                }
                unfinished = null;
                if (SqlSession.isCommand(input)) {
                    if (!session.command(input)) {
                        break;
                    }
                    continue;
                }
                if (SqlLineParser.lastLineIsCommand(input)) {
                    // a command after an unfinished statement: the complete statements before it run, then the
                    // command, and what is left of the statement is the next line's text to finish
                    int nl = input.lastIndexOf('\n');
                    String typed = input.substring(0, nl);
                    StatementSplitter.Split before = StatementSplitter.split(typed);
                    if (!runStatements(session, typed, before.pieces(), running)) {
                        continue;
                    }
                    if (!session.command(input.substring(nl + 1))) {
                        break;
                    }
                    String rest = before.rest().strip();
                    unfinished = rest.isEmpty() ? null : rest + "\n";
                    continue;
                }
                runStatements(session, input, StatementSplitter.split(input).pieces(), running);
            }
        } finally {
            session.close();
            try {
                reader.getHistory().save();
            } catch (java.io.IOException e) {
                session.error(new java.io.IOException("cannot save history to " + historyFile() + ": "
                        + e.getMessage(), e));
            }
        }
    }

    /**
     * Runs the statements of the text typed in turn (an error names its positions in that text); returns false when
     * Ctrl-C stopped one (the rest are not run).
     */
    private static boolean runStatements(SqlSession session, String typed,
                                         java.util.List<StatementSplitter.Piece> statements,
                                         AtomicReference<QueryCancel> running) {
        for (StatementSplitter.Piece piece : statements) {
            QueryCancel cancel = new QueryCancel();
            running.set(cancel);
            try {
                session.execute(piece.sql(), StatementStart.of(typed, piece.offset()), cancel);
            } finally {
                running.set(null);
            }
            if (cancel.isCancelled()) {
                return false; // Ctrl-C stops the rest of what was typed too
            }
        }
        return true;
    }
}

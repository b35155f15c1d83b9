package io.tessera.cli;

import org.jline.reader.EndOfFileException;
import org.jline.reader.LineReader;
import org.jline.reader.LineReaderBuilder;
import org.jline.reader.UserInterruptException;
import org.jline.terminal.Terminal;

import java.nio.file.Path;

/**
 * The interactive shell on a terminal, with line editing and history (JLine). Prompts are {@code tessera> } and
 * {@code      ...> } on continuation lines. Ctrl-C drops the line being typed; Ctrl-D or {@code \q} quits.
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
                .variable(LineReader.HISTORY_FILE, historyFile())
                .variable(LineReader.HISTORY_FILE_SIZE, 10_000)
                .variable(LineReader.SECONDARY_PROMPT_PATTERN, CONTINUATION)
                .option(LineReader.Option.DISABLE_EVENT_EXPANSION, true)
                .option(LineReader.Option.HISTORY_IGNORE_DUPS, true)
                .build();
        var w = terminal.writer();
        w.println("Tessera shell. Statements end with ';'. \\help lists the commands, \\q quits.");
        w.flush();
        try {
            while (true) {
                String input;
                try {
                    input = reader.readLine(PROMPT);
                } catch (UserInterruptException e) {
                    continue;
                } catch (EndOfFileException e) {
                    break;
                }
                if (SqlSession.isCommand(input)) {
                    if (!session.command(input)) {
                        break;
                    }
                    continue;
                }
                for (String sql : StatementSplitter.split(input).statements()) {
                    session.execute(sql);
                }
            }
        } finally {
            try {
                reader.getHistory().save();
            } catch (java.io.IOException e) {
                session.error(new java.io.IOException("cannot save history to " + historyFile() + ": "
                        + e.getMessage(), e));
            }
        }
    }
}

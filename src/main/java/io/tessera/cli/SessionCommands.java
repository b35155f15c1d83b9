package io.tessera.cli;

import io.tessera.api.QueryResult;
import io.tessera.api.ResultColumn;
import io.tessera.cli.format.OutputFormat;
import io.tessera.storage.ColumnSchema;
import io.tessera.storage.DataType;
import io.tessera.storage.Table;
import io.tessera.storage.View;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The commands of the shell and of scripts ({@link ShellCommand}): listings of the database, the output settings,
 * {@code \i} (a script read from a file) and {@code \o} (results into a file).
 */
final class SessionCommands {

    static final String HELP = """
            Statements end with ';' and may span lines. Commands (DuckDB's dot commands in brackets):
              \\tables, \\dt, \\d   [.tables]   list the tables with their row counts
              \\d TABLE                       describe a table's (or a view's) columns
              \\schema [TABLE]    [.schema]   the CREATE statements of the tables and views
              \\dv                            list the views with their queries
              \\format table|csv|json [.mode] set the output format
              \\x [on|off]                    expanded display: one line per column
              \\maxrows N        [.maxrows]   rows a long table shows here, first and last (0: all)
              \\timing [on|off]   [.timer]    show compile and run time after each result
              \\i FILE            [.read]     run the statements and commands of a file
              \\o [FILE]          [.output]   write results to a file; without FILE, here again
              \\help, \\?          [.help]     this list
              \\q, \\quit          [.quit]     quit (Ctrl-D too)
            Tab completes table and column names, keywords, functions and commands.
            """;

    /** How deep {@code \i} may nest (a file that reads itself stops here). */
    static final int MAX_INCLUDE_DEPTH = 16;

    private final SqlSession session;
    private int includeDepth;

    SessionCommands(SqlSession session) {
        this.session = session;
    }

    /** Runs {@code c}; returns false when it asks to quit. */
    boolean run(ShellCommand c) {
        try {
            return dispatch(c);
        } catch (RuntimeException | IOException e) {
            session.error(e);
            return true;
        }
    }

    private boolean dispatch(ShellCommand c) throws IOException {
        List<String> words = c.words();
        switch (c.name()) {
            case "\\q" -> {
                return false;
            }
            case "\\help" -> session.write(HELP);
            case "\\timing" -> {
                session.timing(onOff(c, session.timing()));
                session.note("Timing is " + (session.timing() ? "on" : "off") + ".");
            }
            case "\\x" -> {
                session.expanded(onOff(c, session.expanded()));
                session.note("Expanded display is " + (session.expanded() ? "on" : "off") + ".");
            }
            case "\\format" -> format(c);
            case "\\maxrows" -> {
                atMostOne(c, words);
                if (!words.isEmpty()) {
                    session.maxRows(parseRows(words.get(0)));
                }
                session.note(session.maxRows() == 0 ? "Every row of a result is shown."
                        : "A longer result shows its first and last rows, " + session.maxRows() + " in all.");
            }
            case "\\tables" -> {
                if (!words.isEmpty()) {
                    throw new IllegalArgumentException(c.typed() + " takes no argument; \\d " + words.get(0)
                            + " describes a table");
                }
                session.print(tables());
            }
            case "\\d" -> {
                atMostOne(c, words);
                session.print(words.isEmpty() ? tables() : describe(words.get(0)));
            }
            case "\\dv" -> {
                if (!words.isEmpty()) {
                    throw new IllegalArgumentException(c.typed() + " takes no argument");
                }
                session.print(views());
            }
            case "\\schema" -> {
                atMostOne(c, words);
                session.write(SchemaText.of(session.database(), words.isEmpty() ? null : words.get(0)));
            }
            case "\\i" -> {
                return include(c);
            }
            case "\\o" -> {
                Path file = c.argument() == null ? null : Path.of(c.argument());
                session.outputTo(file);
                session.note(file == null ? "Results are shown here." : "Results go to " + file + ".");
            }
            default -> {
                String close = c.suggestion();
                session.error("unknown command " + c.typed() + (close != null ? "; did you mean " + close + "?"
                        : " (\\help lists the commands)"));
            }
        }
        return true;
    }

    /** {@code \i FILE}: the file's statements and commands, as a script; a {@code \q} in it quits. */
    private boolean include(ShellCommand c) throws IOException {
        if (c.argument() == null) {
            throw new IllegalArgumentException(c.typed() + " needs a file name");
        }
        if (includeDepth >= MAX_INCLUDE_DEPTH) {
            throw new IllegalArgumentException(c.typed() + " " + c.argument() + ": files read each other more than "
                    + MAX_INCLUDE_DEPTH + " deep");
        }
        Path file = Path.of(c.argument());
        includeDepth++;
        try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            return session.runScript(in);
        } catch (java.nio.file.NoSuchFileException e) {
            throw new IllegalArgumentException("no such file: " + file, e);
        } finally {
            includeDepth--;
        }
    }

    private void format(ShellCommand c) {
        List<String> words = c.words();
        atMostOne(c, words);
        if (words.isEmpty()) {
            session.note("Format is " + session.format().label() + " (" + OutputFormat.names() + ").");
            return;
        }
        String name = words.get(0).toLowerCase(Locale.ROOT);
        // DuckDB's modes that are a table or records here
        switch (name) {
            case "box", "duckbox", "ascii", "table" -> {
                session.format(OutputFormat.TABLE);
                session.expanded(false);
            }
            case "line" -> {
                session.format(OutputFormat.TABLE);
                session.expanded(true);
            }
            default -> session.format(OutputFormat.parse(name));
        }
        session.note("Format is " + session.format().label() + (session.expanded() ? ", expanded" : "") + ".");
    }

    private static boolean onOff(ShellCommand c, boolean now) {
        List<String> words = c.words();
        atMostOne(c, words);
        if (words.isEmpty()) {
            return !now;
        }
        String w = words.get(0);
        if (w.equalsIgnoreCase("on") || w.equalsIgnoreCase("off")) {
            return w.equalsIgnoreCase("on");
        }
        throw new IllegalArgumentException(c.typed() + " takes on or off, not '" + w + "'");
    }

    private static void atMostOne(ShellCommand c, List<String> words) {
        if (words.size() > 1) {
            throw new IllegalArgumentException(c.typed() + " takes at most one argument");
        }
    }

    private static int parseRows(String text) {
        try {
            int n = Integer.parseInt(text);
            if (n >= 0) {
                return n;
            }
        } catch (NumberFormatException e) {
            // said below
        }
        throw new IllegalArgumentException("\\maxrows takes a number of rows (0: all), not '" + text + "'");
    }

    private QueryResult tables() {
        List<ResultColumn> cols = List.of(
                new ResultColumn("table", DataType.VARCHAR, false),
                new ResultColumn("rows", DataType.BIGINT, false),
                new ResultColumn("columns", DataType.INTEGER, false),
                new ResultColumn("size", DataType.VARCHAR, false));
        List<Object[]> rows = new ArrayList<>();
        for (Table t : session.database().tables()) {
            rows.add(new Object[] {t.name(), t.rowCount(), t.schema().columns().size(),
                    io.tessera.storage.ByteSizes.text(t.sizeBytes())});
        }
        return new QueryResult(cols, rows, 0, 0);
    }

    private QueryResult views() {
        List<ResultColumn> cols = List.of(
                new ResultColumn("view", DataType.VARCHAR, false),
                new ResultColumn("columns", DataType.VARCHAR, false),
                new ResultColumn("query", DataType.VARCHAR, false));
        List<Object[]> rows = new ArrayList<>();
        for (View v : session.database().views()) {
            rows.add(new Object[] {v.name(), String.join(", ", v.columns()), v.query()});
        }
        return new QueryResult(cols, rows, 0, 0);
    }

    private QueryResult describe(String table) {
        List<ResultColumn> cols = List.of(
                new ResultColumn("column", DataType.VARCHAR, false),
                new ResultColumn("type", DataType.VARCHAR, false),
                new ResultColumn("nullable", DataType.BOOLEAN, false));
        List<Object[]> rows = new ArrayList<>();
        var database = session.database();
        if (!database.hasTable(table) && database.view(table) != null) {
            // a view's columns are its query's: planned and run without rows
            QueryResult none = session.runner().run("SELECT * FROM \"" + database.view(table).name() + "\" LIMIT 0");
            for (ResultColumn c : none.columns()) {
                rows.add(new Object[] {c.name(), c.type().toString(), c.nullable()});
            }
            return new QueryResult(cols, rows, 0, 0);
        }
        Table t = database.table(table);
        for (ColumnSchema c : t.schema().columns()) {
            rows.add(new Object[] {c.name(), c.type().toString(), c.nullable()});
        }
        return new QueryResult(cols, rows, 0, 0);
    }
}

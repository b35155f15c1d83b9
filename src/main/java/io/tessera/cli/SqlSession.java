package io.tessera.cli;

import io.tessera.sql.StatementStart;
import io.tessera.api.QueryCancel;
import io.tessera.api.QueryResult;
import io.tessera.api.RowSink;
import io.tessera.api.ResultColumn;
import io.tessera.cli.format.ExpandedFormatter;
import io.tessera.cli.format.OutputFormat;
import io.tessera.cli.format.ResultFormatter;
import io.tessera.cli.format.TableFormatter;
import io.tessera.sql.Statement;
import io.tessera.sql.StatementParser;
import io.tessera.storage.Database;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;

/**
 * The state shared by {@code tessera sql -c}, a script on stdin and the interactive shell: the output format,
 * expanded display, the row limit, timing, where results go ({@code \o}), and the running of statements and
 * commands ({@link SessionCommands}). Results go to {@code out}; errors (and timing, unless interactive) go to
 * {@code err}, so redirected output holds only results. When standard output is closed (a pipe into {@code head}
 * that has read enough) the first failed write stops the statement and the session.
 */
final class SqlSession {

    /** The rows a long result shows in the shell (its first and last ones), as DuckDB's default. */
    static final int SHELL_ROWS = 40;

    private final StatementRunner runner;
    private final Database database;
    private final PrintWriter terminal;
    private final PrintWriter err;
    private final boolean interactive;
    private final SessionCommands commands;
    private PrintWriter out;
    private java.nio.file.Path outFile;
    private OutputFormat format;
    private boolean timing;
    private boolean progress;
    private boolean expanded;
    private int maxRows;
    private boolean failed;
    private boolean outputClosed;
    private int results;

    SqlSession(StatementRunner runner, Database database, OutputFormat format, boolean timing, PrintWriter out,
               PrintWriter err, boolean interactive) {
        this.runner = runner;
        this.database = database;
        this.format = format;
        this.timing = timing;
        runner.timeKernels(timing);
        this.terminal = out;
        this.out = out;
        this.err = err;
        this.interactive = interactive;
        this.maxRows = interactive ? SHELL_ROWS : 0;
        this.commands = new SessionCommands(this);
    }

    /**
     * Whether a statement that runs longer than two seconds shows a progress line on the error stream (only where
     * that stream is a terminal).
     */
    void showProgress(boolean show) {
        progress = show;
    }

    OutputFormat format() {
        return format;
    }

    void format(OutputFormat f) {
        format = f;
    }

    boolean timing() {
        return timing;
    }

    void timing(boolean on) {
        timing = on;
        runner.timeKernels(on);
    }

    boolean expanded() {
        return expanded;
    }

    void expanded(boolean on) {
        expanded = on;
    }

    int maxRows() {
        return maxRows;
    }

    void maxRows(int rows) {
        maxRows = Math.max(0, rows);
    }

    StatementRunner runner() {
        return runner;
    }

    Database database() {
        return database;
    }

    boolean interactive() {
        return interactive;
    }

    /** Whether any statement or command failed so far. */
    boolean failed() {
        return failed;
    }

    /** Whether standard output was found closed: nothing more can be written, the session should end. */
    boolean outputClosed() {
        return outputClosed;
    }

    /** Where results go: the file {@code \o} named, or null for the terminal (standard output). */
    java.nio.file.Path outFile() {
        return outFile;
    }

    /**
     * Sends results to {@code file} (replaced when it exists), or back to the terminal when null. The file is
     * closed when results go elsewhere, and at {@link #close()}.
     */
    void outputTo(java.nio.file.Path file) throws IOException {
        closeOutFile();
        if (file != null) {
            out = new PrintWriter(java.nio.file.Files.newBufferedWriter(file, java.nio.charset.StandardCharsets.UTF_8));
            outFile = file;
        }
    }

    private void closeOutFile() {
        if (outFile != null) {
            out.close();
            boolean bad = out.checkError();
            out = terminal;
            java.nio.file.Path f = outFile;
            outFile = null;
            if (bad) {
                error("could not write all results to " + f);
            }
        }
    }

    /** Ends the session: closes a file results went to. */
    void close() {
        closeOutFile();
    }

    /**
     * The formatter of the next result: the format's, except that in the shell a table is shortened to its first
     * and last rows (not when results go to a file), or shown as records under {@code \x}.
     */
    private ResultFormatter formatter() {
        int limit = interactive && outFile == null ? maxRows : 0;
        if (format != OutputFormat.TABLE) {
            return format.formatter();
        }
        if (expanded) {
            return new ExpandedFormatter(limit);
        }
        return limit > 0 ? new TableFormatter(limit) : format.formatter();
    }

    /** Fails the running statement when the last write to standard output failed: the reader has gone. */
    private void checkOutput(QueryCancel cancel) {
        if (outFile == null && out.checkError()) {
            outputClosed = true;
            cancel.cancel(); // the query stops at its next check, whoever is reading its rows
            throw new OutputClosed();
        }
    }

    /** Standard output was closed by its reader; nothing is said about it, as no other output can be read. */
    static final class OutputClosed extends RuntimeException {
        OutputClosed() {
            super("standard output is closed", null, false, false);
        }
    }

    /** Runs one statement and prints its result, or the error; returns whether it succeeded. */
    boolean execute(String sql) {
        return execute(sql, StatementStart.FIRST, new QueryCancel());
    }

    /** {@link #execute(String)} of a statement that starts at {@code start} of the text it came from. */
    boolean execute(String sql, StatementStart start) {
        return execute(sql, start, new QueryCancel());
    }

    /**
     * Runs one statement under {@code cancel} and prints its rows as they come, or the error (a cancelled
     * statement says {@code query cancelled}); returns whether it succeeded. An error names its positions in the
     * text the statement came from, where it starts at {@code start}.
     */
    boolean execute(String sql, StatementStart start, QueryCancel cancel) {
        long started = System.nanoTime();
        QueryResult r;
        ResultFormatter.Rows[] rows = new ResultFormatter.Rows[1];
        String jsonPlan = format == OutputFormat.JSON ? jsonPlanStatement(sql) : null;
        ResultFormatter formatter = jsonPlan != null ? PLAN_LINES : formatter();
        QueryProgressLine progressLine = progress ? QueryProgressLine.started(err, cancel.progress()) : null;
        try {
            r = runner.run(jsonPlan != null ? jsonPlan : sql, cancel, new RowSink() {
                @Override
                public void start(List<ResultColumn> columns) {
                    if (progressLine != null) {
                        progressLine.finish(); // the results take the screen
                    }
                    separate();
                    rows[0] = formatter.open(columns, out);
                }

                @Override
                public void rows(List<Object[]> batch) {
                    rows[0].rows(batch);
                    checkOutput(cancel);
                }
            });
            if (progressLine != null) {
                progressLine.finish();
            }
            if (rows[0] == null) {
                separate();
                rows[0] = formatter.open(r.columns(), out);
            }
            rows[0].finish();
            checkOutput(cancel);
        } catch (OutputClosed e) {
            failed = true;
            return false;
        } catch (RuntimeException | StackOverflowError e) {
            if (progressLine != null) {
                progressLine.finish();
            }
            error(e, start);
            return false;
        } catch (OutOfMemoryError e) {
            if (progressLine != null) {
                progressLine.finish();
            }
            error(OutOfMemory.describe(e, "running this statement"));
            if (System.getenv("TESSERA_DEBUG") != null) {
                e.printStackTrace(err);
            }
            return false;
        }
        if (r.execution().notice() != null) {
            err.println("tessera: " + r.execution().notice());
            err.flush();
        }
        if (timing) {
            PrintWriter w = interactive ? out : err;
            w.println(timingLine(r, System.nanoTime() - started));
            w.flush();
        }
        return true;
    }

    /**
     * Under {@code --format json}, the statement that gives an EXPLAIN's plan (analyzed or not) as one JSON document
     * ({@code EXPLAIN (ANALYZE, FORMAT JSON) query}), printed as it is rather than as rows; null for any other
     * statement.
     */
    static String jsonPlanStatement(String sql) {
        Statement st;
        try {
            st = StatementParser.parse(sql);
        } catch (RuntimeException e) {
            return null;
        }
        if (!(st instanceof Statement.Explain e) || e.kind() != Statement.Explain.Kind.PLAN) {
            return null;
        }
        return e.json() ? sql : "EXPLAIN (" + (e.analyze() ? "ANALYZE, " : "") + "FORMAT JSON) " + e.query();
    }

    /** A plan's rows of text, one line each, as they are (a JSON plan is a JSON document). */
    private static final ResultFormatter PLAN_LINES = (columns, out) -> new ResultFormatter.Rows() {
        @Override
        public void rows(List<Object[]> batch) {
            for (Object[] row : batch) {
                out.println(row[0]);
            }
        }

        @Override
        public void finish() {
            out.flush();
        }
    };

    /**
     * The timing of a statement: a query's compile and run time (and its pipelines); a statement that compiles no
     * query (CREATE, DROP, INSERT ... VALUES) has only its total time, {@code elapsedNanos}.
     */
    static String timingLine(QueryResult r, long elapsedNanos) {
        if (r.compileNanos() == 0 && r.executeNanos() == 0 && r.execution().steps().isEmpty()) {
            return String.format(Locale.ROOT, "Time: total %.3f ms", elapsedNanos / 1e6);
        }
        return timingLine(r);
    }

    static String timingLine(QueryResult r) {
        double compile = r.compileNanos() / 1e6;
        double run = r.executeNanos() / 1e6;
        String line = String.format(Locale.ROOT, "Time: compile %.3f ms, run %.3f ms, total %.3f ms", compile, run,
                compile + run);
        QueryResult.Execution x = r.execution();
        if (!x.device().equals("cpu")) {
            line += String.format(Locale.ROOT, " (%s: %d of %d pipelines, kernels %.3f ms, uploads %.3f ms, %d moves to "
                    + "the host %.3f ms)", x.device(), x.gpuPipelines(), x.pipelines(), x.kernelNanos() / 1e6,
                    x.uploadNanos() / 1e6, x.moves(), x.moveNanos() / 1e6);
        }
        // each pipeline's time, and the end of its sink (a join table's build, a merge of groups) within it
        for (String step : x.steps()) {
            line += "\n  " + step;
        }
        return line;
    }

    /** Writes a result the session made itself (a listing of tables, a description). */
    void print(QueryResult r) {
        separate();
        formatter().write(r, out);
        out.flush();
    }

    /** Consecutive tables or CSV blocks on one stream get an empty line between them (JSON arrays need none). */
    private void separate() {
        if (results++ > 0 && !interactive && format != OutputFormat.JSON) {
            out.println();
        }
    }

    void error(Throwable e) {
        error(e, StatementStart.FIRST);
    }

    /** The error of a statement that starts at {@code start} of the text it came from. */
    private void error(Throwable e, StatementStart start) {
        failed = true;
        out.flush();
        err.println("tessera: " + start.moved(Errors.describe(e)));
        if (System.getenv("TESSERA_DEBUG") != null) {
            e.printStackTrace(err);
        }
        err.flush();
    }

    void error(String message) {
        failed = true;
        out.flush();
        err.println("tessera: " + message);
        err.flush();
    }

    /** Whether a line is a command rather than SQL (see {@link ShellCommand#isCommand}). */
    static boolean isCommand(String line) {
        return ShellCommand.isCommand(line, false);
    }

    /** Runs a command line; returns false when it asks to quit. */
    boolean command(String line) {
        return commands.run(ShellCommand.parse(line));
    }

    /** A message about the session itself: on the terminal when interactive, else on stderr. */
    void note(String message) {
        PrintWriter w = interactive ? terminal : err;
        w.println(message);
        w.flush();
    }

    /** Writes help text where results go. */
    void write(String text) {
        out.print(text);
        out.flush();
    }

    /**
     * Runs a script: statements separated by ';' (the last one may lack it), and commands on lines of their own.
     * A command line inside an unfinished statement runs as a command, and the statement goes on after it (as in
     * psql). Goes on after a failed statement, not after standard output was closed; returns false when a command
     * asked to quit.
     */
    boolean runScript(BufferedReader in) throws IOException {
        StringBuilder buffer = new StringBuilder();
        // where the buffer's text starts in the script, for the positions its statements' errors name
        StatementStart bufferStart = StatementStart.FIRST;
        int lines = 0;
        String line;
        while ((line = in.readLine()) != null && !outputClosed) {
            lines++;
            if (ShellCommand.isCommand(line, !buffer.isEmpty())) {
                if (!command(line)) {
                    return false;
                }
                if (!buffer.isEmpty() && !StatementSplitter.split(buffer.toString()).restOpen()) {
                    // the command's line, so that the statement's lines stay the script's (not inside a string)
                    buffer.append('\n');
                }
                continue;
            }
            if (buffer.isEmpty()) {
                bufferStart = new StatementStart(lines, 1);
            }
            buffer.append(line).append('\n');
            String text = buffer.toString();
            StatementSplitter.Split s = StatementSplitter.split(text);
            for (StatementSplitter.Piece piece : s.pieces()) {
                if (!outputClosed) {
                    execute(piece.sql(), bufferStart.plus(StatementStart.of(text, piece.offset())));
                }
            }
            buffer.setLength(0);
            if (s.pending()) {
                buffer.append(s.rest());
                bufferStart = bufferStart.plus(StatementStart.of(text, text.length() - s.rest().length()));
            }
        }
        if (outputClosed) {
            return false;
        }
        String text = buffer.toString();
        StatementSplitter.Split s = StatementSplitter.split(text);
        for (StatementSplitter.Piece piece : StatementSplitter.pieces(text)) {
            execute(piece.sql(), bufferStart.plus(StatementStart.of(text, piece.offset())));
        }
        if (s.restOpen() && !s.restHasCode()) {
            error("the input ends inside a comment");
        }
        return !outputClosed;
    }
}

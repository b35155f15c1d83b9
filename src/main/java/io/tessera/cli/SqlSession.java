package io.tessera.cli;

import io.tessera.api.QueryCancel;
import io.tessera.api.QueryResult;
import io.tessera.api.RowSink;
import io.tessera.api.ResultColumn;
import io.tessera.cli.format.OutputFormat;
import io.tessera.cli.format.ResultFormatter;
import io.tessera.sql.Statement;
import io.tessera.sql.StatementParser;
import io.tessera.storage.ColumnSchema;
import io.tessera.storage.DataType;
import io.tessera.storage.Database;
import io.tessera.storage.Table;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The state and the commands shared by {@code tessera sql -c}, a script on stdin and the interactive shell: the
 * output format, whether timing is shown, and the backslash commands. Results go to {@code out}; errors (and
 * timing, unless interactive) go to {@code err}, so redirected output holds only results.
 */
final class SqlSession {

    static final String HELP = """
            Statements end with ';' and may span lines. Commands:
              \\tables, \\d            list the tables with their row counts
              \\d TABLE               describe a table's (or a view's) columns
              \\dv                   list the views with their queries
              \\format table|csv|json set the output format
              \\timing [on|off]       show compile and run time after each result
              \\help, \\?              this list
              \\q, \\quit              quit (Ctrl-D too)
            """;

    private final StatementRunner runner;
    private final Database database;
    private final PrintWriter out;
    private final PrintWriter err;
    private final boolean interactive;
    private OutputFormat format;
    private boolean timing;
    private boolean failed;
    private int results;

    SqlSession(StatementRunner runner, Database database, OutputFormat format, boolean timing, PrintWriter out,
               PrintWriter err, boolean interactive) {
        this.runner = runner;
        this.database = database;
        this.format = format;
        this.timing = timing;
        this.out = out;
        this.err = err;
        this.interactive = interactive;
    }

    OutputFormat format() {
        return format;
    }

    boolean timing() {
        return timing;
    }

    /** Whether any statement or command failed so far. */
    boolean failed() {
        return failed;
    }

    /** Runs one statement and prints its result, or the error; returns whether it succeeded. */
    boolean execute(String sql) {
        return execute(sql, new QueryCancel());
    }

    /**
     * Runs one statement under {@code cancel} and prints its rows as they come, or the error (a cancelled
     * statement says {@code query cancelled}); returns whether it succeeded.
     */
    boolean execute(String sql, QueryCancel cancel) {
        long started = System.nanoTime();
        QueryResult r;
        ResultFormatter.Rows[] rows = new ResultFormatter.Rows[1];
        String jsonPlan = format == OutputFormat.JSON ? jsonPlanStatement(sql) : null;
        ResultFormatter formatter = jsonPlan != null ? PLAN_LINES : format.formatter();
        try {
            r = runner.run(jsonPlan != null ? jsonPlan : sql, cancel, new RowSink() {
                @Override
                public void start(List<ResultColumn> columns) {
                    separate();
                    rows[0] = formatter.open(columns, out);
                }

                @Override
                public void rows(List<Object[]> batch) {
                    rows[0].rows(batch);
                }
            });
            if (rows[0] == null) {
                separate();
                rows[0] = formatter.open(r.columns(), out);
            }
            rows[0].finish();
        } catch (RuntimeException | StackOverflowError e) {
            error(e);
            return false;
        } catch (OutOfMemoryError e) {
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

    private void print(QueryResult r) {
        separate();
        format.formatter().write(r, out);
        out.flush();
    }

    /** Consecutive tables or CSV blocks on one stream get an empty line between them (JSON arrays need none). */
    private void separate() {
        if (results++ > 0 && !interactive && format != OutputFormat.JSON) {
            out.println();
        }
    }

    void error(Throwable e) {
        failed = true;
        out.flush();
        err.println("tessera: " + Errors.describe(e));
        if (System.getenv("TESSERA_DEBUG") != null) {
            e.printStackTrace(err);
        }
        err.flush();
    }

    private void error(String message) {
        failed = true;
        out.flush();
        err.println("tessera: " + message);
        err.flush();
    }

    /** Whether a line is a backslash command rather than SQL. */
    static boolean isCommand(String line) {
        return line.stripLeading().startsWith("\\");
    }

    /** Runs a backslash command; returns false when it asks to quit. */
    boolean command(String line) {
        String[] words = line.strip().split("\\s+");
        String name = words[0].toLowerCase(Locale.ROOT);
        String arg = words.length > 1 ? words[1] : null;
        if (words.length > 2) {
            error(words[0] + " takes at most one argument");
            return true;
        }
        try {
            switch (name) {
                case "\\q", "\\quit" -> {
                    return false;
                }
                case "\\help", "\\?", "\\h" -> {
                    out.print(HELP);
                    out.flush();
                }
                case "\\timing" -> {
                    if (arg == null) {
                        timing = !timing;
                    } else if (arg.equalsIgnoreCase("on") || arg.equalsIgnoreCase("off")) {
                        timing = arg.equalsIgnoreCase("on");
                    } else {
                        throw new IllegalArgumentException("\\timing takes on or off, not '" + arg + "'");
                    }
                    note("Timing is " + (timing ? "on" : "off") + ".");
                }
                case "\\format" -> {
                    if (arg == null) {
                        note("Format is " + format.label() + " (" + OutputFormat.names() + ").");
                    } else {
                        format = OutputFormat.parse(arg);
                        note("Format is " + format.label() + ".");
                    }
                }
                case "\\tables", "\\dt" -> {
                    if (arg != null) {
                        throw new IllegalArgumentException(words[0] + " takes no argument; \\d " + arg
                                + " describes a table");
                    }
                    print(tables());
                }
                case "\\d" -> print(arg == null ? tables() : describe(arg));
                case "\\dv" -> {
                    if (arg != null) {
                        throw new IllegalArgumentException("\\dv takes no argument");
                    }
                    print(views());
                }
                default -> error("unknown command " + words[0] + " (\\help lists the commands)");
            }
        } catch (RuntimeException e) {
            error(e);
        }
        return true;
    }

    /** A message about the session itself: on the terminal when interactive, else on stderr. */
    private void note(String message) {
        PrintWriter w = interactive ? out : err;
        w.println(message);
        w.flush();
    }

    private QueryResult tables() {
        List<ResultColumn> cols = List.of(
                new ResultColumn("table", DataType.VARCHAR, false),
                new ResultColumn("rows", DataType.BIGINT, false),
                new ResultColumn("columns", DataType.INTEGER, false),
                new ResultColumn("size", DataType.VARCHAR, false));
        List<Object[]> rows = new ArrayList<>();
        for (Table t : database.tables()) {
            rows.add(new Object[] {t.name(), t.rowCount(), t.schema().columns().size(), humanBytes(t.sizeBytes())});
        }
        return new QueryResult(cols, rows, 0, 0);
    }

    private QueryResult views() {
        List<ResultColumn> cols = List.of(
                new ResultColumn("view", DataType.VARCHAR, false),
                new ResultColumn("columns", DataType.VARCHAR, false),
                new ResultColumn("query", DataType.VARCHAR, false));
        List<Object[]> rows = new ArrayList<>();
        for (io.tessera.storage.View v : database.views()) {
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
        if (!database.hasTable(table) && database.view(table) != null) {
            // a view's columns are its query's: planned and run without rows
            QueryResult none = runner.run("SELECT * FROM \"" + database.view(table).name() + "\" LIMIT 0");
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

    static String humanBytes(long bytes) {
        if (bytes < 1024) {
            return bytes + " B";
        }
        String[] units = {"KiB", "MiB", "GiB", "TiB", "PiB"};
        double v = bytes;
        int u = -1;
        while (v >= 1024 && u + 1 < units.length) {
            v /= 1024;
            u++;
        }
        return String.format(Locale.ROOT, "%.1f %s", v, units[u]);
    }

    /**
     * Runs a script: statements separated by ';' (the last one may lack it), and backslash commands on lines of
     * their own between statements. Goes on after a failed statement; returns false when a command asked to quit.
     */
    boolean runScript(BufferedReader in) throws IOException {
        StringBuilder buffer = new StringBuilder();
        String line;
        while ((line = in.readLine()) != null) {
            if (buffer.isEmpty() && isCommand(line)) {
                if (!command(line)) {
                    return false;
                }
                continue;
            }
            buffer.append(line).append('\n');
            StatementSplitter.Split s = StatementSplitter.split(buffer.toString());
            for (String sql : s.statements()) {
                execute(sql);
            }
            buffer.setLength(0);
            if (s.pending()) {
                buffer.append(s.rest());
            }
        }
        StatementSplitter.Split s = StatementSplitter.split(buffer.toString());
        for (String sql : StatementSplitter.statements(buffer.toString())) {
            execute(sql);
        }
        if (s.restOpen() && !s.restHasCode()) {
            error("the input ends inside a comment");
        }
        return true;
    }
}

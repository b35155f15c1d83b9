package io.tessera.cli;

import io.tessera.sql.StatementStart;
import io.tessera.api.QueryResult;
import io.tessera.api.QueryCancel;
import io.tessera.api.RowSink;
import io.tessera.Tessera;
import io.tessera.cli.format.OutputFormat;
import org.jline.terminal.Terminal;
import org.jline.terminal.TerminalBuilder;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.Charset;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.function.BooleanSupplier;
import java.util.function.Function;

/**
 * {@code tessera sql}: runs the statements of {@code -c}, or a script read from stdin, or the interactive shell
 * when stdin is a terminal.
 */
@Command(name = "sql", mixinStandardHelpOptions = true,
        description = {
                "Runs SQL on a database: the statements of -c, a script piped to stdin, or an interactive shell.",
                "Statements are separated by ';'. In a script and in the shell, lines starting with '\\' are "
                        + "commands (\\help lists them)."})
public final class SqlCommand implements Callable<Integer> {

    /** What runs the statements, given the open database; tests put a stand-in here. */
    static volatile Function<Tessera, StatementRunner> runners = StatementRunner::of;

    /** Whether to start the interactive shell; tests may pin it. */
    static volatile BooleanSupplier interactiveCheck = SqlCommand::stdinIsTerminal;

    @Option(names = "--db", paramLabel = "DIR",
            description = "database directory (or name it first: tessera sql DIR)")
    java.nio.file.Path dbOption;

    @Parameters(index = "0", arity = "0..1", paramLabel = "DIR", description = "database directory")
    java.nio.file.Path dbArgument;

    @Option(names = "--create", description = "make the directory a new empty database when it holds none")
    boolean create;

    @Mixin
    NoWaitOption noWait;

    @Option(names = {"-c", "--command"}, paramLabel = "SQL",
            description = "statement(s) to run, separated by ';'; prints the results and exits")
    String command;

    @Option(names = "--format", paramLabel = "FORMAT", defaultValue = "table",
            converter = OutputFormat.Converter.class, completionCandidates = OutputFormat.Candidates.class,
            description = "output format: ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE})")
    OutputFormat format;

    @Option(names = "--device", paramLabel = "DEVICE", defaultValue = "auto",
            description = "gpu, cpu or auto (the GPU when there is one); default: ${DEFAULT-VALUE}")
    String device;

    @Option(names = "--timing", description = "print the compile and run time after each result, then each pipeline's time and its sink's end")
    boolean timing;

    @Option(names = "--tune", paramLabel = "STRATEGY",
            description = "tune each query as it is prepared (exhaustive, feature-wise, plateau, online-pool) and store "
                    + "what is learned in this CPU's profile; EXPLAIN then says (tuned now)")
    String tune;

    @Option(names = "--allow-read", paramLabel = "DIR",
            description = "a directory whose files COPY table FROM 'file' and SELECT ... FROM 'file' may read, besides"
                    + " the current directory (repeatable)")
    List<java.nio.file.Path> allowRead = new java.util.ArrayList<>();

    @Option(names = "--allow-write", paramLabel = "DIR",
            description = "a directory into which COPY ... TO 'file' may write files, besides the current directory"
                    + " (repeatable)")
    List<java.nio.file.Path> allowWrite = new java.util.ArrayList<>();

    @Spec
    CommandSpec spec;

    /** The exit code when standard output was closed before the results were written (as SIGPIPE's). */
    static final int OUTPUT_CLOSED = 141;

    @Override
    public Integer call() throws Exception {
        StartupTrace.mark("options parsed");
        java.nio.file.Path db = database();
        io.tessera.exec.Device dev = io.tessera.exec.Device.parse(device);
        try (Tessera tessera = create ? Tessera.openOrCreate(db, dev) : Tessera.open(db, dev)) {
            StartupTrace.mark("database open");
            List<java.nio.file.Path> readable = new java.util.ArrayList<>(allowRead);
            readable.add(java.nio.file.Path.of("")); // the current directory, where the user runs the command
            tessera.allowCopyFrom(readable.toArray(java.nio.file.Path[]::new));
            List<java.nio.file.Path> writable = new java.util.ArrayList<>(allowWrite);
            writable.add(java.nio.file.Path.of(""));
            tessera.allowCopyTo(writable.toArray(java.nio.file.Path[]::new));
            if (tune != null) {
                tessera.engine().tuneWith(new io.tessera.tune.QueryTuning(tune));
            }
            tessera.database().waitForOtherWriters(noWait.waits()); // CREATE, DROP, INSERT, ... write
            StatementRunner run = runners.apply(tessera);
            // each statement reads the latest committed state; statements run one at a time here
            StatementRunner runner = new StatementRunner() {
                @Override
                public QueryResult run(String sql) {
                    tessera.database().refresh();
                    return run.run(sql);
                }

                @Override
                public QueryResult run(String sql, QueryCancel cancel, RowSink sink) {
                    tessera.database().refresh();
                    return run.run(sql, cancel, sink); // rows streamed to the output, not gathered first
                }
            };
            if (command != null) {
                return runCommand(runner, tessera);
            }
            if (interactiveCheck.getAsBoolean()) {
                return runInteractive(runner, tessera);
            }
            return runStdin(runner, tessera);
        }
    }

    /** The database named by {@code DIR} or {@code --db DIR}; without {@code --create}, one that exists. */
    private java.nio.file.Path database() {
        if (dbOption != null && dbArgument != null && !dbOption.equals(dbArgument)) {
            throw new CommandLine.ParameterException(spec.commandLine(),
                    "two databases named: " + dbArgument + " and --db " + dbOption);
        }
        java.nio.file.Path db = dbOption != null ? dbOption : dbArgument;
        if (db == null) {
            throw new CommandLine.ParameterException(spec.commandLine(),
                    "no database named: tessera sql DIR, or --db DIR (--create makes a new one)");
        }
        if (!create && !io.tessera.storage.Database.exists(db)) {
            throw new IllegalArgumentException("no Tessera database at " + db + (java.nio.file.Files.isDirectory(db)
                    ? "; --create makes the directory one" : "; --create makes one there"));
        }
        return db;
    }

    private int runCommand(StatementRunner runner, Tessera tessera) {
        SqlSession session = new SqlSession(runner, tessera.database(), format, timing, writer(System.out),
                writer(System.err), false);
        session.showProgress(GenerationProgress.stderrIsTerminal());
        List<StatementSplitter.Piece> statements = StatementSplitter.pieces(command);
        for (int i = 0; i < statements.size(); i++) {
            StatementSplitter.Piece piece = statements.get(i);
            boolean done = session.execute(piece.sql(), StatementStart.of(command, piece.offset()));
            StartupTrace.mark("statement " + (i + 1) + " done");
            if (!done) {
                // stop at the first failure: later statements may depend on it
                return session.outputClosed() ? OUTPUT_CLOSED : 1;
            }
        }
        return 0;
    }

    private int runStdin(StatementRunner runner, Tessera tessera) throws java.io.IOException {
        SqlSession session = new SqlSession(runner, tessera.database(), format, timing, writer(System.out),
                writer(System.err), false);
        session.showProgress(GenerationProgress.stderrIsTerminal());
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, stdinCharset()));
        session.runScript(in);
        session.close();
        return session.outputClosed() ? OUTPUT_CLOSED : session.failed() ? 1 : 0;
    }

    private int runInteractive(StatementRunner runner, Tessera tessera) throws java.io.IOException {
        try (Terminal terminal = TerminalBuilder.builder().system(true).name("tessera").build()) {
            SqlSession session = new SqlSession(runner, tessera.database(), format, timing, terminal.writer(),
                    terminal.writer(), true);
            session.showProgress(true);
            InteractiveShell.run(terminal, session);
        }
        return 0;
    }

    /** A writer over the stream whose {@code checkError()} reports the stream's failed writes (a closed pipe). */
    private static PrintWriter writer(PrintStream stream) {
        return new PrintWriter(stream, false, stream.charset());
    }

    private static Charset stdinCharset() {
        String name = System.getProperty("stdin.encoding");
        try {
            return name != null ? Charset.forName(name) : Charset.defaultCharset();
        } catch (IllegalArgumentException e) {
            return Charset.defaultCharset();
        }
    }

    /** True when stdin (and stdout) is a terminal, as for a person typing; false for a pipe or a file. */
    private static boolean stdinIsTerminal() {
        java.io.Console console = System.console();
        return console != null && console.isTerminal();
    }
}

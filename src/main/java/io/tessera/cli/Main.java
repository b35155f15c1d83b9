package io.tessera.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

import java.io.PrintWriter;
import java.util.Map;

/** The {@code tessera} command line: one subcommand per job. */
@Command(name = "tessera", mixinStandardHelpOptions = true, version = "Tessera 0.1.0",
        description = "Analytical SQL on every processor of the machine, with generated code variants.")
public final class Main implements Runnable {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    /**
     * The subcommands, in the order the usage lists them. Building a command's model (picocli reads its annotations
     * by reflection) costs every process time before any work, so a command line that names one gets only that
     * one (see {@link #commandLine}).
     */
    private static final java.util.Map<String, Class<?>> COMMANDS = commands();

    /** The commands that run queries: the first query's one-time work begins before their options are read. */
    private static final java.util.Set<String> QUERY_COMMANDS = java.util.Set.of("sql", "ssb", "bench", "tune",
            "variants", "emit", "selftest");

    public static void main(String[] args) {
        BootStderr.restore();
        StartupTrace.mark("main");
        if (args.length > 0 && QUERY_COMMANDS.contains(args[0])) {
            io.tessera.exec.WarmUp.start();
        }
        int code = run(args);
        StartupTrace.mark("exit");
        System.exit(code);
    }

    private static java.util.Map<String, Class<?>> commands() {
        java.util.Map<String, Class<?>> m = new java.util.LinkedHashMap<>();
        m.put("help", CommandLine.HelpCommand.class);
        m.put("gen", GenCommand.class);
        m.put("create", CreateCommand.class);
        m.put("import", ImportCommand.class);
        m.put("export", ExportCommand.class);
        m.put("tables", TablesCommand.class);
        m.put("describe", DescribeCommand.class);
        m.put("sql", SqlCommand.class);
        m.put("bench", BenchCommand.class);
        m.put("devices", DevicesCommand.class);
        m.put("ssb", SsbCommand.class);
        m.put("emit", EmitCommand.class);
        m.put("selftest", SelftestCommand.class);
        m.put("variants", VariantsCommand.class);
        m.put("tune", TuneCommand.class);
        m.put("shard", ShardCommand.class);
        return java.util.Collections.unmodifiableMap(m);
    }

    /** The command line with every subcommand. */
    static CommandLine commandLine() {
        return commandLine(COMMANDS.keySet());
    }

    /**
     * The command line for {@code args}: with only the subcommand that the first argument names (other than
     * {@code help}, which looks the others up), with none for {@code --version} alone, else with every one (the
     * usage lists them, and a misspelt name is matched against them). Parsing and running are the same either way.
     */
    static CommandLine commandLine(String... args) {
        if (args.length > 0 && !args[0].equals("help") && COMMANDS.containsKey(args[0])) {
            return commandLine(java.util.Set.of(args[0]));
        }
        if (args.length == 1 && (args[0].equals("--version") || args[0].equals("-V"))) {
            return commandLine(java.util.Set.of());
        }
        return commandLine();
    }

    private static CommandLine commandLine(java.util.Set<String> names) {
        CommandLine cl = new CommandLine(new Main());
        for (Map.Entry<String, Class<?>> c : COMMANDS.entrySet()) {
            if (names.contains(c.getKey())) {
                cl.addSubcommand(c.getKey(), c.getValue());
            }
        }
        return cl;
    }

    /** Runs the command line and returns its exit code (used by tests without exiting the JVM). */
    public static int run(String... args) {
        UserFiles.placeTerminalLibrary();
        try {
            SqlCommand quick = QuickSqlCommandLine.parse(args);
            if (quick != null) {
                StartupTrace.mark("command line built");
                return runQuick(quick);
            }
            CommandLine cl = commandLine(args);
            cl.setParameterExceptionHandler(new UsageErrors(java.util.Arrays.asList(args)));
            cl.setExecutionExceptionHandler((ex, cmd, parsed) -> failed(ex, cmd.getErr()));
            StartupTrace.mark("command line built");
            return cl.execute(args);
        } catch (OutOfMemoryError e) {
            // one line, no stack trace: what ran out and how to give Tessera more
            String command = String.join(" ", args);
            if (command.length() > 120) {
                command = command.substring(0, 117) + "...";
            }
            System.err.println("tessera: " + OutOfMemory.describe(e, "running 'tessera " + command + "'"));
            if (System.getenv("TESSERA_DEBUG") != null) {
                e.printStackTrace();
            }
            return 1;
        }
    }

    /** Runs a command read by {@link QuickSqlCommandLine}, its failures reported as picocli's handler reports them. */
    private static int runQuick(SqlCommand command) {
        try {
            return command.call();
        } catch (Exception ex) {
            PrintWriter err = new PrintWriter(System.err, true, System.err.charset());
            int code = failed(ex, err);
            err.flush();
            return code;
        }
    }

    /** Reports a command's failure in one line (with the stack trace where TESSERA_DEBUG is set); returns 1. */
    private static int failed(Exception ex, PrintWriter err) {
        err.println("tessera: " + Errors.describe(ex));
        if (System.getenv("TESSERA_DEBUG") != null) {
            ex.printStackTrace(err);
        }
        return 1;
    }

    @Override
    public void run() {
        spec.commandLine().usage(System.out);
    }
}

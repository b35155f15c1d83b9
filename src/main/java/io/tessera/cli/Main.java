package io.tessera.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code tessera} command line: one subcommand per job. */
@Command(name = "tessera", mixinStandardHelpOptions = true, version = "Tessera 0.1.0",
        description = "Analytical SQL on every processor of the machine, with generated code variants.",
        subcommands = {
                CommandLine.HelpCommand.class,
                GenCommand.class,
                CreateCommand.class,
                ImportCommand.class,
                ExportCommand.class,
                TablesCommand.class,
                DescribeCommand.class,
                SqlCommand.class,
                BenchCommand.class,
                DevicesCommand.class,
                SsbCommand.class,
                EmitCommand.class,
                SelftestCommand.class,
                VariantsCommand.class,
                TuneCommand.class,
                ShardCommand.class,
        })
public final class Main implements Runnable {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    /** The commands that run queries: the first query's one-time work begins before their options are read. */
    private static final java.util.Set<String> QUERY_COMMANDS = java.util.Set.of("sql", "ssb", "bench", "tune",
            "variants", "emit", "selftest");

    public static void main(String[] args) {
        BootStderr.restore();
        if (args.length > 0 && QUERY_COMMANDS.contains(args[0])) {
            io.tessera.exec.WarmUp.start();
        }
        System.exit(run(args));
    }

    /** Runs the command line and returns its exit code (used by tests without exiting the JVM). */
    public static int run(String... args) {
        UserFiles.placeTerminalLibrary();
        CommandLine cl = new CommandLine(new Main());
        cl.setParameterExceptionHandler(new UsageErrors(java.util.Arrays.asList(args)));
        cl.setExecutionExceptionHandler((ex, cmd, parsed) -> {
            cmd.getErr().println("tessera: " + Errors.describe(ex));
            if (System.getenv("TESSERA_DEBUG") != null) {
                ex.printStackTrace(cmd.getErr());
            }
            return 1;
        });
        try {
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

    @Override
    public void run() {
        spec.commandLine().usage(System.out);
    }
}

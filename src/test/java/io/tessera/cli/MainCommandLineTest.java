package io.tessera.cli;

import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Which subcommands the command line is built with for the arguments given (only what parsing them needs). */
class MainCommandLineTest {

    private static List<String> subcommands(String... args) {
        return List.copyOf(Main.commandLine(args).getSubcommands().keySet());
    }

    @Test
    void aNamedCommandGetsOnlyItself() {
        assertEquals(List.of("sql"), subcommands("sql", "--db", "x", "-c", "select 1"));
        assertEquals(List.of("gen"), subcommands("gen", "ssb", "--sf", "1"));
        CommandLine gen = Main.commandLine("gen").getSubcommands().get("gen");
        assertEquals(List.of("ssb", "tpch"), List.copyOf(gen.getSubcommands().keySet()));
    }

    @Test
    void helpUsageAndMisspeltNamesGetEveryCommandInTheUsagesOrder() {
        List<String> all = List.of("help", "gen", "create", "import", "export", "tables", "describe", "sql", "bench",
                "devices", "ssb", "emit", "selftest", "variants", "tune", "shard");
        assertEquals(all, subcommands());
        assertEquals(all, subcommands("help", "sql"));
        assertEquals(all, subcommands("--help"));
        assertEquals(all, subcommands("sqll", "--db", "x"));
        assertEquals(all, subcommands("--version", "sql"));
    }

    @Test
    void versionAloneGetsNoCommand() {
        assertEquals(List.of(), subcommands("--version"));
        assertEquals(List.of(), subcommands("-V"));
    }
}

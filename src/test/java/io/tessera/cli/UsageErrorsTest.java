package io.tessera.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What the command line says when it cannot be parsed, and {@code --help} on every command. */
class UsageErrorsTest extends CapturedMainTest {

    @TempDir
    Path dir;

    @Test
    void helpOnEveryCommandExitsZeroWithItsUsage() {
        CommandLine main = Main.commandLine();
        for (Map.Entry<String, CommandLine> c : main.getSubcommands().entrySet()) {
            if (c.getKey().equals("help")) {
                continue;
            }
            assertEquals(0, run(c.getKey(), "--help"), c.getKey() + ": " + err());
            assertTrue(out().startsWith("Usage: tessera " + c.getKey()), c.getKey() + ": " + out());
            assertEquals("", err(), c.getKey());
            for (String sub : c.getValue().getSubcommands().keySet()) {
                assertEquals(0, run(c.getKey(), sub, "--help"), c.getKey() + " " + sub + ": " + err());
                assertTrue(out().startsWith("Usage: tessera " + c.getKey() + " " + sub), out());
            }
        }
        assertEquals(0, run("help", "create"));
        assertTrue(out().startsWith("Usage: tessera create"), out());
    }

    @Test
    void anUnknownOptionIsNamedWithTheClosestKnownOne() {
        assertEquals(2, run("sql", "--database", dir.toString(), "-c", "select 1"));
        assertEquals("tessera sql: unknown option '--database'; did you mean '--db'?\n", err());
        assertEquals("", out());
        assertEquals(2, run("create", "--database", dir.toString(), "--table", "t", "--columns", "a INTEGER"));
        assertEquals("tessera create: unknown option '--database'; did you mean '--db'?\n", err());
        assertEquals(2, run("sql", dir.toString(), "--fromat=csv"));
        assertEquals("tessera sql: unknown option '--fromat'; did you mean '--format'?\n", err());
        assertEquals(2, run("gen", "tpch", "--scale", "1", "--db", dir.toString()));
        assertEquals("tessera gen tpch: unknown option '--scale'; 'tessera gen tpch --help' shows the usage\n", err());
    }

    @Test
    void anUnknownCommandIsNamedWithTheClosestOne() {
        assertEquals(2, run("sqll", "--db", dir.toString()));
        assertEquals("tessera: unknown command 'sqll'; did you mean 'sql'?\n", err());
        assertEquals(2, run("tabels"));
        assertEquals("tessera: unknown command 'tabels'; did you mean 'tables'?\n", err());
    }

    @Test
    void aMissingOptionIsOneLineThatSaysWhereTheUsageIs() {
        assertEquals(2, run("tables"));
        assertEquals("tessera tables: missing required option: '--db=DIR' ('tessera tables --help' shows the usage)\n",
                err());
        assertEquals("", out());
    }

    @Test
    void anOptionsValueThatLooksLikeAnOptionIsNoOption() {
        CommandLine.Model.CommandSpec sql = Main.commandLine().getSubcommands().get("sql").getCommandSpec();
        assertNull(UsageErrors.firstUnknownOption(sql, List.of("--db", "x", "-c", "--nothing", "--format", "csv")));
        assertEquals("--nope", UsageErrors.firstUnknownOption(sql, List.of("-c", "select 1", "--nope")));
        assertNull(UsageErrors.firstUnknownOption(sql, List.of("--", "--nope")));
        assertEquals(List.of("--x"), UsageErrors.argsOf(
                Main.commandLine().getSubcommands().get("gen").getSubcommands().get("ssb").getCommandSpec(),
                List.of("gen", "ssb", "--x")));
    }

    @Test
    void suggestionsPreferPrefixesThenAbbreviationsThenFewEdits() {
        List<String> sql = List.of("--db", "--create", "--command", "-c", "--format", "--device", "--timing", "--tune",
                "--allow-read", "--no-wait");
        assertEquals("--db", Suggestions.closest("--database", sql));
        assertEquals("--format", Suggestions.closest("--form", sql));
        assertEquals("--format", Suggestions.closest("--fmt", sql));
        assertEquals("--timing", Suggestions.closest("--timming", sql));
        assertEquals("--allow-read", Suggestions.closest("--allow-reads", sql));
        assertEquals("--db", Suggestions.closest("-db", sql));
        assertNull(Suggestions.closest("--zebra", sql));
    }
}

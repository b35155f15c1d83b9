package io.tessera.cli;

import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

/** The hand-read {@code tessera sql} command lines: each one it accepts, picocli reads to the same fields. */
class QuickSqlCommandLineTest {

    /** What a parsed command holds, for comparing the two readers. */
    private static List<Object> fields(SqlCommand c) {
        return Arrays.asList(c.dbOption, c.dbArgument, c.command, c.format, c.device, c.timing, c.create,
                c.noWait.noWait, c.tune, c.allowRead, c.allowWrite);
    }

    private static SqlCommand picocli(String... args) {
        CommandLine cl = Main.commandLine(args);
        CommandLine.ParseResult parsed = cl.parseArgs(args);
        return (SqlCommand) parsed.subcommand().commandSpec().userObject();
    }

    private static void sameAsPicocli(String... args) {
        SqlCommand quick = QuickSqlCommandLine.parse(args);
        assertNotNull(quick, String.join(" ", args));
        assertEquals(fields(picocli(args)), fields(quick), String.join(" ", args));
    }

    @Test
    void plainCommandLinesAreReadAsPicocliReadsThem() {
        sameAsPicocli("sql", "--db", "/tmp/db", "-c", "select 1");
        sameAsPicocli("sql", "/tmp/db", "-c", "select 1; select 2");
        sameAsPicocli("sql", "-c", "select 1", "/tmp/db");
        sameAsPicocli("sql", "--db=/tmp/db", "--command=select 1");
        sameAsPicocli("sql", "--db", "/tmp/db", "--command", "select 1", "--format", "CSV", "--timing");
        sameAsPicocli("sql", "--db", "/tmp/db", "--format=json", "--device", "cpu", "--create", "--no-wait");
        sameAsPicocli("sql", "/tmp/db", "--db", "/tmp/db", "--device=gpu", "-c", "");
        sameAsPicocli("sql", "/tmp/db"); // no -c: the script on standard input or the shell
        sameAsPicocli("sql", "--db", "/tmp/db", "-c", "select a = 1 from t");
    }

    @Test
    void everythingElseIsLeftToPicocli() {
        assertNull(QuickSqlCommandLine.parse("sql"));
        assertNull(QuickSqlCommandLine.parse("sql", "--help"));
        assertNull(QuickSqlCommandLine.parse("sql", "--db", "/tmp/db", "-h"));
        assertNull(QuickSqlCommandLine.parse("sql", "--db", "/tmp/db", "--version"));
        assertNull(QuickSqlCommandLine.parse("tables", "--db", "/tmp/db"));
        assertNull(QuickSqlCommandLine.parse("sql", "-c", "select 1"), "no database");
        assertNull(QuickSqlCommandLine.parse("sql", "--db", "/tmp/a", "/tmp/b", "-c", "select 1"), "two databases");
        assertNull(QuickSqlCommandLine.parse("sql", "/tmp/a", "/tmp/b"));
        assertNull(QuickSqlCommandLine.parse("sql", "--db", "/tmp/db", "-c", "select 1", "-c", "select 2"));
        assertNull(QuickSqlCommandLine.parse("sql", "--db", "/tmp/db", "-c", "select 1", "--command", "select 2"));
        assertNull(QuickSqlCommandLine.parse("sql", "--db", "/tmp/db", "--timing", "--timing"));
        assertNull(QuickSqlCommandLine.parse("sql", "--db", "/tmp/db", "--timing=true"));
        assertNull(QuickSqlCommandLine.parse("sql", "--db", "/tmp/db", "-c"), "no value");
        assertNull(QuickSqlCommandLine.parse("sql", "--db", "/tmp/db", "-c", "-- a comment\nselect 1"));
        assertNull(QuickSqlCommandLine.parse("sql", "--db", "/tmp/db", "--format", "xml"));
        assertNull(QuickSqlCommandLine.parse("sql", "--db", "/tmp/db", "--tune", "exhaustive", "-c", "select 1"));
        assertNull(QuickSqlCommandLine.parse("sql", "--db", "/tmp/db", "--allow-read", "/tmp", "-c", "select 1"));
        assertNull(QuickSqlCommandLine.parse("sql", "--database", "/tmp/db"), "misspelt: picocli suggests --db");
        assertNull(QuickSqlCommandLine.parse("sql", "--db", "/tmp/db", "--", "x"));
        assertNull(QuickSqlCommandLine.parse("sql", "-cselect 1", "--db", "/tmp/db"));
        assertNull(QuickSqlCommandLine.parse("sql", "@args.txt"), "picocli's argument file");
        assertNull(QuickSqlCommandLine.parse("sql", "--db", "/tmp/db", "-c", "@select.sql"));
    }
}

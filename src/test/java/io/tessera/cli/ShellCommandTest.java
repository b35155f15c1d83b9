package io.tessera.cli;

import io.tessera.storage.Database;
import io.tessera.storage.TableSchema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The parsing of command lines, the shell's line completeness, and its completion candidates. */
class ShellCommandTest {

    @TempDir
    Path dir;

    @Test
    void backslashAndDotCommandsParseToTheSameCommand() {
        assertEquals(new ShellCommand("\\tables", null, ".tables"), ShellCommand.parse(".tables"));
        assertEquals(new ShellCommand("\\tables", null, "\\dt"), ShellCommand.parse("  \\dt  "));
        assertEquals(new ShellCommand("\\format", "csv", ".mode"), ShellCommand.parse(".mode csv"));
        assertEquals(new ShellCommand("\\i", "my file.sql", ".read"), ShellCommand.parse(".read 'my file.sql'"));
        assertEquals(new ShellCommand("\\i", "it's.sql", "\\i"), ShellCommand.parse("\\i 'it''s.sql'"));
        assertEquals(new ShellCommand("\\q", null, ".quit"), ShellCommand.parse(".quit"));
        assertEquals(new ShellCommand("\\q", null, ".exit"), ShellCommand.parse(".exit"));
        assertEquals(new ShellCommand("\\schema", "parts", ".schema"), ShellCommand.parse(".schema parts"));
        assertEquals(new ShellCommand("\\help", null, "\\?"), ShellCommand.parse("\\?"));
        assertEquals(new ShellCommand("\\x", "on", "\\X"), ShellCommand.parse("\\X on"));
        assertEquals(List.of("a", "b"), ShellCommand.parse("\\d  a   b ").words());
    }

    @Test
    void aDotLineInsideAStatementIsACommandOnlyWhenItNamesOne() {
        assertTrue(ShellCommand.isCommand("\\q", false));
        assertTrue(ShellCommand.isCommand("  \\q", true));
        assertTrue(ShellCommand.isCommand(".tables", false));
        assertTrue(ShellCommand.isCommand(".nope", false));
        assertTrue(ShellCommand.isCommand(".tables", true));
        assertTrue(ShellCommand.isCommand(".QUIT", true));
        assertFalse(ShellCommand.isCommand(".col = 1", true));
        assertFalse(ShellCommand.isCommand(".5 + x", false));
        assertFalse(ShellCommand.isCommand("select 1", false));
        assertFalse(ShellCommand.isCommand(".", false));
    }

    @Test
    void aMistypedCommandGetsTheClosestOne() {
        assertEquals("\\timing", ShellCommand.parse("\\timming").suggestion());
        assertEquals(".tables", ShellCommand.parse(".tabels").suggestion());
        assertEquals(".schema", ShellCommand.parse(".schem").suggestion());
        assertNull(ShellCommand.parse("\\zzzzzz").suggestion());
    }

    @Test
    void aCommandAfterAnUnfinishedStatementCompletesTheInput() {
        assertFalse(SqlLineParser.isComplete("select 1"));
        assertTrue(SqlLineParser.isComplete("select 1\n\\q"));
        assertTrue(SqlLineParser.isComplete("select 1\n.tables"));
        assertFalse(SqlLineParser.isComplete("select t\n.col"));
        assertTrue(SqlLineParser.isComplete("\\d parts"));
        assertTrue(SqlLineParser.isComplete("select 1;"));
        assertFalse(SqlLineParser.isComplete("select 'a;\n"));
    }

    @Test
    void theWordAtTheCursorIsANameOrOnACommandLineAnythingUpToABlank() {
        assertEquals("pa", SqlLineParser.Word.at("select * from pa", 16).word());
        assertEquals("t.na", SqlLineParser.Word.at("select t.na", 11).word());
        assertEquals("", SqlLineParser.Word.at("select count(", 13).word());
        assertEquals("x", SqlLineParser.Word.at("select count(x", 14).word());
        assertEquals("dir/f.s", SqlLineParser.Word.at("\\i dir/f.s", 10).word());
        assertEquals(".ta", SqlLineParser.Word.at(".ta", 3).word());
        assertEquals("se", SqlLineParser.Word.at("select 1\nse", 11).word());
    }

    @Test
    void completionOffersTablesColumnsKeywordsFunctionsAndCommands() throws Exception {
        try (Database d = Database.openOrCreate(dir.resolve("db"))) {
            d.createTable(TableSchema.parse("parts", "id INTEGER NOT NULL, name VARCHAR"));
            d.createTable(TableSchema.parse("orders", "okey INTEGER, part INTEGER"));
            SqlCompleter c = new SqlCompleter(d);
            List<String> sql = c.candidates("select * from pa", 16);
            assertTrue(sql.containsAll(List.of("parts", "orders", "id", "name", "okey", "select", "from", "sum(")),
                    sql.toString());
            assertTrue(c.candidates("SELECT * FROM PA", 16).containsAll(List.of("SELECT", "SUM(")));
            assertEquals(List.of("parts.id", "parts.name"), c.candidates("select parts.", 13));
            assertTrue(c.candidates("\\ti", 3).containsAll(List.of("\\timing", "\\tables", "\\i", "\\x")));
            assertTrue(c.candidates(".ta", 3).containsAll(List.of(".tables", ".read", ".mode", ".schema", ".quit")));
            assertEquals(Set.of("parts", "orders"), Set.copyOf(c.candidates("\\d pa", 5)));
            assertEquals(Set.of("parts", "orders"), Set.copyOf(c.candidates(".schema ", 8)));
            assertEquals(List.of("on", "off"), c.candidates("\\x ", 3));
            Files.createDirectories(dir.resolve("scripts"));
            Files.writeString(dir.resolve("scripts/load.sql"), "select 1;");
            String typed = "\\i " + dir + "/scr";
            assertEquals(List.of(dir + "/db/", dir + "/scripts/"), c.candidates(typed, typed.length()));
            typed = ".read " + dir + "/scripts/";
            assertEquals(List.of(dir + "/scripts/load.sql"), c.candidates(typed, typed.length()));
        }
    }

    @Test
    void completionOffersEveryFunctionTheFrontEndAccepts() throws Exception {
        try (Database d = Database.openOrCreate(dir.resolve("db"))) {
            List<String> offered = new SqlCompleter(d).candidates("select ", 7);
            for (String f : io.tessera.sql.FunctionNames.all()) {
                assertTrue(offered.contains(f + "("), f);
            }
            // the list functions, names rewritten before validation, table functions, aggregates read by name
            for (String f : List.of("list_concat", "list_cat", "array_concat", "array_cat", "list_append",
                    "array_append", "list_prepend", "array_prepend", "list_contains", "if", "ifnull", "ceiling",
                    "read_csv", "read_parquet", "first", "arg_max", "grouping", "setseed", "struct_pack", "map_keys")) {
                assertTrue(offered.contains(f + "("), f);
            }
            assertFalse(offered.stream().anyMatch(f -> f.startsWith("tessera_")), offered.toString());
        }
    }
}

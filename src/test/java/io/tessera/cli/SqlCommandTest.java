package io.tessera.cli;

import io.tessera.api.QueryResult;
import io.tessera.api.ResultColumn;
import io.tessera.storage.DataType;
import io.tessera.storage.Database;
import io.tessera.storage.RowBatch;
import io.tessera.storage.TableSchema;
import io.tessera.storage.TableWriter;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.function.Function;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code tessera sql} through {@link Main#run} with a stand-in for the SQL engine and redirected streams. */
class SqlCommandTest {

    @TempDir
    Path dir;

    private final List<String> seen = new ArrayList<>();
    private Function<io.tessera.Tessera, StatementRunner> savedRunners;
    private BooleanSupplier savedInteractive;
    private String out;
    private String err;

    /** Answers "select N" with one BIGINT column n holding N, "select 'TEXT'" with TEXT, and fails on the rest. */
    private QueryResult fake(String sql) {
        seen.add(sql);
        if (sql.matches("select\\s+\\d+")) {
            long n = Long.parseLong(sql.substring(6).strip());
            return new QueryResult(List.of(new ResultColumn("n", DataType.BIGINT, false)),
                    List.<Object[]>of(new Object[] {n}), 2_500_000, 1_250_000);
        }
        if (sql.matches("select '.*'")) {
            return new QueryResult(List.of(new ResultColumn("s", DataType.VARCHAR, true)),
                    List.<Object[]>of(new Object[] {sql.substring(8, sql.length() - 1)}), 0, 0);
        }
        if (sql.startsWith("EXPLAIN (ANALYZE, FORMAT JSON) ")) {
            return new QueryResult(List.of(new ResultColumn("plan", DataType.VARCHAR, false)),
                    List.<Object[]>of(new Object[] {"{"}, new Object[] {"  \"pipelines\": []"}, new Object[] {"}"}), 0, 0);
        }
        throw new IllegalArgumentException("cannot run '" + sql + "' (line 1, column 1)");
    }

    @BeforeEach
    void setUp() {
        savedRunners = SqlCommand.runners;
        savedInteractive = SqlCommand.interactiveCheck;
        SqlCommand.runners = t -> this::fake;
        SqlCommand.interactiveCheck = () -> false;
        try (Database db = Database.openOrCreate(dir)) {
            TableSchema schema = TableSchema.parse("parts", "id INTEGER NOT NULL, name VARCHAR, price DECIMAL(10,2)");
            RowBatch b = new RowBatch(schema, 4);
            b.column(0).appendInt(1);
            b.column(1).appendString("bolt");
            b.column(2).appendLong(1250);
            b.column(0).appendInt(2);
            b.column(1).appendNull();
            b.column(2).appendLong(5);
            try (TableWriter w = db.replace(schema)) {
                w.write(b);
                w.commit();
            }
        }
    }

    @AfterEach
    void tearDown() {
        SqlCommand.runners = savedRunners;
        SqlCommand.interactiveCheck = savedInteractive;
    }

    private int run(String stdin, String... args) {
        InputStream in0 = System.in;
        PrintStream out0 = System.out;
        PrintStream err0 = System.err;
        ByteArrayOutputStream o = new ByteArrayOutputStream();
        ByteArrayOutputStream e = new ByteArrayOutputStream();
        try {
            System.setIn(new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)));
            System.setOut(new PrintStream(o, true, StandardCharsets.UTF_8));
            System.setErr(new PrintStream(e, true, StandardCharsets.UTF_8));
            return Main.run(args);
        } finally {
            System.setIn(in0);
            System.setOut(out0);
            System.setErr(err0);
            out = o.toString(StandardCharsets.UTF_8);
            err = e.toString(StandardCharsets.UTF_8);
        }
    }

    @Test
    void stdinScriptRunsEveryStatementInOrder() {
        int rc = run("select 1;\nselect 'a;b'\n;\n-- a comment; not a statement\nselect\n2;select 3", "sql",
                "--db", dir.toString(), "--format", "csv");
        assertEquals(0, rc, err);
        assertEquals(List.of("select 1", "select 'a;b'", "select\n2", "select 3"), seen);
        assertEquals("n\n1\n\ns\na;b\n\nn\n2\n\nn\n3\n", out);
        assertEquals("", err);
    }

    @Test
    void errorsNamePositionsInTheWholeTextNotInTheStatement() throws Exception {
        SqlCommand.runners = savedRunners;
        assertEquals(1, run("", "sql", "--db", dir.toString(), "-c", "select 1; selec 2"));
        assertEquals("tessera: syntax error at line 1, column 11 at or near \"selec\": no statement begins with it;"
                + " did you mean SELECT?\n", err);
        assertEquals(1, run("", "sql", "--db", dir.toString(), "-c", "select 1;\n  select nosuch from parts"));
        assertEquals("tessera: From line 2, column 10 to line 2, column 15: Column 'nosuch' not found in any table\n",
                err);
        // a script on standard input, a command line inside a statement counted as one of the script's lines, and
        // a script that \i reads: positions in the file
        String script = "select 1;\n\n  select 2; select id\n  from parts where nosuch;\nselect\n\\timing off\n"
                + "  1::hugeint;\n";
        assertEquals(1, run(script, "sql", "--db", dir.toString(), "--format", "csv"));
        assertEquals("tessera: From line 4, column 20 to line 4, column 25: Column 'nosuch' not found in any table\n"
                + "Timing is off.\ntessera: type HUGEINT is not supported at line 7, column 6\n", err);
        Path file = dir.resolve("script.sql");
        java.nio.file.Files.writeString(file, script);
        assertEquals(1, run("\\i " + file + "\nselect 1; select 1::int128;\n", "sql", "--db", dir.toString(),
                "--format", "csv", "--allow-read", dir.toString()));
        assertEquals("tessera: From line 4, column 20 to line 4, column 25: Column 'nosuch' not found in any table\n"
                + "Timing is off.\ntessera: type HUGEINT is not supported at line 7, column 6\n"
                + "tessera: type INT128 (HUGEINT) is not supported at line 2, column 21\n", err);
    }

    @Test
    void viewsAreListedAndCopyReadsTheCurrentDirectoryAndTheAllowedOnes(@TempDir Path other) throws Exception {
        SqlCommand.runners = savedRunners;
        java.nio.file.Files.writeString(other.resolve("more.csv"), "30,thirty\n");
        String copyOther = "copy names from '" + other.resolve("more.csv") + "';\n";
        int rc = run("create table names (id integer, name varchar);\n"
                + "copy names from 'src/test/resources/sql/copy/names.csv';\n"
                + copyOther
                + "create view few (n) as select id from names where id < 22;\n\\dv\nselect * from few order by n;\n"
                + "\\d few\n",
                "sql", "--db", dir.toString(), "--format", "csv");
        assertEquals(1, rc, err);
        // CREATE TABLE and CREATE VIEW give results without columns: empty blocks
        assertEquals("\ncount\n3\n\n\nview,columns,query\nfew,n,select id from names where id < 22\n\nn\n20\n21\n"
                + "\ncolumn,type,nullable\nn,INTEGER,true\n", out);
        assertTrue(err.startsWith("tessera: COPY: refusing to read '" + other.resolve("more.csv")), err);
        rc = run(copyOther, "sql", "--db", dir.toString(), "--format", "csv", "--allow-read", other.toString());
        assertEquals(0, rc, err);
        assertEquals("count\n1\n", out);
    }

    @Test
    void explainAnalyzeUnderFormatJsonPrintsThePlanAsOneDocument() {
        int rc = run("explain analyze select 1;\nselect 2;\n", "sql", "--db", dir.toString(), "--format", "json");
        assertEquals(0, rc, err);
        assertEquals(List.of("EXPLAIN (ANALYZE, FORMAT JSON) select 1", "select 2"), seen);
        assertEquals("{\n  \"pipelines\": []\n}\n[\n{\"n\":2}\n]\n", out);
    }

    @Test
    void stdinGoesOnAfterAFailureAndExitsWithOne() {
        int rc = run("select 1;\nbogus;\nselect 2;\n", "sql", "--db", dir.toString(), "--format", "json");
        assertEquals(1, rc);
        assertEquals(List.of("select 1", "bogus", "select 2"), seen);
        assertEquals("[\n{\"n\":1}\n]\n[\n{\"n\":2}\n]\n", out);
        // the position in the script, not in the statement
        assertEquals("tessera: cannot run 'bogus' (line 2, column 1)\n", err);
    }

    @Test
    void stdinTakesBackslashCommands() {
        int rc = run("\\tables\n\\d parts\n\\format csv\nselect 7;\n\\timing\nselect 8;\n\\q\nselect 9;\n",
                "sql", "--db", dir.toString());
        assertEquals(0, rc, err);
        assertEquals(List.of("select 7", "select 8"), seen);
        assertTrue(out.startsWith("+-------+------+---------+-"), out);
        assertTrue(out.contains("| table | rows | columns | size"), out);
        assertTrue(out.contains("| parts |    2 |       3 | "), out);
        assertTrue(out.contains("""
                +--------+---------------+----------+
                | column | type          | nullable |
                +--------+---------------+----------+
                | id     | INTEGER       | false    |
                | name   | VARCHAR       | true     |
                | price  | DECIMAL(10,2) | true     |
                +--------+---------------+----------+
                (3 rows)
                """), out);
        assertTrue(out.endsWith("\nn\n7\n\nn\n8\n"), out);
        assertEquals("Format is csv.\nTiming is on.\nTime: compile 2.500 ms, run 1.250 ms, total 3.750 ms\n", err);
    }

    @Test
    void unknownCommandAndMissingTableAreErrors() {
        int rc = run("\\nope\n\\d missing\nselect 1;\n", "sql", "--db", dir.toString(), "--format", "csv");
        assertEquals(1, rc);
        assertEquals("n\n1\n", out);
        assertTrue(err.startsWith("tessera: unknown command \\nope (\\help lists the commands)\ntessera: no table missing"),
                err);
    }

    @Test
    void commandOptionRunsStatementsAndPrintsTables() {
        int rc = run("", "sql", "--db", dir.toString(), "-c", "select 1; select 'x'", "--timing");
        assertEquals(0, rc, err);
        assertEquals("""
                +---+
                | n |
                +---+
                | 1 |
                +---+
                (1 row)

                +---+
                | s |
                +---+
                | x |
                +---+
                (1 row)
                """, out);
        // a result with no compile or run time of its own (as a DDL statement's) shows only the statement's total
        assertTrue(err.matches("Time: compile 2\\.500 ms, run 1\\.250 ms, total 3\\.750 ms\n"
                + "Time: total [0-9]+\\.[0-9]{3} ms\n"), err);
    }

    @Test
    void commandOptionStopsAtTheFirstError() {
        int rc = run("", "sql", "--db", dir.toString(), "-c", "select 1; oops; select 2", "--format", "json");
        assertEquals(1, rc);
        assertEquals(List.of("select 1", "oops"), seen);
        assertEquals("[\n{\"n\":1}\n]\n", out);
        assertEquals("tessera: cannot run 'oops' (line 1, column 11)\n", err);
    }

    @Test
    void missingDatabaseIsOneLineError() {
        int rc = run("", "sql", "--db", dir.resolve("nothing").toString(), "-c", "select 1");
        assertEquals(1, rc);
        assertTrue(err.startsWith("tessera: no Tessera database at "), err);
        assertEquals("", out);
    }

    @Test
    void badFormatIsRejected() {
        int rc = run("", "sql", "--db", dir.toString(), "--format", "xml", "-c", "select 1");
        assertEquals(2, rc);
        assertTrue(err.contains("unknown format 'xml' (expected table|csv|json)"), err);
    }

    @Test
    void theRealEngineErrorIsReported() {
        SqlCommand.runners = savedRunners;
        int rc = run("select 1;\nselect x from no_such_table;\n", "sql", "--db", dir.toString());
        assertEquals(1, rc);
        assertTrue(out.contains("1"), out);
        assertTrue(err.startsWith("tessera: ") && err.contains("NO_SUCH_TABLE".toLowerCase()), err);
    }

    @Test
    void theDatabaseMayBeNamedFirstAndCreateMakesANewOne() throws Exception {
        int rc = run("", "sql", dir.toString(), "-c", "select 4", "--format", "csv");
        assertEquals(0, rc, err);
        assertEquals("n\n4\n", out);
        Path empty = java.nio.file.Files.createDirectories(dir.resolve("empty"));
        rc = run("", "sql", empty.toString(), "-c", "select 5");
        assertEquals(1, rc);
        assertEquals("tessera: no Tessera database at " + empty + "; --create makes the directory one\n", err);
        rc = run("", "sql", empty.toString(), "--create", "-c", "select 5", "--format", "csv");
        assertEquals(0, rc, err);
        assertEquals("n\n5\n", out);
        assertTrue(io.tessera.storage.Database.exists(empty));
        rc = run("", "sql", "-c", "select 5");
        assertEquals(2, rc);
        assertTrue(err.startsWith("tessera sql: no database named: tessera sql DIR, or --db DIR"), err);
        rc = run("", "sql", dir.toString(), "--db", empty.toString(), "-c", "select 5");
        assertEquals(2, rc);
        assertTrue(err.contains("two databases named"), err);
    }

    @Test
    void scriptsTakeDuckDbsDotCommandsIncludeFilesAndWriteResultsToFiles() throws Exception {
        Path inc = dir.resolve("inc.sql");
        java.nio.file.Files.writeString(inc, "select 11;\n.mode csv\nselect 12;\n");
        Path results = dir.resolve("results.txt");
        int rc = run(".tables\n\\i " + inc + "\n\\o " + results + "\nselect 13;\n\\o\nselect 14;\n.read "
                + inc + "\n.schema parts\n.quit\nselect 15;\n", "sql", dir.toString());
        assertEquals(0, rc, err);
        assertEquals(List.of("select 11", "select 12", "select 13", "select 14", "select 11", "select 12"), seen);
        assertTrue(out.startsWith("+-------+------+---------+-"), out);
        assertTrue(out.contains("| parts |    2 |       3 | "), out);
        assertTrue(out.contains("|  n |\n+----+\n| 11 |\n"), out);
        assertTrue(out.endsWith("\nn\n12\n\nn\n14\n\nn\n11\n\nn\n12\n"
                + "CREATE TABLE parts(id INTEGER NOT NULL, name VARCHAR, price DECIMAL(10,2));\n"), out);
        assertEquals("\nn\n13\n", java.nio.file.Files.readString(results));
        assertEquals("Format is csv.\nResults go to " + results + ".\nResults are shown here.\nFormat is csv.\n", err);
    }

    @Test
    void aCommandInsideAnUnfinishedStatementRunsAndTheStatementGoesOn() {
        int rc = run("select\n\\format csv\n7;\n", "sql", dir.toString());
        assertEquals(0, rc, err);
        // the command's line an empty one of the statement, whose lines stay the script's
        assertEquals(List.of("select\n\n7"), seen);
        assertEquals("n\n7\n", out);
    }

    @Test
    void expandedDisplayAndAMistypedCommand() {
        int rc = run("\\x\nselect 3;\n\\x off\n\\timming\n", "sql", dir.toString());
        assertEquals(1, rc);
        assertEquals("-[ RECORD 1 ]-\nn | 3\n(1 row)\n", out);
        assertEquals("Expanded display is on.\nExpanded display is off.\n"
                + "tessera: unknown command \\timming; did you mean \\timing?\n", err);
    }
}

package io.tessera.cli;

import io.tessera.api.LongJoin;
import io.tessera.storage.Database;
import io.tessera.storage.RowBatch;
import io.tessera.storage.TableSchema;
import io.tessera.storage.TableWriter;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Drives the real interactive shell (JLine on a pseudo-terminal) inside a private tmux server: typing,
 * continuation lines, backslash commands, an error that does not end the shell, history on disk, Ctrl-D, and
 * Ctrl-C during a long query of the real engine, which cancels the query and keeps the shell; Tab completion,
 * {@code \i}, {@code \x}, DuckDB's dot commands, a command after an unfinished line, and a long result shortened.
 * The SQL engine is replaced by {@link ShellTestMain}'s stand-in. Skipped where tmux is not installed.
 */
class InteractiveShellTmuxTest {

    @TempDir
    Path dir;

    private final String socket = "tessera-shell-test-" + ProcessHandle.current().pid();
    private boolean started;

    @BeforeEach
    void needsTmux() {
        assumeTrue(exitCode(List.of("tmux", "-V")) == 0, "tmux is not installed");
    }

    @AfterEach
    void stopTmux() {
        if (started) {
            exitCode(List.of("tmux", "-L", socket, "kill-server"));
        }
    }

    @Test
    void shellRunsStatementsAndCommandsOnATerminal() throws Exception {
        Path db = dir.resolve("db");
        Path home = Files.createDirectories(dir.resolve("home"));
        try (Database d = Database.openOrCreate(db)) {
            TableSchema schema = TableSchema.parse("parts", "id INTEGER NOT NULL, name VARCHAR");
            RowBatch b = new RowBatch(schema, 1);
            b.column(0).appendInt(1);
            b.column(1).appendString("bolt");
            try (TableWriter w = d.replace(schema)) {
                w.write(b);
                w.commit();
            }
        }
        String classPath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Path tmp = Files.createDirectories(dir.resolve("tmp"));
        String cmd = "env -u XDG_CACHE_HOME -u TESSERA_CACHE_DIR " + quote(java) + " -Xmx256m -XX:TieredStopAtLevel=1"
                // as the launcher runs it: the JVM's warning about sun.misc.Unsafe (Guava, on the warm-up thread)
                // would otherwise land on the screen at any moment, between a prompt and what the test types
                + " --enable-native-access=ALL-UNNAMED --sun-misc-unsafe-memory-access=allow"
                + " -Djava.io.tmpdir=" + quote(tmp.toString())
                + " -Duser.home=" + quote(home.toString()) + " -cp " + quote(classPath)
                + " io.tessera.cli.ShellTestMain sql --db " + quote(db.toString())
                + "; echo \"shell exited with $?\"; sleep 60";
        tmux("new-session", "-d", "-s", "shell", "-x", "120", "-y", "60", cmd);
        started = true;

        waitFor("tessera>");
        // while the shell runs, the terminal library's native helper (removed at exit) is in the per-user cache,
        // not in the temporary directory
        try (var left = Files.list(tmp)) {
            assertEquals(List.of(), left.filter(p -> p.getFileName().toString().contains("jline")).toList());
        }
        try (var cached = Files.list(home.resolve(".cache/tessera/native"))) {
            assertTrue(cached.anyMatch(p -> p.getFileName().toString().contains("jlinenative")),
                    "JLine's native library is in ~/.cache/tessera/native");
        }
        typeLine("select 1");
        waitFor("     ...>");
        typeLine("+ 'a;b'");
        typeLine(";");
        waitFor("| select 1 + 'a;b' |  16 |");

        typeLine("\\d parts");
        waitFor("| name   | VARCHAR | true     |");

        typeLine("fail now;");
        waitFor("tessera: no such thing: fail now");

        typeLine("\\format csv");
        typeLine("\\timing");
        typeLine("select 2; select 3;");
        waitFor("select 3,8");
        String screen = waitFor("Time: compile 1.000 ms, run 2.000 ms, total 3.000 ms\ntessera>");
        assertTrue(screen.contains("sql,len\nselect 2,8\nTime: compile 1.000 ms"), screen);

        tmux("send-keys", "-t", "shell", "C-d");
        waitFor("shell exited with 0");

        List<String> history = Files.readAllLines(home.resolve(".tessera_history"), StandardCharsets.UTF_8);
        List<String> typed = history.stream().map(l -> l.substring(l.indexOf(':') + 1)).toList();
        assertEquals(List.of("select 1\\n+ 'a;b'\\n;", "\\\\d parts", "fail now;", "\\\\format csv", "\\\\timing",
                "select 2; select 3;"), typed);
    }

    @Test
    void ctrlCCancelsARunningQueryAndTheShellGoesOn() throws Exception {
        Path db = dir.resolve("db");
        Path home = Files.createDirectories(dir.resolve("home"));
        try (Database d = Database.openOrCreate(db)) {
            TableSchema schema = TableSchema.parse("t", "k INTEGER NOT NULL, v INTEGER NOT NULL");
            RowBatch b = new RowBatch(schema, 200_000);
            for (int i = 0; i < 200_000; i++) {
                b.column(0).appendInt(i % 5);
                b.column(1).appendInt(i);
            }
            try (TableWriter w = d.replace(schema)) {
                w.write(b);
                w.commit();
            }
            LongJoin.write(d, "pairs");
        }
        String classPath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String cmd = quote(java) + " -Xmx512m --enable-native-access=ALL-UNNAMED --sun-misc-unsafe-memory-access=allow"
                + " -Dtessera.test.engine=true"
                + " -Duser.home=" + quote(home.toString()) + " -cp " + quote(classPath)
                + " io.tessera.cli.ShellTestMain sql --db " + quote(db.toString())
                + "; echo \"shell exited with $?\"; sleep 60";
        tmux("new-session", "-d", "-s", "shell", "-x", "120", "-y", "60", cmd);
        started = true;

        waitFor("tessera>");
        typeLine("select count(*) from t;");
        waitFor("| count_star() |"); // the column is named as DuckDB names it, and the value is right-aligned under it
        waitFor(" 200000 |");
        // minutes of join matches, far longer than the wait before Ctrl-C: a result on the screen would mean the
        // join ran to its end; how soon it stops after Ctrl-C depends on the machine and its load, never asserted
        typeLine(LongJoin.sql("pairs") + ";");
        Thread.sleep(2000);
        assertTrue(!capture().contains("(1 row)\ntessera>\n\ntessera>"), "no second result yet");
        tmux("send-keys", "-t", "shell", "C-c");
        String screen = waitFor("tessera: query cancelled\ntessera>");
        assertTrue(!screen.contains("shell exited"), screen);
        assertEquals(1, screen.split("\\(1 row\\)", -1).length - 1, "only the count's result, none of the join:\n" + screen);

        typeLine("select count(*) * 2 from t;");
        // the prompt after the result, before Ctrl-D: sent while the shell still wrote the result, the terminal was
        // not yet in the line reader's raw mode, and the EOF could be lost (the shell then waited for input)
        waitFor(" 400000 |\n+--------------------+\n(1 row)\ntessera>");
        tmux("send-keys", "-t", "shell", "C-d");
        waitFor("shell exited with 0");
    }

    @Test
    void completionIncludedFilesExpandedDisplayDotCommandsAndLongResults() throws Exception {
        Path db = dir.resolve("db");
        Path home = Files.createDirectories(dir.resolve("home"));
        try (Database d = Database.openOrCreate(db)) {
            d.createTable(TableSchema.parse("parts", "id INTEGER NOT NULL, name VARCHAR"));
        }
        Path script = dir.resolve("script.sql");
        Files.writeString(script, "select 7;\n.mode csv\n");
        String classPath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String cmd = quote(java) + " -Xmx256m -XX:TieredStopAtLevel=1 --enable-native-access=ALL-UNNAMED"
                + " --sun-misc-unsafe-memory-access=allow"
                + " -Duser.home=" + quote(home.toString()) + " -cp " + quote(classPath)
                + " io.tessera.cli.ShellTestMain sql " + quote(db.toString())
                + "; echo \"shell exited with $?\"; sleep 60";
        tmux("new-session", "-d", "-s", "shell", "-x", "120", "-y", "60", cmd);
        started = true;
        waitFor("tessera>");

        typeLine(".tables");
        waitFor("| parts |    0 |       2 |");

        // Tab completes a table after \d, and a column in SQL
        tmux("send-keys", "-t", "shell", "-l", "\\d pa");
        tmux("send-keys", "-t", "shell", "Tab");
        waitFor("tessera> \\d parts");
        tmux("send-keys", "-t", "shell", "Enter");
        waitFor("| name   | VARCHAR | true     |");
        // "nam": "na" would also offer the function nanosecond(
        tmux("send-keys", "-t", "shell", "-l", "select nam");
        tmux("send-keys", "-t", "shell", "Tab");
        waitFor("tessera> select name");
        typeLine("from parts;");
        waitFor("| select name from parts |  22 |");

        typeLine("\\x");
        waitFor("Expanded display is on.");
        typeLine("select 5;");
        waitFor("-[ RECORD 1 ]-\nsql | select 5\nlen | 8\n(1 row)");
        typeLine(".mode box");

        typeLine("\\i " + script);
        waitFor("| select 7 |   8 |");
        waitFor("Format is csv.");

        // a command after an unfinished line runs, and the statement comes back to be finished
        typeLine("select 9");
        waitFor("     ...>");
        typeLine("\\timing");
        waitFor("Timing is on.\ntessera> select 9");
        typeLine(";");
        waitFor("select 9,8\nTime: compile 1.000 ms");

        typeLine(".mode table");
        typeLine("rows 100;");
        String screen = waitFor("(100 rows, 40 shown)");
        // the rows between the 20th and the 81st are one line (of an ellipsis, where the terminal shows one)
        assertTrue(screen.matches("(?s).*\\|  20 \\|\n\\| +[^|\n]+ \\|\n\\|  81 \\|.*"), screen);
        assertTrue(!screen.contains("|  21 |") && !screen.contains("|  80 |"), screen);

        typeLine(".quit");
        waitFor("shell exited with 0");
    }

    /** Types a line and presses Enter. A final ';' goes as a key code: tmux would read it as a separator. */
    private void typeLine(String text) throws IOException, InterruptedException {
        String body = text.endsWith(";") ? text.substring(0, text.length() - 1) : text;
        if (!body.isEmpty()) {
            tmux("send-keys", "-t", "shell", "-l", body);
        }
        if (text.endsWith(";")) {
            tmux("send-keys", "-t", "shell", "-H", "3b");
        }
        tmux("send-keys", "-t", "shell", "Enter");
    }

    /**
     * Waits until the screen (with scrollback, trailing blanks trimmed) contains the text; returns the screen. Fails
     * after {@link LongJoin#GUARD_MINUTES} rather than hang: a guard, no limit on how long the shell may take.
     */
    private String waitFor(String text) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(LongJoin.GUARD_MINUTES);
        String screen = "";
        while (System.nanoTime() < deadline) {
            screen = capture();
            if (screen.contains(text)) {
                return screen;
            }
            Thread.sleep(100);
        }
        fail("the screen never showed \"" + text + "\":\n" + screen);
        return screen;
    }

    private String capture() throws IOException, InterruptedException {
        Process p = new ProcessBuilder("tmux", "-L", socket, "capture-pane", "-p", "-t", "shell", "-S", "-500")
                .redirectErrorStream(true).start();
        String s = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        p.waitFor();
        List<String> lines = new ArrayList<>();
        for (String l : s.split("\n", -1)) {
            lines.add(l.stripTrailing());
        }
        return String.join("\n", lines);
    }

    private void tmux(String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of("tmux", "-L", socket));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (p.waitFor() != 0) {
            fail("tmux " + String.join(" ", args) + " failed: " + out);
        }
    }

    private static int exitCode(List<String> cmd) {
        try {
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
            p.getInputStream().readAllBytes();
            return p.waitFor();
        } catch (IOException e) {
            return -1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return -1;
        }
    }

    private static String quote(String s) {
        return "'" + s.replace("'", "'\"'\"'") + "'";
    }
}

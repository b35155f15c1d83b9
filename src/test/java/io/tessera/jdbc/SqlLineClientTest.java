package io.tessera.jdbc;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import sqlline.SqlLine;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A real JDBC client, SQLLine, connects with the Tessera URL, lists the tables ({@code !tables}, which reads
 * DatabaseMetaData), describes one ({@code !describe}), runs queries and a data change, and shows an error as
 * Tessera words it: a script run as a user would type it at SQLLine's prompt.
 */
class SqlLineClientTest {

    @TempDir
    Path dir;

    /** What one SQLLine session printed: results on {@code out}, messages and errors on {@code err}. */
    private record Session(SqlLine.Status status, String out, String err) {
    }

    private Session sqlLine(String url, String... lines) throws IOException {
        Path file = Files.createTempFile(dir, "script", ".sql");
        Files.writeString(file, String.join("\n", lines) + "\n!quit\n");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        SqlLine sqlLine = new SqlLine();
        sqlLine.setOutputStream(new PrintStream(out, true, StandardCharsets.UTF_8));
        sqlLine.setErrorStream(new PrintStream(err, true, StandardCharsets.UTF_8));
        SqlLine.Status status = sqlLine.begin(new String[] {"-u", url, "-n", "", "-p", "", "--color=false",
                "--maxWidth=200", "--run=" + file}, new ByteArrayInputStream(new byte[0]), false);
        return new Session(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void sqlLineConnectsListsTablesAndRunsQueries() throws Exception {
        String url = "jdbc:tessera:" + dir.resolve("db") + "?create=true";
        try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
            s.executeUpdate("create table lineitem_sample (l_id integer not null, l_price decimal(12,2), l_note varchar)");
            s.executeUpdate("insert into lineitem_sample values (1, 10.50, 'first'), (2, 20.25, 'second'), (3, null, 'third')");
            s.executeUpdate("create view pricey as select l_id from lineitem_sample where l_price > 15");
        }
        Session ok = sqlLine(url,
                "!tables",
                "!describe lineitem_sample",
                "select l_id, l_price, l_note from lineitem_sample order by l_id;",
                "select count(*) as n, sum(l_price) as total from lineitem_sample;",
                "insert into lineitem_sample values (4, 1.00, 'fourth');",
                "select * from pricey;");
        assertEquals(SqlLine.Status.OK, ok.status(), ok.err());
        // !tables: both names with their kinds
        assertTrue(ok.out().matches("(?s).*\\| *lineitem_sample *\\| *TABLE *\\|.*"), ok.out());
        assertTrue(ok.out().matches("(?s).*\\| *pricey *\\| *VIEW *\\|.*"), ok.out());
        // !describe: the columns with their JDBC types
        assertTrue(ok.out().matches("(?s).*\\| *l_price *\\| *3 *\\| *DECIMAL *\\| *12 *\\|.*"), ok.out());
        // the rows of the queries
        assertTrue(ok.out().matches("(?s).*\\| 2 +\\| 20.25 +\\| second +\\|.*"), ok.out());
        assertTrue(ok.out().matches("(?s).*\\| 3 +\\| null +\\| third +\\|.*"), ok.out());
        assertTrue(ok.out().matches("(?s).*\\| 3 +\\| 30.75 +\\|.*"), ok.out());
        assertTrue(ok.err().contains("1 row affected"), ok.err());
        // the view, after the insert: 20.25 only (1.00 is not over 15)
        assertTrue(ok.out().matches("(?s).*\\| l_id \\|\\s+\\+-+\\+\\s+\\| 2 +\\|\\s+\\+-+\\+\\s*$"), ok.out());

        Session failed = sqlLine(url, "select nope from lineitem_sample;");
        assertEquals(SqlLine.Status.OTHER, failed.status());
        assertTrue(failed.err().contains("Error: From line 1, column 8 to line 1, column 11: Column 'nope' not found "
                + "in any table (state=42000"), failed.err());
    }
}

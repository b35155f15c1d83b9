package io.tessera.cli;

import io.tessera.bench.TinySsb;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertTrue;

class BenchCommandTest {

    /** The driver's version as pom.xml asks for it, which the test's class path holds. */
    private static final String DUCKDB_JAR_VERSION = duckDbJarVersion();

    private static String duckDbJarVersion() {
        String classPath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        for (String entry : classPath.split(java.io.File.pathSeparator)) {
            java.util.regex.Matcher m = java.util.regex.Pattern.compile(".*duckdb_jdbc-([0-9.]+)\\.jar").matcher(entry);
            if (m.matches()) {
                return m.group(1);
            }
        }
        throw new AssertionError("no duckdb_jdbc jar on the class path");
    }

    /** Prints the table for every query, with DuckDB's times, whether or not Tessera can run them yet. */
    @Test
    void benchSsbPrintsOneTable(@TempDir Path dir) {
        TinySsb.build(dir, 1, 2_000);
        PrintStream old = System.out;
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        int code;
        try {
            System.setOut(new PrintStream(buf, true, StandardCharsets.UTF_8));
            code = Main.run("bench", "ssb", "--db", dir.toString(), "--runs", "1", "--sf", "0.001");
        } finally {
            System.setOut(old);
        }
        String out = buf.toString(StandardCharsets.UTF_8);
        assertTrue(code == 0 || code == 1, out);
        assertTrue(out.contains("SSB SF 0.001, 1 runs"), out);
        assertTrue(out.contains("DuckDB ms"), out);
        // the peer's version, as the driver on the class path reports it
        String version;
        try (java.sql.Connection c = java.sql.DriverManager.getConnection("jdbc:duckdb:");
             java.sql.Statement st = c.createStatement(); java.sql.ResultSet rs = st.executeQuery("select version()")) {
            rs.next();
            version = rs.getString(1);
        } catch (java.sql.SQLException e) {
            throw new AssertionError(e);
        }
        assertTrue(version.matches("v\\d+\\.\\d+\\.\\d+.*"), version);
        assertTrue(out.contains("peer: DuckDB " + version + " (JDBC driver " + DUCKDB_JAR_VERSION + ")"), out);
        assertTrue(out.contains("1 runs after warm-up, medians, ") && out.contains(", against DuckDB " + version), out);
        for (int i = 1; i <= 4; i++) {
            assertTrue(out.contains("q" + i + ".1"), out);
        }
        assertTrue(out.contains("geomean"), out);
    }
}

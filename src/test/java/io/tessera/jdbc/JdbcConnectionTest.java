package io.tessera.jdbc;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.Driver;
import java.sql.DriverManager;
import java.sql.DriverPropertyInfo;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.SQLWarning;
import java.sql.Statement;
import java.sql.Types;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Properties;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The driver, the connection and the database's metadata as JDBC tools use them on connect: the driver found by
 * its URL through the service registration, URL errors, auto-commit and what commit and rollback do, closing,
 * the catalog's result sets, and unsupported features refused by name.
 */
class JdbcConnectionTest {

    @TempDir
    static Path dir;
    static String url;
    static Connection conn;

    @BeforeAll
    static void open() throws SQLException {
        url = "jdbc:tessera:" + dir.resolve("db") + "?create=true";
        conn = DriverManager.getConnection(url);
        try (Statement s = conn.createStatement()) {
            s.executeUpdate("create table orders (o_id integer not null, o_total decimal(10,2), o_day date, "
                    + "o_note varchar)");
            s.executeUpdate("create table order_lines (l_order bigint, l_qty double, l_ok boolean)");
            s.executeUpdate("create table other (x integer)");
            s.executeUpdate("create view order_days as select o_id, o_day, o_total * 2 as twice from orders");
        }
    }

    @AfterAll
    static void close() throws SQLException {
        conn.close();
    }

    @Test
    void theDriverIsRegisteredForItsUrls() throws Exception {
        List<String> registered = new ArrayList<>();
        for (URL u : Collections.list(getClass().getClassLoader().getResources("META-INF/services/java.sql.Driver"))) {
            try (InputStream in = u.openStream()) {
                registered.addAll(new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().map(String::strip).toList());
            }
        }
        assertTrue(registered.contains(TesseraDriver.class.getName()), registered.toString());
        Driver d = DriverManager.getDriver("jdbc:tessera:/some/dir");
        assertInstanceOf(TesseraDriver.class, d);
        assertFalse(d.acceptsURL("jdbc:duckdb:"));
        assertNull(d.connect("jdbc:duckdb:", new Properties()));
        assertEquals(0, d.getMajorVersion());
        assertEquals(1, d.getMinorVersion());
        DriverPropertyInfo[] info = d.getPropertyInfo("jdbc:tessera:x", new Properties());
        assertEquals(List.of("device", "create"), java.util.Arrays.stream(info).map(p -> p.name).toList());
        assertEquals(List.of("cpu", "gpu", "auto"), List.of(info[0].choices));
    }

    @Test
    void badUrlsAreRefusedWithTheReason() {
        SQLException missing = assertThrows(SQLException.class,
                () -> DriverManager.getConnection("jdbc:tessera:" + dir.resolve("none")));
        assertTrue(missing.getMessage().contains("no Tessera database"), missing.getMessage());
        SQLException device = assertThrows(SQLException.class,
                () -> DriverManager.getConnection("jdbc:tessera:" + dir.resolve("db") + "?device=tpu"));
        assertTrue(device.getMessage().contains("unknown device 'tpu'"), device.getMessage());
        SQLException property = assertThrows(SQLException.class,
                () -> DriverManager.getConnection("jdbc:tessera:" + dir.resolve("db") + "?devise=gpu"));
        assertTrue(property.getMessage().contains("unknown connection property 'devise'"), property.getMessage());
        SQLException empty = assertThrows(SQLException.class, () -> DriverManager.getConnection("jdbc:tessera:"));
        assertTrue(empty.getMessage().contains("names no database directory"), empty.getMessage());
    }

    @Test
    void aGpuConnectionAnswersAndSaysWhereItRanInAWarning() throws SQLException {
        try (Connection gpu = DriverManager.getConnection("jdbc:tessera:" + dir.resolve("db") + "?device=gpu");
             Statement s = gpu.createStatement()) {
            s.executeUpdate("insert into other values (1), (2)");
            // a string function: the GPU has no code for it, and a machine without a GPU has none at all
            try (ResultSet rs = s.executeQuery("select count(*) from other where lower(cast(x as varchar)) = '2'")) {
                assertTrue(rs.next());
                assertEquals(1, rs.getInt(1));
                assertFalse(rs.next()); // the notice comes with the end of the rows
            }
            SQLWarning w = s.getWarnings();
            assertNotNull(w, "a query asked of the GPU that ran on the JVM says why");
            assertTrue(w.getMessage().contains("JVM") || w.getMessage().contains("jvm"), w.getMessage());
            s.executeUpdate("delete from other");
        }
    }

    @Test
    void transactionsAreOneStatementEach() throws SQLException {
        assertTrue(conn.getAutoCommit());
        SQLFeatureNotSupportedException off = assertThrows(SQLFeatureNotSupportedException.class,
                () -> conn.setAutoCommit(false));
        assertTrue(off.getMessage().contains("each Tessera statement is atomic"), off.getMessage());
        conn.setAutoCommit(true);
        conn.commit(); // nothing left to commit
        SQLException rollback = assertThrows(SQLException.class, conn::rollback);
        assertTrue(rollback.getMessage().contains("nothing to roll back"), rollback.getMessage());
        assertEquals(Connection.TRANSACTION_SERIALIZABLE, conn.getTransactionIsolation());
        conn.setTransactionIsolation(Connection.TRANSACTION_READ_COMMITTED);
        assertEquals(Connection.TRANSACTION_SERIALIZABLE, conn.getTransactionIsolation());
    }

    @Test
    void closingReleasesTheDatabaseAndEverythingOpenOnIt() throws SQLException {
        Connection c = DriverManager.getConnection(url);
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("select count(*) from orders");
        PreparedStatement p = c.prepareStatement("select ?");
        assertTrue(c.isValid(1));
        c.close();
        assertTrue(c.isClosed());
        assertFalse(c.isValid(1));
        assertTrue(s.isClosed());
        assertTrue(p.isClosed());
        assertTrue(rs.isClosed());
        assertEquals("08003", assertThrows(SQLException.class, c::createStatement).getSQLState());
        assertEquals("08003", assertThrows(SQLException.class, rs::next).getSQLState());
        c.close(); // twice is nothing
        // another connection writes and this one reads what it committed
        try (Connection other = DriverManager.getConnection(url); Statement w = other.createStatement()) {
            assertEquals(1, w.executeUpdate("insert into other values (7)"));
        }
        try (Statement r = conn.createStatement(); ResultSet n = r.executeQuery("select sum(x) from other")) {
            assertTrue(n.next());
            assertEquals(7, n.getInt(1));
        }
        try (Statement d = conn.createStatement()) {
            d.executeUpdate("delete from other");
        }
    }

    private static List<String> column(ResultSet rs, String name) throws SQLException {
        List<String> out = new ArrayList<>();
        while (rs.next()) {
            out.add(rs.getString(name));
        }
        rs.close();
        return out;
    }

    @Test
    void metaDataListsTablesViewsAndColumns() throws SQLException {
        DatabaseMetaData md = conn.getMetaData();
        assertEquals("Tessera", md.getDatabaseProductName());
        assertEquals("0.1", md.getDatabaseProductVersion());
        assertEquals("Tessera JDBC driver", md.getDriverName());
        assertEquals("0.1", md.getDriverVersion());
        assertEquals("\"", md.getIdentifierQuoteString());
        assertEquals(url, md.getURL());
        assertFalse(md.storesLowerCaseIdentifiers());
        assertTrue(md.storesMixedCaseIdentifiers());
        assertTrue(md.nullsAreSortedAtEnd());
        assertEquals(List.of("order_lines", "orders", "other", "order_days"),
                column(md.getTables(null, null, "%", null), "TABLE_NAME"));
        assertEquals(List.of("TABLE", "TABLE", "TABLE", "VIEW"), column(md.getTables(null, null, null, null), "TABLE_TYPE"));
        assertEquals(List.of("order_lines", "orders"), column(md.getTables(null, "%", "ORDER%S", new String[] {"TABLE"}),
                "TABLE_NAME"));
        assertEquals(List.of("order_lines"), column(md.getTables(null, null, "order\\_lines", null), "TABLE_NAME"));
        assertEquals(List.of(), column(md.getTables("somecatalog", null, "%", null), "TABLE_NAME"));
        assertEquals(List.of("order_days"), column(md.getTables(null, null, "%", new String[] {"VIEW"}), "TABLE_NAME"));

        try (ResultSet cols = md.getColumns(null, null, "orders", null)) {
            List<String> seen = new ArrayList<>();
            while (cols.next()) {
                seen.add(cols.getString("COLUMN_NAME") + " " + cols.getInt("DATA_TYPE") + " " + cols.getString("TYPE_NAME")
                        + " " + cols.getInt("COLUMN_SIZE") + "," + cols.getInt("DECIMAL_DIGITS") + " "
                        + cols.getString("IS_NULLABLE") + " " + cols.getInt("ORDINAL_POSITION"));
            }
            assertEquals(List.of("o_id 4 INTEGER 10,0 NO 1", "o_total 3 DECIMAL 10,2 YES 2", "o_day 91 DATE 10,0 YES 3",
                    "o_note 12 VARCHAR 2147483647,0 YES 4"), seen);
        }
        // a view's columns are its query's
        assertEquals(List.of("o_id", "o_day", "twice"), column(md.getColumns(null, null, "order_days", "%"), "COLUMN_NAME"));
        assertEquals(List.of(String.valueOf(Types.DECIMAL)),
                column(md.getColumns(null, null, "order_days", "tw%"), "DATA_TYPE"));

        // a view whose table was dropped no longer plans: its columns are unknown, the others' still listed
        try (Statement s = conn.createStatement()) {
            s.executeUpdate("create table gone (g integer)");
            s.executeUpdate("create view over_gone as select g from gone");
            s.executeUpdate("drop table gone");
        }
        List<String> everyColumn = column(md.getColumns(null, null, "%", "%"), "TABLE_NAME");
        assertTrue(everyColumn.contains("order_days") && !everyColumn.contains("over_gone"), everyColumn.toString());
        assertEquals(List.of(), column(md.getColumns(null, null, "over_gone", "%"), "COLUMN_NAME"));
        assertEquals(List.of("o_id", "o_day", "twice"), column(md.getColumns(null, null, "order_days", "%"),
                "COLUMN_NAME"));
        try (Statement s = conn.createStatement()) {
            s.executeUpdate("drop view over_gone");
        }

        // a generated column is marked
        try (Statement s = conn.createStatement()) {
            s.executeUpdate("create table derived (a integer, b as (a * 2))");
        }
        assertEquals(List.of("NO", "YES"), column(md.getColumns(null, null, "derived", "%"), "IS_GENERATEDCOLUMN"));

        // one catalog, named as the database's directory, with one schema, main
        assertEquals(List.of("main"), column(md.getSchemas(), "TABLE_SCHEM"));
        assertEquals(List.of("db"), column(md.getCatalogs(), "TABLE_CAT"));
        assertEquals(List.of("TABLE", "VIEW"), column(md.getTableTypes(), "TABLE_TYPE"));
        try (ResultSet types = md.getTypeInfo()) {
            List<String> names = new ArrayList<>();
            while (types.next()) {
                names.add(types.getString("TYPE_NAME"));
                if (types.getString("TYPE_NAME").equals("DECIMAL")) {
                    assertEquals(18, types.getInt("PRECISION"));
                    assertEquals(18, types.getInt("MAXIMUM_SCALE"));
                }
            }
            assertEquals(List.of("TINYINT", "BIGINT", "DECIMAL", "INTEGER", "SMALLINT", "DOUBLE", "VARCHAR", "BOOLEAN",
                    "DATE", "TIME", "TIMESTAMP", "UUID", "BLOB", "TIMESTAMP WITH TIME ZONE"), names);
        }
        try (ResultSet keys = md.getPrimaryKeys(null, null, "orders")) {
            assertFalse(keys.next());
            assertEquals("PK_NAME", keys.getMetaData().getColumnName(6));
            assertNull(keys.getStatement());
        }
        assertFalse(md.getIndexInfo(null, null, "orders", false, true).next());
        // the indexes CREATE INDEX made: a row per column, the unique ones first, columns as the table names them
        try (Statement s = conn.createStatement()) {
            s.executeUpdate("create table indexed (a integer, b varchar)");
            s.executeUpdate("create index by_b_a on indexed (b, A)");
            s.executeUpdate("create unique index by_a on indexed (a)");
        }
        assertEquals(List.of("by_a false 1 a", "by_b_a true 1 b", "by_b_a true 2 a"),
                indexRows(md.getIndexInfo(null, "main", "INDEXED", false, true)));
        assertEquals(List.of("by_a false 1 a"), indexRows(md.getIndexInfo(null, null, "indexed", true, true)));
        assertEquals(List.of(), indexRows(md.getIndexInfo(null, "other", "indexed", false, true)));
        assertFalse(md.getProcedures(null, null, "%").next());
    }

    /** getIndexInfo's rows as "INDEX_NAME NON_UNIQUE ORDINAL_POSITION COLUMN_NAME", each of table indexed. */
    private static List<String> indexRows(ResultSet rs) throws SQLException {
        List<String> out = new ArrayList<>();
        try (rs) {
            while (rs.next()) {
                assertEquals("indexed", rs.getString("TABLE_NAME"));
                assertEquals(DatabaseMetaData.tableIndexOther, rs.getShort("TYPE"));
                out.add(rs.getString("INDEX_NAME") + " " + rs.getBoolean("NON_UNIQUE") + " "
                        + rs.getInt("ORDINAL_POSITION") + " " + rs.getString("COLUMN_NAME"));
            }
        }
        return out;
    }

    @Test
    void unsupportedFeaturesAreRefusedByName() throws SQLException {
        assertNamed("stored procedures", () -> conn.prepareCall("call x()"));
        assertNamed("savepoints", conn::setSavepoint);
        assertNamed("BLOB", conn::createBlob);
        assertNamed("scrollable result sets", () -> conn.createStatement(ResultSet.TYPE_SCROLL_INSENSITIVE,
                ResultSet.CONCUR_READ_ONLY));
        assertNamed("updatable result sets", () -> conn.createStatement(ResultSet.TYPE_FORWARD_ONLY,
                ResultSet.CONCUR_UPDATABLE));
        try (Statement s = conn.createStatement(); ResultSet rs = s.executeQuery("select o_id from orders")) {
            assertNamed("scrollable result sets (previous)", rs::previous);
            assertNamed("updatable result sets", () -> rs.updateInt(1, 5));
            assertNamed("named cursors", () -> s.setCursorName("c"));
        }
        try (PreparedStatement p = conn.prepareStatement("select ?")) {
            assertNamed("values of java.util.Locale", () -> p.setObject(1, java.util.Locale.ROOT));
        }
    }

    private interface Call {
        void run() throws SQLException;
    }

    private static void assertNamed(String feature, Call call) {
        SQLFeatureNotSupportedException e = assertThrows(SQLFeatureNotSupportedException.class, call::run);
        assertTrue(e.getMessage().contains(feature), e.getMessage());
    }

    @Test
    void noGpuNoticeIsAWarningOnTheCpu() throws SQLException, IOException {
        try (Statement s = conn.createStatement(); ResultSet rs = s.executeQuery("select count(*) from orders")) {
            assertTrue(rs.next());
            assertNull(s.getWarnings());
        }
    }
}

package io.tessera.jdbc;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Names keep the case they were written in, as DuckDB keeps them, where a JDBC tool reads them: the result's column
 * labels, and the tables and columns of the database's metadata, found by patterns in any case.
 */
class JdbcNameCaseTest {

    @TempDir
    static Path dir;
    static Connection conn;

    @BeforeAll
    static void open() throws SQLException {
        conn = DriverManager.getConnection("jdbc:tessera:" + dir.resolve("db") + "?create=true");
        try (Statement s = conn.createStatement()) {
            s.executeUpdate("create table UserEvents (UserId integer, \"EventTime\" timestamp, kind varchar)");
            s.executeUpdate("insert into userevents values (7, timestamp '2024-01-02 03:04:05', 'click')");
            s.executeUpdate("create view ClickCounts as select USERID, count(*) as Clicks from USEREVENTS group by userid");
        }
    }

    @AfterAll
    static void close() throws SQLException {
        conn.close();
    }

    @Test
    void columnLabelsAreTheCatalogsNamesAndTheAliasesAsWritten() throws SQLException {
        try (Statement s = conn.createStatement();
             ResultSet rs = s.executeQuery("select userid, EVENTTIME, userid + 1, kind as Kind2 from userevents")) {
            ResultSetMetaData md = rs.getMetaData();
            List<String> labels = new ArrayList<>();
            for (int i = 1; i <= md.getColumnCount(); i++) {
                labels.add(md.getColumnLabel(i));
            }
            assertEquals(List.of("UserId", "EventTime", "(userid + 1)", "Kind2"), labels);
            rs.next();
            // a label is found ignoring case
            assertEquals(7, rs.getInt("USERID"));
            assertEquals("click", rs.getString("kind2"));
        }
        try (Statement s = conn.createStatement(); ResultSet rs = s.executeQuery("select * from clickcounts")) {
            assertEquals("UserId", rs.getMetaData().getColumnLabel(1));
            assertEquals("Clicks", rs.getMetaData().getColumnLabel(2));
        }
    }

    @Test
    void metaDataNamesTablesAndColumnsAsCreated() throws SQLException {
        DatabaseMetaData md = conn.getMetaData();
        List<String> tables = new ArrayList<>();
        try (ResultSet rs = md.getTables(null, null, "%", null)) {
            while (rs.next()) {
                tables.add(rs.getString("TABLE_NAME"));
            }
        }
        assertEquals(List.of("UserEvents", "ClickCounts"), tables);
        List<String> columns = new ArrayList<>();
        try (ResultSet rs = md.getColumns(null, null, "userevents", "%")) {
            while (rs.next()) {
                columns.add(rs.getString("TABLE_NAME") + "." + rs.getString("COLUMN_NAME"));
            }
        }
        assertEquals(List.of("UserEvents.UserId", "UserEvents.EventTime", "UserEvents.kind"), columns);
        List<String> viewColumns = new ArrayList<>();
        try (ResultSet rs = md.getColumns(null, null, "CLICKCOUNTS", null)) {
            while (rs.next()) {
                viewColumns.add(rs.getString("COLUMN_NAME"));
            }
        }
        assertEquals(List.of("UserId", "Clicks"), viewColumns);
    }
}

package io.tessera.jdbc;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.DriverManager;
import java.sql.ParameterMetaData;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What a GUI client (DBeaver, DataGrip) asks on connect and while browsing: the catalog and its one schema
 * {@code main}, the tables and columns in it, a prepared statement's columns and parameter types before it runs,
 * and a script of several statements run by one {@code execute}, read with {@code getMoreResults}.
 */
class JdbcGuiClientTest {

    @TempDir
    static Path dir;
    static Connection conn;

    @BeforeAll
    static void open() throws SQLException {
        conn = DriverManager.getConnection("jdbc:tessera:" + dir.resolve("shop") + "?create=true");
        try (Statement s = conn.createStatement()) {
            s.executeUpdate("create table customers (c_id integer not null, c_name varchar, c_since date)");
            s.executeUpdate("create table orders (o_id bigint not null, o_cust integer, o_total decimal(10,2))");
            s.executeUpdate("insert into customers values (1, 'ann', date '2020-01-02'), (2, 'bob', null)");
            s.executeUpdate("insert into orders values (10, 1, 12.50), (11, 1, 3.25), (12, 2, 7.00)");
            s.executeUpdate("create view big_orders as select o_id, o_total from orders where o_total > 5");
        }
    }

    @AfterAll
    static void close() throws SQLException {
        conn.close();
    }

    private static List<String> rows(ResultSet rs, String... columns) throws SQLException {
        List<String> out = new ArrayList<>();
        try (rs) {
            while (rs.next()) {
                List<String> row = new ArrayList<>();
                for (String c : columns) {
                    row.add(rs.getString(c));
                }
                out.add(String.join(" ", row));
            }
        }
        return out;
    }

    /** The calls DBeaver's generic driver makes when it connects and opens the navigator tree. */
    @Test
    void theNavigatorTreeIsOneCatalogWithSchemaMain() throws SQLException {
        DatabaseMetaData md = conn.getMetaData();
        assertEquals("shop", conn.getCatalog());
        assertEquals("main", conn.getSchema());
        assertEquals("catalog", md.getCatalogTerm());
        assertEquals("schema", md.getSchemaTerm());
        assertEquals(".", md.getCatalogSeparator());
        assertTrue(md.isCatalogAtStart());
        conn.getAutoCommit();
        conn.getTransactionIsolation();
        conn.isReadOnly();
        md.getSQLKeywords();
        md.getNumericFunctions();
        md.getStringFunctions();
        md.getTimeDateFunctions();
        md.getTableTypes().close();
        md.getTypeInfo().close();

        assertEquals(List.of("shop"), rows(md.getCatalogs(), "TABLE_CAT"));
        assertEquals(List.of("main shop"), rows(md.getSchemas(), "TABLE_SCHEM", "TABLE_CATALOG"));
        assertEquals(List.of("main shop"), rows(md.getSchemas("shop", null), "TABLE_SCHEM", "TABLE_CATALOG"));
        assertEquals(List.of("main shop"), rows(md.getSchemas(null, "MA%"), "TABLE_SCHEM", "TABLE_CATALOG"));
        assertEquals(List.of(), rows(md.getSchemas("other", null), "TABLE_SCHEM"));
        assertEquals(List.of(), rows(md.getSchemas(null, "public"), "TABLE_SCHEM"));

        assertEquals(List.of("shop main customers TABLE", "shop main orders TABLE", "shop main big_orders VIEW"),
                rows(md.getTables("shop", "main", "%", new String[] {"TABLE", "VIEW"}), "TABLE_CAT", "TABLE_SCHEM",
                        "TABLE_NAME", "TABLE_TYPE"));
        assertEquals(List.of("customers", "orders", "big_orders"),
                rows(md.getTables(null, null, null, null), "TABLE_NAME"));
        assertEquals(List.of(), rows(md.getTables("shop", "public", "%", null), "TABLE_NAME"));
        assertEquals(List.of(), rows(md.getTables("elsewhere", "main", "%", null), "TABLE_NAME"));

        assertEquals(List.of("shop main orders o_id 1", "shop main orders o_cust 2", "shop main orders o_total 3"),
                rows(md.getColumns("shop", "main", "orders", "%"), "TABLE_CAT", "TABLE_SCHEM", "TABLE_NAME",
                        "COLUMN_NAME", "ORDINAL_POSITION"));
        assertEquals(List.of("big_orders o_total"),
                rows(md.getColumns(null, "main", "big_orders", "o_t%"), "TABLE_NAME", "COLUMN_NAME"));
        assertEquals(List.of(), rows(md.getColumns("shop", "public", "orders", "%"), "COLUMN_NAME"));
        // what Tessera has none of is empty, with JDBC's columns
        assertFalse(md.getPrimaryKeys("shop", "main", "orders").next());
        assertFalse(md.getImportedKeys("shop", "main", "orders").next());
        assertFalse(md.getIndexInfo("shop", "main", "orders", false, true).next());

        // the data tab: a query with the schema-qualified name the tree shows
        try (Statement s = conn.createStatement()) {
            s.setFetchSize(200);
            s.setMaxRows(200);
            assertEquals(List.of("1 ann", "2 bob"),
                    rows(s.executeQuery("select * from main.customers order by c_id"), "c_id", "c_name"));
            assertEquals(List.of("2"), rows(s.executeQuery("select count(*) as n from main.big_orders"), "n"));
        }
    }

    @Test
    void aPreparedQueryTellsItsColumnsAndParameterTypesBeforeItRuns() throws SQLException {
        try (PreparedStatement p = conn.prepareStatement(
                "select c_name, sum(o_total) as total, count(*) as n from customers join orders on o_cust = c_id "
                        + "where c_since >= ? and o_total > ? and c_name <> ? group by c_name")) {
            ResultSetMetaData md = p.getMetaData();
            assertEquals(3, md.getColumnCount());
            assertEquals("c_name", md.getColumnName(1));
            assertEquals(Types.VARCHAR, md.getColumnType(1));
            assertEquals("total", md.getColumnLabel(2));
            assertEquals(Types.DECIMAL, md.getColumnType(2));
            assertEquals(Types.BIGINT, md.getColumnType(3));
            assertEquals(ResultSetMetaData.columnNoNulls, md.isNullable(3));

            ParameterMetaData params = p.getParameterMetaData();
            assertEquals(3, params.getParameterCount());
            assertEquals(Types.DATE, params.getParameterType(1));
            assertEquals(Types.DECIMAL, params.getParameterType(2));
            assertEquals("VARCHAR", params.getParameterTypeName(3));

            // then it runs with values of those types, and reports the same columns
            p.setDate(1, java.sql.Date.valueOf("2019-01-01"));
            p.setBigDecimal(2, new java.math.BigDecimal("5"));
            p.setString(3, "zed");
            try (ResultSet rs = p.executeQuery()) {
                assertTrue(rs.next());
                assertEquals("ann", rs.getString(1));
                assertEquals(new java.math.BigDecimal("12.50"), rs.getBigDecimal(2));
                assertFalse(rs.next());
                assertEquals(Types.DECIMAL, rs.getMetaData().getColumnType(2));
            }
        }
    }

    @Test
    void statementsThatAreNotQueriesHaveNoColumnsBeforeTheyRun() throws SQLException {
        try (PreparedStatement p = conn.prepareStatement("insert into orders values (?, ?, ?)")) {
            assertNull(p.getMetaData());
            assertEquals(3, p.getParameterMetaData().getParameterCount());
        }
        // a mark whose type nothing in the statement gives stays untyped until a value is set
        try (PreparedStatement p = conn.prepareStatement("select ? as x")) {
            assertEquals(Types.OTHER, p.getParameterMetaData().getParameterType(1));
            p.setInt(1, 4);
            assertEquals(Types.INTEGER, p.getParameterMetaData().getParameterType(1));
        }
        // a file in FROM is read only when the statement runs: its columns are not known before
        try (PreparedStatement p = conn.prepareStatement("select * from 'orders.csv'")) {
            assertNull(p.getMetaData());
        }
        // a misspelt table fails when the metadata is asked for, naming the table
        try (PreparedStatement p = conn.prepareStatement("select * from custmers")) {
            SQLException e = assertThrows(SQLException.class, p::getMetaData);
            assertTrue(e.getMessage().contains("did you mean customers?"), e.getMessage());
        }
    }

    @Test
    void severalStatementsRunByOneExecuteAreReadWithGetMoreResults() throws SQLException {
        try (Statement s = conn.createStatement()) {
            assertTrue(s.execute("select 1 as a; select 'two' as b;\n-- a comment; not a statement\n"
                    + "create table scratch (v integer); insert into scratch values (1), (2); select count(*) as n "
                    + "from scratch where v > 0 and ';' <> 'x'"));
            ResultSet first = s.getResultSet();
            assertEquals(List.of("1"), rows(first, "a"));
            assertTrue(s.getMoreResults());
            ResultSet second = s.getResultSet();
            assertTrue(second.next());
            assertEquals("two", second.getString("b"));
            assertFalse(s.getMoreResults());
            assertTrue(second.isClosed(), "moving on closes the current result set");
            assertEquals(0, s.getUpdateCount()); // CREATE TABLE
            assertFalse(s.getMoreResults());
            assertEquals(2, s.getUpdateCount()); // INSERT
            assertTrue(s.getMoreResults());
            assertEquals(List.of("2"), rows(s.getResultSet(), "n"));
            assertFalse(s.getMoreResults());
            assertEquals(-1, s.getUpdateCount());
            assertNull(s.getResultSet());

            // KEEP_CURRENT_RESULT leaves the current result set open
            assertTrue(s.execute("select 1 as a; select 2 as b"));
            ResultSet kept = s.getResultSet();
            assertTrue(s.getMoreResults(Statement.KEEP_CURRENT_RESULT));
            assertEquals(List.of("1"), rows(kept, "a"));
            assertEquals(List.of("2"), rows(s.getResultSet(), "b"));

            // a statement that fails stops the rest; those before it have run
            SQLException e = assertThrows(SQLException.class,
                    () -> s.execute("insert into scratch values (3); select * from nowhere; insert into scratch values (4)"));
            assertTrue(e.getMessage().contains("nowhere"), e.getMessage());
            assertEquals(List.of("3"), rows(s.executeQuery("select count(*) as n from scratch"), "n"));
            s.executeUpdate("drop table scratch");
        }
    }
}

package io.tessera.jdbc;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * REAL (DuckDB's FLOAT) through JDBC beside DuckDB's driver: values bound as float, Float and double are stored as
 * floats, read back by getFloat, getDouble (the float's exact value), getObject (a Float) and getString, and the
 * column's metadata is FLOAT, as DuckDB's driver reports it.
 */
class JdbcRealTest {

    @TempDir
    static Path dir;
    static Connection tessera;
    static Connection duckdb;

    @BeforeAll
    static void fill() throws SQLException {
        tessera = DriverManager.getConnection("jdbc:tessera:" + dir.resolve("db") + "?create=true");
        duckdb = DriverManager.getConnection("jdbc:duckdb:");
        for (Connection c : List.of(tessera, duckdb)) {
            try (Statement s = c.createStatement()) {
                s.executeUpdate("create table r (id integer, f real)");
            }
            try (PreparedStatement p = c.prepareStatement("insert into r values (?, ?)")) {
                p.setInt(1, 1);
                p.setFloat(2, 0.1f);
                p.executeUpdate();
                p.setInt(1, 2);
                p.setObject(2, Float.valueOf(1e10f));
                p.executeUpdate();
                p.setInt(1, 3);
                p.setDouble(2, 0.3); // stored as the float nearest 0.3
                p.executeUpdate();
                p.setInt(1, 4);
                p.setNull(2, java.sql.Types.FLOAT);
                p.executeUpdate();
            }
        }
    }

    @AfterAll
    static void close() throws SQLException {
        tessera.close();
        duckdb.close();
    }

    @Test
    void gettersGiveTheFloatsDuckDbGives() throws SQLException {
        // (a NULL's getFloat is NaN in DuckDB's driver, 0 as JDBC says in Tessera's)
        String q = "select id, f from r where f is not null order by id";
        assertEquals(getters(duckdb, q), getters(tessera, q));
        assertEquals(List.of("1 0.1 0.10000000149011612 Float:0.1 0.1", "2 1.0E10 1.0E10 Float:1.0E10 1.0E10",
                "3 0.3 0.30000001192092896 Float:0.3 0.3"), getters(tessera, q));
        assertEquals(List.of("4 0.0 0.0 null null"), getters(tessera, "select id, f from r where f is null"));
    }

    @Test
    void metadataIsFloat() throws SQLException {
        for (Connection c : List.of(tessera, duckdb)) {
            try (Statement s = c.createStatement(); ResultSet r = s.executeQuery("select f, f + 1, f * 1.5 from r")) {
                ResultSetMetaData m = r.getMetaData();
                for (int i = 1; i <= 3; i++) {
                    assertEquals(java.sql.Types.FLOAT, m.getColumnType(i), c + " column " + i);
                    assertEquals("FLOAT", m.getColumnTypeName(i), c + " column " + i);
                    assertEquals(Float.class.getName(), m.getColumnClassName(i), c + " column " + i);
                }
            }
        }
    }

    @Test
    void aFloatParameterIsAReal() throws SQLException {
        String q = "select ?::real, typeof(?), ? = 0.1";
        List<String> want = null;
        for (Connection c : List.of(duckdb, tessera)) {
            try (PreparedStatement p = c.prepareStatement(q)) {
                p.setFloat(1, 0.1f);
                p.setFloat(2, 0.1f);
                p.setFloat(3, 0.1f);
                try (ResultSet r = p.executeQuery()) {
                    r.next();
                    List<String> got = List.of(String.valueOf(r.getObject(1)), r.getString(2),
                            String.valueOf(r.getBoolean(3)));
                    if (want == null) {
                        want = got;
                    } else {
                        assertEquals(want, got);
                    }
                }
            }
        }
        assertEquals(List.of("0.1", "FLOAT", "true"), want);
    }

    private static List<String> getters(Connection c, String q) throws SQLException {
        List<String> out = new ArrayList<>();
        try (Statement s = c.createStatement(); ResultSet r = s.executeQuery(q)) {
            while (r.next()) {
                Object o = r.getObject(2);
                out.add(r.getInt(1) + " " + r.getFloat(2) + " " + r.getDouble(2) + " "
                        + (o == null ? "null" : o.getClass().getSimpleName() + ":" + o) + " " + r.getString(2));
            }
        }
        return out;
    }
}

package io.tessera.jdbc;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
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
import java.sql.Types;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * BLOB and UUID through JDBC, beside DuckDB's driver given the same statements: {@code setBytes},
 * {@code setObject(byte[])} and {@code setObject(UUID)} store the values, {@code getBytes}, {@code getObject} (a
 * java.util.UUID) and {@code getString} (DuckDB's text of bytes) read them back, and the metadata gives DuckDB's
 * type codes ({@link Types#BLOB}, {@link Types#OTHER}).
 */
class JdbcBlobUuidTest {

    private static final List<UUID> UUIDS = Arrays.asList(UUID.fromString("a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11"),
            UUID.fromString("80000000-0000-0000-0000-000000000000"), null,
            UUID.fromString("7fffffff-ffff-ffff-ffff-ffffffffffff"));
    private static final List<byte[]> BYTES = Arrays.asList(new byte[] {(byte) 0xAA, 0, 'z'}, new byte[0], null,
            "\\'\"".getBytes(java.nio.charset.StandardCharsets.US_ASCII));

    private Connection tessera;
    private Connection duckdb;

    @BeforeEach
    void fill(@TempDir Path dir) throws SQLException {
        tessera = DriverManager.getConnection("jdbc:tessera:" + dir.resolve("db") + "?create=true");
        duckdb = DriverManager.getConnection("jdbc:duckdb:");
        for (Connection c : List.of(tessera, duckdb)) {
            try (Statement s = c.createStatement()) {
                s.execute("create table t (id integer, u uuid, b blob)");
            }
            try (PreparedStatement p = c.prepareStatement("insert into t values (?, ?, ?)")) {
                for (int i = 0; i < UUIDS.size(); i++) {
                    p.setInt(1, i);
                    p.setObject(2, UUIDS.get(i));
                    if (BYTES.get(i) == null) {
                        p.setNull(3, Types.BLOB);
                    } else if (i % 2 == 0) {
                        p.setBytes(3, BYTES.get(i));
                    } else {
                        p.setObject(3, BYTES.get(i));
                    }
                    p.executeUpdate();
                }
            }
        }
    }

    @AfterEach
    void close() throws SQLException {
        tessera.close();
        duckdb.close();
    }

    @Test
    void valuesReadBackAsDuckDbsDriverReadsThem() throws SQLException {
        String sql = "select id, u, b, cast(b as varchar) from t order by id";
        assertEquals(rows(duckdb, sql), rows(tessera, sql));
        try (Statement s = tessera.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            assertInstanceOf(UUID.class, rs.getObject(2));
            assertEquals(UUIDS.get(0), rs.getObject(2, UUID.class));
            assertArrayEquals(BYTES.get(0), rs.getBytes(3));
            assertArrayEquals(BYTES.get(0), (byte[]) rs.getObject(3));
            assertArrayEquals(BYTES.get(0), rs.getObject(3, byte[].class));
            assertEquals("\\xAA\\x00z", rs.getString(3));
        }
    }

    @Test
    void aParameterComparesWithTheColumn() throws SQLException {
        String sql = "select id from t where u = ? or b = ? order by id";
        for (Connection c : List.of(tessera, duckdb)) {
            try (PreparedStatement p = c.prepareStatement(sql)) {
                p.setObject(1, UUIDS.get(3));
                p.setBytes(2, BYTES.get(1));
                try (ResultSet rs = p.executeQuery()) {
                    List<Integer> ids = new ArrayList<>();
                    while (rs.next()) {
                        ids.add(rs.getInt(1));
                    }
                    assertEquals(List.of(1, 3), ids, c.getMetaData().getDatabaseProductName());
                }
            }
        }
    }

    @Test
    void metadataGivesDuckDbsTypeCodesAndClasses() throws SQLException {
        String sql = "select u, b from t";
        try (Statement st = tessera.createStatement(); ResultSet t = st.executeQuery(sql);
             Statement sd = duckdb.createStatement(); ResultSet d = sd.executeQuery(sql)) {
            ResultSetMetaData tm = t.getMetaData();
            ResultSetMetaData dm = d.getMetaData();
            for (int i = 1; i <= 2; i++) {
                assertEquals(dm.getColumnType(i), tm.getColumnType(i));
                assertEquals(dm.getColumnTypeName(i), tm.getColumnTypeName(i));
            }
            assertEquals(Types.OTHER, tm.getColumnType(1));
            assertEquals(UUID.class.getName(), tm.getColumnClassName(1));
            assertEquals(Types.BLOB, tm.getColumnType(2));
            assertEquals(byte[].class.getName(), tm.getColumnClassName(2));
        }
    }

    /** Each row as text: the UUID's, the bytes as a list of numbers, and getString of the cast. */
    private static List<String> rows(Connection c, String sql) throws SQLException {
        List<String> out = new ArrayList<>();
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            while (rs.next()) {
                Object u = rs.getObject(2);
                byte[] b = rs.getBytes(3);
                out.add(rs.getInt(1) + " " + u + " " + (b == null ? "null" : Arrays.toString(b)) + " "
                        + rs.getString(4));
                if (b == null) {
                    assertNull(rs.getString(3));
                }
            }
        }
        return out;
    }
}

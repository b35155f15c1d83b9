package io.tessera.jdbc;

import io.tessera.api.LongJoin;
import io.tessera.storage.Database;
import io.tessera.storage.RowBatch;
import io.tessera.storage.TableSchema;
import io.tessera.storage.TableWriter;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.SQLSyntaxErrorException;
import java.sql.SQLTimeoutException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Statements through the driver as the command line runs them: queries, EXPLAIN, DDL and data changes with their
 * update counts, errors with Tessera's message, the maximum row count, and {@code cancel()} and the query timeout
 * stopping a long query ({@link LongJoin}'s, minutes of work): it fails with SQLSTATE 57014 instead of running to its
 * end, whenever it stops (how soon depends on the machine and its load, so no test holds it to a time).
 */
class JdbcStatementTest {

    static final int ROWS = 200_000;
    static final String LONG = LongJoin.sql("pairs");

    @TempDir
    static Path dir;
    static Connection conn;

    @BeforeAll
    static void open() throws SQLException {
        try (Database d = Database.openOrCreate(dir.resolve("db"))) {
            TableSchema schema = TableSchema.parse("big", "k INTEGER NOT NULL, v INTEGER NOT NULL");
            RowBatch b = new RowBatch(schema, ROWS);
            for (int i = 0; i < ROWS; i++) {
                b.column(0).appendInt(i % 5);
                b.column(1).appendInt(i);
            }
            try (TableWriter w = d.replace(schema)) {
                w.write(b);
                w.commit();
            }
            LongJoin.write(d, "pairs");
        }
        conn = DriverManager.getConnection("jdbc:tessera:" + dir.resolve("db"));
    }

    @AfterAll
    static void close() throws SQLException {
        conn.close();
    }

    @Test
    void dataChangesGiveUpdateCountsAndQueriesResultSets() throws SQLException {
        try (Statement s = conn.createStatement()) {
            assertEquals(0, s.executeUpdate("create table counts (a integer, b varchar)"));
            assertFalse(s.execute("insert into counts values (1, 'x'), (2, 'y'), (3, null)"));
            assertEquals(3, s.getUpdateCount());
            assertNull(s.getResultSet());
            assertEquals(2, s.executeUpdate("update counts set b = 'z' where a >= 2"));
            assertEquals(1, s.executeUpdate("delete from counts where a = 1"));
            assertTrue(s.execute("select a, b from counts order by a"));
            assertEquals(-1, s.getUpdateCount());
            ResultSet rs = s.getResultSet();
            List<String> rows = new ArrayList<>();
            while (rs.next()) {
                rows.add(rs.getInt(1) + ":" + rs.getString("B"));
            }
            assertEquals(List.of("2:z", "3:z"), rows);
            assertFalse(s.getMoreResults());
            assertTrue(rs.isClosed());
            assertEquals(-1, s.getUpdateCount());
            // the wrong method is refused before the statement runs: nothing is inserted
            SQLException e = assertThrows(SQLException.class, () -> s.executeQuery("insert into counts values (9, 'q')"));
            assertTrue(e.getMessage().contains("returns no rows"), e.getMessage());
            assertThrows(SQLException.class, () -> s.executeUpdate("select * from counts"));
            try (ResultSet n = s.executeQuery("select count(*) from counts")) {
                assertTrue(n.next());
                assertEquals(2, n.getLong(1));
            }
            assertEquals(2, s.executeUpdate("create table counts2 as select * from counts"));
            assertEquals(0, s.executeUpdate("drop table counts2"));
        }
    }

    @Test
    void explainGivesThePlanAsRows() throws SQLException {
        try (Statement s = conn.createStatement(); ResultSet rs = s.executeQuery("explain select sum(v) from big")) {
            assertEquals("plan", rs.getMetaData().getColumnName(1));
            StringBuilder plan = new StringBuilder();
            while (rs.next()) {
                plan.append(rs.getString(1)).append('\n');
            }
            assertTrue(plan.toString().contains("genome"), plan.toString());
        }
    }

    @Test
    void errorsCarryTesserasMessageWithThePosition() throws SQLException {
        try (Statement s = conn.createStatement()) {
            SQLException syntax = assertThrows(SQLSyntaxErrorException.class, () -> s.executeQuery("select from big"));
            assertTrue(syntax.getMessage().contains("line 1, column"), syntax.getMessage());
            SQLException name = assertThrows(SQLSyntaxErrorException.class, () -> s.executeQuery("select nope from big"));
            assertTrue(name.getMessage().toLowerCase().contains("nope"), name.getMessage());
            SQLException unsupported = assertThrows(SQLFeatureNotSupportedException.class,
                    () -> s.executeQuery("select bar(k, 0, 10) from big"));
            assertTrue(unsupported.getMessage().startsWith("unsupported: "), unsupported.getMessage());
            // the connection goes on
            try (ResultSet rs = s.executeQuery("select count(*) from big")) {
                assertTrue(rs.next());
                assertEquals(ROWS, rs.getInt(1));
            }
        }
    }

    @Test
    void maxRowsCutsTheResult() throws SQLException {
        try (Statement s = conn.createStatement()) {
            s.setMaxRows(7);
            try (ResultSet rs = s.executeQuery("select v from big order by v")) {
                int n = 0;
                while (rs.next()) {
                    assertEquals(n, rs.getInt(1));
                    n++;
                }
                assertEquals(7, n);
            }
            s.setMaxRows(0);
            try (ResultSet rs = s.executeQuery("select v from big where v < 10000")) {
                int n = 0;
                while (rs.next()) {
                    n++;
                }
                assertEquals(10000, n);
            }
        }
    }

    @Test
    void rowsStreamFromTheQueryAndStopWhenNoLongerWanted() throws SQLException {
        try (Statement s = conn.createStatement()) {
            try (ResultSet all = s.executeQuery("select v from big order by v")) {
                assertTrue(all.isBeforeFirst());
                long sum = 0;
                int n = 0;
                while (all.next()) {
                    assertEquals(n + 1, all.getRow());
                    assertEquals(n == 0, all.isFirst());
                    assertEquals(n == ROWS - 1, all.isLast());
                    sum += all.getInt(1);
                    n++;
                }
                assertEquals(ROWS, n);
                assertEquals((long) ROWS * (ROWS - 1) / 2, sum);
                assertTrue(all.isAfterLast());
                assertFalse(all.next());
            }
            // five rows of many, then closed: the query stops, and the statement runs the next one
            ResultSet part = s.executeQuery("select k, v from big");
            for (int i = 0; i < 5; i++) {
                assertTrue(part.next());
            }
            part.close();
            try (ResultSet next = s.executeQuery("select count(*) from big where k = 0")) {
                assertTrue(next.next());
                assertEquals(ROWS / 5, next.getInt(1));
            }
            // cancelled while its rows are read: the reader gets the cancellation after the few batches already out
            ResultSet cancelled = s.executeQuery("select v from big");
            assertTrue(cancelled.next());
            s.cancel();
            int read = 1;
            SQLException stop = null;
            try {
                while (cancelled.next()) {
                    read++;
                }
            } catch (SQLException e) {
                stop = e;
            }
            assertTrue(stop != null, "read all " + read + " rows after cancel()");
            assertEquals("57014", stop.getSQLState());
            assertTrue(read < ROWS, read + " rows");
        }
    }

    @Test
    void cancelStopsARunningQueryAndTheStatementRunsTheNext() throws Exception {
        try (Statement s = conn.createStatement()) {
            s.executeQuery("select count(*) from pairs a join pairs b on a.k = b.k where a.v < 10").close(); // compiled
            CompletableFuture<ResultSet> running = CompletableFuture.supplyAsync(() -> {
                try {
                    return s.executeQuery(LONG);
                } catch (SQLException e) {
                    throw new java.util.concurrent.CompletionException(e);
                }
            });
            Thread.sleep(300); // the join under way
            // cancel() acts on the run in progress: called again until the join ends, in case it had not begun
            long guard = System.nanoTime() + TimeUnit.MINUTES.toNanos(LongJoin.GUARD_MINUTES);
            while (!running.isDone() && System.nanoTime() < guard) {
                s.cancel();
                Thread.sleep(50);
            }
            ExecutionException e = assertThrows(ExecutionException.class,
                    () -> running.get(LongJoin.GUARD_MINUTES, TimeUnit.MINUTES),
                    "the join ran to its end (or on past the guard) after cancel()");
            SQLException cause = assertInstanceOf(SQLException.class, e.getCause());
            assertEquals("57014", cause.getSQLState());
            assertEquals("query cancelled", cause.getMessage());
            try (ResultSet rs = s.executeQuery("select count(*) from big")) {
                assertTrue(rs.next());
                assertEquals(ROWS, rs.getInt(1));
            }
        }
    }

    @Test
    void theQueryTimeoutStopsALongQuery() throws Exception {
        try (Statement s = conn.createStatement()) {
            s.setQueryTimeout(1);
            CompletableFuture<ResultSet> running = CompletableFuture.supplyAsync(() -> {
                try {
                    return s.executeQuery(LONG);
                } catch (SQLException e) {
                    throw new java.util.concurrent.CompletionException(e);
                }
            });
            ExecutionException e = assertThrows(ExecutionException.class,
                    () -> running.get(LongJoin.GUARD_MINUTES, TimeUnit.MINUTES),
                    "the join ran to its end (or on past the guard) under a 1 s query timeout");
            SQLTimeoutException timeout = assertInstanceOf(SQLTimeoutException.class, e.getCause());
            assertEquals("57014", timeout.getSQLState());
            assertTrue(timeout.getMessage().contains("timed out after 1 s"), timeout.getMessage());
            s.setQueryTimeout(600); // the next query runs under a timeout it is nowhere near
            try (ResultSet rs = s.executeQuery("select count(*) from big")) {
                assertTrue(rs.next());
                assertEquals(ROWS, rs.getInt(1));
            }
        }
    }

    @Test
    void aDataChangeWithReturningGivesItsRows() throws SQLException {
        try (Statement s = conn.createStatement()) {
            s.executeUpdate("create table returned (a integer, b varchar)");
            try (ResultSet rs = s.executeQuery("insert into returned values (1, 'x'), (2, 'y') returning a * 10, b")) {
                List<String> rows = new ArrayList<>();
                while (rs.next()) {
                    rows.add(rs.getInt(1) + ":" + rs.getString(2));
                }
                rows.sort(null);
                assertEquals(List.of("10:x", "20:y"), rows);
            }
            assertTrue(s.execute("delete from returned where a = 1 returning b"));
            try (ResultSet rs = s.getResultSet()) {
                assertTrue(rs.next());
                assertEquals("x", rs.getString("b"));
                assertFalse(rs.next());
            }
            // executeUpdate refuses a statement that returns rows before it runs: nothing is updated
            assertThrows(SQLException.class, () -> s.executeUpdate("update returned set b = 'z' returning a"));
            try (ResultSet rs = s.executeQuery("select b from returned")) {
                assertTrue(rs.next());
                assertEquals("y", rs.getString(1));
            }
        }
        // a read-only connection refuses a data change whose result is rows, as any other
        try (Connection ro = DriverManager.getConnection("jdbc:tessera:" + dir.resolve("db"));
             Statement s = ro.createStatement()) {
            ro.setReadOnly(true);
            SQLException e = assertThrows(SQLException.class,
                    () -> s.executeQuery("insert into returned values (3, 'w') returning a"));
            assertEquals("25006", e.getSQLState());
        }
        try (Statement s = conn.createStatement(); ResultSet rs = s.executeQuery("select count(*) from returned")) {
            assertTrue(rs.next());
            assertEquals(1, rs.getLong(1));
        }
    }

    @Test
    void aReadOnlyConnectionRunsQueriesOnly() throws SQLException {
        try (Connection ro = DriverManager.getConnection("jdbc:tessera:" + dir.resolve("db"));
             Statement s = ro.createStatement()) {
            ro.setReadOnly(true);
            assertTrue(ro.getMetaData().isReadOnly());
            SQLException e = assertThrows(SQLException.class, () -> s.executeUpdate("create table nope (a integer)"));
            assertEquals("25006", e.getSQLState());
            try (ResultSet rs = s.executeQuery("select count(*) from big")) {
                assertTrue(rs.next());
            }
        }
        try (Statement s = conn.createStatement(); ResultSet rs = conn.getMetaData().getTables(null, null, "nope", null)) {
            assertFalse(rs.next());
        }
    }

    @Test
    void batchesRunEachStatement() throws SQLException {
        try (Statement s = conn.createStatement()) {
            s.executeUpdate("create table batched (a integer)");
            s.addBatch("insert into batched values (1), (2)");
            s.addBatch("insert into batched values (3)");
            s.addBatch("delete from batched where a = 1");
            assertEquals(List.of(2, 1, 1), java.util.Arrays.stream(s.executeBatch()).boxed().toList());
            try (PreparedStatement p = conn.prepareStatement("insert into batched values (?)")) {
                for (int i = 10; i < 13; i++) {
                    p.setInt(1, i);
                    p.addBatch();
                }
                assertEquals(List.of(1, 1, 1), java.util.Arrays.stream(p.executeBatch()).boxed().toList());
            }
            try (ResultSet rs = s.executeQuery("select sum(a) from batched")) {
                assertTrue(rs.next());
                assertEquals(2 + 3 + 10 + 11 + 12, rs.getLong(1));
            }
        }
    }
}

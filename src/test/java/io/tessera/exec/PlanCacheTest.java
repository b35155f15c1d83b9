package io.tessera.exec;

import io.tessera.Tessera;
import io.tessera.api.QueryResult;
import io.tessera.bench.Queries;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

/**
 * A statement run again reuses its kept plan ({@link PlanCache}) only where nothing outside the plan's key could
 * change its answer: the rows of a kept plan are the rows of a fresh one, a write, a session setting or a temporary
 * macro is seen at once, and the clock, random values, sequences and series are planned anew each time.
 */
class PlanCacheTest {

    @TempDir
    Path dir;

    private static List<List<Object>> rows(QueryResult r) {
        List<List<Object>> out = new ArrayList<>();
        for (Object[] row : r.rows()) {
            out.add(Arrays.asList(row));
        }
        return out;
    }

    /** The rows of {@code sql}, and how many of its runs reused a kept plan ({@code reuses} more than before). */
    private static List<List<Object>> run(Tessera t, String sql, int reuses) {
        long before = t.engine().plansReused();
        List<List<Object>> rows = rows(t.query(sql));
        assertEquals(before + reuses, t.engine().plansReused(), sql);
        return rows;
    }

    @Test
    void everyTpchQueryGivesTheSameRowsThroughItsKeptPlan() {
        try (io.tessera.storage.Database db = io.tessera.storage.Database.openOrCreate(dir)) {
            new io.tessera.data.tpch.TpchGenerator(0.01).generate(db, io.tessera.data.Progress.silent());
        }
        try (Tessera t = Tessera.open(dir)) {
            for (Queries.Query q : Queries.tpch()) {
                List<List<Object>> first = run(t, q.sql(), 0);
                assertEquals(first, run(t, q.sql(), 1), q.name());
                assertEquals(first, run(t, q.sql(), 1), q.name());
            }
        }
    }

    @Test
    void aWriteIsReadByTheNextRun() {
        try (Tessera t = Tessera.openOrCreate(dir)) {
            t.query("create table t (a integer, b varchar)");
            t.query("insert into t values (1, 'x')");
            String count = "select count(*), max(a) from t";
            assertEquals(List.of(List.of(1L, 1)), run(t, count, 0));
            assertEquals(List.of(List.of(1L, 1)), run(t, count, 1));
            String cast = "select cast(sum(a) as varchar) from t"; // CAST's stand-in keeps folding away, no more
            assertEquals(List.of(List.of("1")), run(t, cast, 0));
            assertEquals(List.of(List.of("1")), run(t, cast, 1));
            t.query("insert into t values (5, 'y')");
            assertEquals(List.of(List.of(2L, 5)), run(t, count, 0));
            t.query("create view v as select a * 10 as c from t");
            String view = "select sum(c) from v";
            assertEquals(List.of(List.of(60L)), run(t, view, 0));
            t.query("create or replace view v as select a as c from t");
            assertEquals(List.of(List.of(6L)), run(t, view, 0));
            assertEquals(List.of(List.of(6L)), run(t, view, 1));
        }
    }

    @Test
    void anotherConnectionsWriteIsReadAfterItsRefresh() {
        try (Tessera writer = Tessera.openOrCreate(dir)) {
            writer.query("create table t (a integer)");
            writer.query("insert into t values (1)");
            try (Tessera reader = Tessera.open(dir)) {
                String sum = "select sum(a) from t";
                assertEquals(List.of(List.of(1L)), run(reader, sum, 0));
                writer.query("insert into t values (2)");
                assertEquals(List.of(List.of(1L)), run(reader, sum, 1)); // its snapshot, until it refreshes
                reader.database().refresh();
                assertEquals(List.of(List.of(3L)), run(reader, sum, 0));
            }
        }
    }

    @Test
    void theSessionsSettingsVariablesAndMacrosAreReadEachRun() {
        try (Tessera t = Tessera.openOrCreate(dir)) {
            t.query("set variable x = 1");
            String variable = "select getvariable('x') + 1";
            assertEquals(List.of(List.of(2)), run(t, variable, 0));
            t.query("set variable x = 41");
            assertEquals(List.of(List.of(42)), run(t, variable, 0));
            t.query("create temp macro m(a) as a + 1");
            String macro = "select m(1)";
            assertEquals(List.of(List.of(2)), run(t, macro, 0));
            assertEquals(List.of(List.of(2)), run(t, macro, 1));
            t.query("create or replace temp macro m(a) as a + 2");
            assertEquals(List.of(List.of(3)), run(t, macro, 0));
            String zone = "select current_setting('TimeZone')";
            assertEquals(List.of(List.of("UTC")), run(t, zone, 0));
            t.query("set TimeZone = 'America/New_York'");
            assertEquals(List.of(List.of("America/New_York")), run(t, zone, 0));
        }
    }

    @Test
    void theClockRandomValuesSequencesAndSeriesArePlannedEachRun() {
        try (Tessera t = Tessera.openOrCreate(dir)) {
            t.query("create table t (a integer)");
            t.query("insert into t values (1), (2)");
            t.query("create sequence s");
            for (String sql : List.of("select cast(current_date as varchar) from t",
                    "select now() is not null from t", "select random() < 2 from t", "select uuid() is not null",
                    "select nextval('s') from t", "select count(*) from range(3)",
                    "select count(*) from t, generate_series(1, 5)")) {
                List<List<Object>> first = run(t, sql, 0);
                if (!sql.contains("nextval")) {
                    assertEquals(first, run(t, sql, 0), sql);
                } else {
                    assertNotEquals(first, run(t, sql, 0), sql);
                }
            }
        }
    }

    @Test
    void runsOfOneTextOnTwoThreadsEachGetTheirOwnPlan() throws Exception {
        try (Tessera t = Tessera.openOrCreate(dir)) {
            t.query("create table t (a integer, b integer)");
            t.query("insert into t select i, i % 7 from range(20000) r(i)");
            String sql = "select b, count(*), sum(a) from t group by b order by b";
            List<List<Object>> expected = rows(t.query(sql));
            ExecutorService pool = Executors.newFixedThreadPool(2);
            try {
                List<Future<Boolean>> runs = new ArrayList<>();
                for (int i = 0; i < 40; i++) {
                    runs.add(pool.submit(() -> expected.equals(rows(t.query(sql)))));
                }
                for (Future<Boolean> f : runs) {
                    assertEquals(true, f.get());
                }
            } finally {
                pool.shutdown();
            }
        }
    }
}

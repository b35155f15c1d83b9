package io.tessera.cli;

import io.tessera.api.QueryResult;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** What {@code --timing} and {@code \timing} print after a result: the totals, then the run's steps, one a line. */
class TimingLineTest {

    @Test
    void theTotalsComeFirstThenEachStep() {
        QueryResult.Execution x = new QueryResult.Execution("cpu", null, 0, 0, 0, 0, 0, 2, 0, 0, List.of(
                "pipeline 0 end, BUILD j0 (perfect, atomic): 1500000 rows, 12.500 ms",
                "pipeline 0 on jvm, 40.000 ms"));
        QueryResult r = new QueryResult(List.of(), List.of(), 2_500_000, 1_250_000, x);
        assertEquals("Time: compile 2.500 ms, run 1.250 ms, total 3.750 ms\n"
                + "  pipeline 0 end, BUILD j0 (perfect, atomic): 1500000 rows, 12.500 ms\n"
                + "  pipeline 0 on jvm, 40.000 ms", SqlSession.timingLine(r));
        assertEquals("Time: compile 2.500 ms, run 1.250 ms, total 3.750 ms",
                SqlSession.timingLine(new QueryResult(List.of(), List.of(), 2_500_000, 1_250_000)));
    }

    @Test
    void timingAsksTheRunnerToTimeKernelsAndOnlyThen() {
        List<Boolean> asked = new java.util.ArrayList<>();
        StatementRunner runner = new StatementRunner() {
            @Override
            public QueryResult run(String sql) {
                return new QueryResult(List.of(), List.of(), 0, 0);
            }

            @Override
            public void timeKernels(boolean on) {
                asked.add(on);
            }
        };
        java.io.PrintWriter out = new java.io.PrintWriter(new java.io.StringWriter());
        SqlSession off = new SqlSession(runner, null, io.tessera.cli.format.OutputFormat.TABLE, false, out, out, false);
        SqlSession on = new SqlSession(runner, null, io.tessera.cli.format.OutputFormat.TABLE, true, out, out, false);
        on.timing(false);
        off.timing(true);
        assertEquals(List.of(false, true, false, true), asked);
    }

    @Test
    void aStatementThatCompilesNoQueryShowsOnlyItsTotal() {
        QueryResult ddl = new QueryResult(List.of(), List.of(), 0, 0);
        assertEquals("Time: total 4.250 ms", SqlSession.timingLine(ddl, 4_250_000));
        QueryResult query = new QueryResult(List.of(), List.of(), 2_500_000, 1_250_000);
        assertEquals("Time: compile 2.500 ms, run 1.250 ms, total 3.750 ms", SqlSession.timingLine(query, 9_000_000));
    }
}

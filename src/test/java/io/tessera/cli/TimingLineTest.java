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
    void aStatementThatCompilesNoQueryShowsOnlyItsTotal() {
        QueryResult ddl = new QueryResult(List.of(), List.of(), 0, 0);
        assertEquals("Time: total 4.250 ms", SqlSession.timingLine(ddl, 4_250_000));
        QueryResult query = new QueryResult(List.of(), List.of(), 2_500_000, 1_250_000);
        assertEquals("Time: compile 2.500 ms, run 1.250 ms, total 3.750 ms", SqlSession.timingLine(query, 9_000_000));
    }
}

package io.tessera.cli;

import io.tessera.api.QueryProgress;
import org.junit.jupiter.api.Test;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The shell's progress line: silent for a short query, then the pipeline and its rows, cleared at the end. */
class QueryProgressLineTest {

    private static final long SECOND = 1_000_000_000L;

    @Test
    void silentFirstThenPipelineAndRowsThenCleared() {
        AtomicLong now = new AtomicLong(0);
        StringWriter screen = new StringWriter();
        QueryProgress progress = new QueryProgress();
        QueryProgressLine line = new QueryProgressLine(new PrintWriter(screen), progress, now::get);
        line.tick(SECOND);
        assertEquals("", screen.toString(), "nothing in the first seconds");
        now.set(2 * SECOND + SECOND / 2);
        assertEquals("query: preparing, 2.5 s", line.text(now.get()));
        progress.begin(4);
        progress.pipelineStarted(2_000_000);
        progress.advanced(500_000);
        assertEquals("query: pipeline 1 of 4, 500,000 of 2,000,000 rows (25%), 2.5 s", line.text(now.get()));
        line.tick(now.get());
        String drawn = "query: pipeline 1 of 4, 500,000 of 2,000,000 rows (25%), 2.5 s";
        assertEquals("\r" + drawn + "\r", screen.toString());
        line.finish();
        assertEquals("\r" + drawn + "\r" + "\r" + " ".repeat(drawn.length()) + "\r", screen.toString(),
                "the line is blanked, the cursor at its start, for the results");
        int length = screen.toString().length();
        line.tick(3 * SECOND);
        assertEquals(length, screen.toString().length(), "nothing drawn after the end");
    }

    @Test
    void aShorterLineCoversTheLongerOneBeforeIt() {
        AtomicLong now = new AtomicLong(3 * SECOND);
        StringWriter screen = new StringWriter();
        QueryProgress progress = new QueryProgress();
        QueryProgressLine line = new QueryProgressLine(new PrintWriter(screen), progress, () -> 0L);
        progress.begin(2);
        progress.pipelineStarted(10_000_000);
        progress.advanced(9_000_000);
        line.tick(now.get());
        int first = screen.toString().length();
        progress.pipelineStarted(0); // a pipeline over no known rows: a shorter line
        line.tick(now.get());
        String second = screen.toString().substring(first);
        assertTrue(second.startsWith("\rquery: pipeline 2 of 2, 3.0 s "), second);
        assertEquals(first, second.length(), "padded to the width of the line before");
    }
}

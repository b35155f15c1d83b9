package io.tessera.data.io;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The terminal line of an import, on a clock the test moves: quiet at first, then rows, bytes, rate, time left. */
class ProgressLineTest {

    private long now;

    @Test
    void quietForTwoSecondsThenRowsBytesRateAndTimeLeftThenCleared() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
        ProgressLine line = new ProgressLine(out, () -> now);
        line.start("lineitem", 200_000_000L);
        now = 1_000_000_000L;
        line.advanced(1_000_000, 40_000_000L);
        assertEquals("", bytes.toString(StandardCharsets.UTF_8), "nothing in the first two seconds");
        now = 4_000_000_000L;
        line.advanced(1_000_000, 40_000_000L);
        String drawn = bytes.toString(StandardCharsets.UTF_8);
        assertEquals("\rlineitem: 2,000,000 rows, 80.0 MB of 200.0 MB, 20.0 MB/s, 0:06 left", drawn);
        now = 4_100_000_000L;
        line.advanced(10, 10);
        assertEquals(drawn, bytes.toString(StandardCharsets.UTF_8), "at most five redraws a second");
        now = 9_000_000_000L;
        line.committing();
        String committing = bytes.toString(StandardCharsets.UTF_8).substring(drawn.length());
        assertTrue(committing.startsWith("\rlineitem: 2,000,010 rows, 80.0 MB of 200.0 MB, committing"), committing);
        line.finish();
        String all = bytes.toString(StandardCharsets.UTF_8);
        assertTrue(all.endsWith("\r"), "the line is cleared at the end");
    }

    @Test
    void aShortImportPrintsNothing() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        ProgressLine line = new ProgressLine(new PrintStream(bytes, true, StandardCharsets.UTF_8), () -> now);
        line.start("t", 0);
        now = 500_000_000L;
        line.advanced(10, 100);
        line.committing();
        line.finish();
        assertEquals("", bytes.toString(StandardCharsets.UTF_8));
    }
}

package io.tessera.cli;

import io.tessera.api.QueryProgress;
import io.tessera.data.TerminalLine;

import java.io.PrintWriter;
import java.util.Locale;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * One line on a terminal, redrawn in place five times a second, that shows how far a query has come once it has run
 * for {@link #QUIET_NANOS} (a short query prints nothing): the pipeline it runs of how many, the rows of that
 * pipeline's input done of all, and the time so far. Cleared when the query's first rows are about to be printed
 * and when it ends, so results never share a line with it. Used only where the line's stream is a terminal.
 */
final class QueryProgressLine {

    /** How long a query runs before its line appears. */
    static final long QUIET_NANOS = TerminalLine.QUIET_NANOS;
    private static final long REDRAW_MILLIS = TerminalLine.REDRAW_NANOS / 1_000_000;

    private static final ScheduledExecutorService TICKS = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "tessera-progress");
        t.setDaemon(true);
        return t;
    });

    private final TerminalLine line;
    private final QueryProgress progress;
    private final LongSupplier clock;
    private final long startNanos;
    private ScheduledFuture<?> ticking;
    private boolean finished;

    /** A line for {@code progress} on {@code out}; {@code clock} in nanoseconds, as {@link System#nanoTime}. */
    QueryProgressLine(PrintWriter out, QueryProgress progress, LongSupplier clock) {
        this.line = TerminalLine.cursorAtStart(out);
        this.progress = progress;
        this.clock = clock;
        this.startNanos = clock.getAsLong();
    }

    /** A line that redraws itself until {@link #finish()}. */
    static QueryProgressLine started(PrintWriter out, QueryProgress progress) {
        QueryProgressLine shown = new QueryProgressLine(out, progress, System::nanoTime);
        shown.ticking = TICKS.scheduleAtFixedRate(() -> shown.tick(System.nanoTime()), REDRAW_MILLIS, REDRAW_MILLIS,
                TimeUnit.MILLISECONDS);
        return shown;
    }

    /** Draws the line when the query has run long enough. */
    synchronized void tick(long now) {
        if (finished || now - startNanos < QUIET_NANOS) {
            return;
        }
        line.draw(text(now));
    }

    /** Stops redrawing and clears the line. */
    synchronized void finish() {
        if (ticking != null) {
            ticking.cancel(false);
        }
        finished = true;
        line.clear();
    }

    /** The line as drawn at {@code now}. */
    String text(long now) {
        QueryProgress.Snapshot s = progress.snapshot();
        StringBuilder sb = new StringBuilder("query: ");
        if (s.pipeline() == 0) {
            sb.append("preparing");
        } else {
            sb.append("pipeline ").append(s.pipeline()).append(" of ").append(s.pipelines());
            if (s.rowsTotal() > 0) {
                sb.append(String.format(Locale.ROOT, ", %,d of %,d rows (%d%%)", s.rowsDone(), s.rowsTotal(),
                        s.rowsDone() * 100 / s.rowsTotal()));
            }
        }
        return sb.append(String.format(Locale.ROOT, ", %.1f s", (now - startNanos) / 1e9)).toString();
    }
}

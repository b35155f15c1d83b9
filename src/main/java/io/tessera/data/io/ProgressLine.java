package io.tessera.data.io;

import io.tessera.data.TerminalLine;

import java.io.PrintStream;
import java.util.Locale;
import java.util.function.LongSupplier;

/**
 * One line on a terminal, redrawn in place at most five times a second, that shows an import's progress once it has
 * run for {@link #QUIET_NANOS} (a short import prints nothing): the table, rows and bytes so far, the rate, and the
 * time left at that rate where the total is known; while committing, that it commits. Cleared when the import ends.
 */
public final class ProgressLine implements ImportProgress {

    /** How long an import runs before its line appears. */
    static final long QUIET_NANOS = TerminalLine.QUIET_NANOS;
    private static final long REDRAW_NANOS = TerminalLine.REDRAW_NANOS;

    private final TerminalLine line;
    private final LongSupplier clock;
    private String table = "";
    private long totalBytes;
    private long rows;
    private long bytes;
    private long startNanos;
    private long lastDraw;
    private boolean committing;

    /** {@code out}: a terminal; {@code clock}: nanoseconds, as {@link System#nanoTime}. */
    public ProgressLine(PrintStream out, LongSupplier clock) {
        this.line = TerminalLine.on(out);
        this.clock = clock;
    }

    @Override
    public synchronized void start(String name, long total) {
        table = name;
        totalBytes = total;
        startNanos = clock.getAsLong();
        lastDraw = startNanos;
    }

    @Override
    public synchronized void advanced(long moreRows, long moreBytes) {
        rows += moreRows;
        bytes += moreBytes;
        long now = clock.getAsLong();
        if (now - startNanos >= QUIET_NANOS && now - lastDraw >= REDRAW_NANOS) {
            draw(now);
        }
    }

    @Override
    public synchronized void committing() {
        committing = true;
        long now = clock.getAsLong();
        if (now - startNanos >= QUIET_NANOS) {
            draw(now);
        }
    }

    @Override
    public synchronized void finish() {
        line.clear();
    }

    /** The line as it is drawn at {@code now}. */
    synchronized String text(long now) {
        double seconds = Math.max(1e-3, (now - startNanos) / 1e9);
        StringBuilder sb = new StringBuilder(table).append(": ")
                .append(String.format(Locale.ROOT, "%,d rows, %s", rows, mb(bytes)));
        if (totalBytes > 0) {
            sb.append(" of ").append(mb(totalBytes));
        }
        if (committing) {
            return sb.append(", committing").toString();
        }
        double rate = bytes / seconds;
        sb.append(String.format(Locale.ROOT, ", %.1f MB/s", rate / 1e6));
        if (totalBytes > bytes && rate > 0) {
            sb.append(", ").append(clockText((totalBytes - bytes) / rate)).append(" left");
        }
        return sb.toString();
    }

    private void draw(long now) {
        lastDraw = now;
        line.draw(text(now));
    }

    private static String mb(long b) {
        return String.format(Locale.ROOT, "%.1f MB", b / 1e6);
    }

    static String clockText(double seconds) {
        return TerminalLine.clock(seconds);
    }
}

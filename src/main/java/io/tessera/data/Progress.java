package io.tessera.data;

import java.io.PrintStream;
import java.util.Locale;
import java.util.function.LongSupplier;

/**
 * Reports the progress of a generator. Rows are counted as chunks take their place in a table (on the generating
 * thread); a table is reported when it is committed (on the thread that committed it).
 */
public interface Progress {

    /** Generation starts; {@code expectedRows} over all tables, an estimate. */
    void start(long expectedRows);

    /** The first rows of {@code table} take their place. */
    void table(String table);

    /** {@code rows} more rows took their place in the current table. */
    void made(long rows);

    /** {@code table} is committed with {@code rows} rows, {@code nanos} after generation started. */
    void committed(String table, long rows, long nanos);

    /** Generation ended (completed or failed). */
    void finish();

    static Progress silent() {
        return new Progress() {
            @Override
            public void start(long expectedRows) {
            }

            @Override
            public void table(String table) {
            }

            @Override
            public void made(long rows) {
            }

            @Override
            public void committed(String table, long rows, long nanos) {
            }

            @Override
            public void finish() {
            }
        };
    }

    /**
     * A line per committed table on {@code out}; with {@code live} (a terminal) also one line there, redrawn at most
     * five times a second: the table being made, rows so far of those expected, rows a second, and the time left at
     * that rate.
     */
    static Progress report(PrintStream out, PrintStream live) {
        return new Report(out, live, System::nanoTime);
    }

    /** Lines on {@code out} and the redrawn line on {@code live} (null: none). */
    final class Report implements Progress {
        private static final long REDRAW_NANOS = TerminalLine.REDRAW_NANOS;
        private static final double SETTLE_SECONDS = 3;
        private final PrintStream out;
        private final TerminalLine live;
        private final LongSupplier clock;
        private long expected;
        private long made;
        private long startNanos;
        private long lastDraw;
        private String table = "";

        /** {@code clock}: nanoseconds, as {@link System#nanoTime}. */
        Report(PrintStream out, PrintStream live, LongSupplier clock) {
            this.out = out;
            this.live = live == null ? null : TerminalLine.on(live);
            this.clock = clock;
        }

        @Override
        public synchronized void start(long expectedRows) {
            expected = expectedRows;
            startNanos = clock.getAsLong();
        }

        @Override
        public synchronized void table(String name) {
            table = name;
            draw(clock.getAsLong());
        }

        @Override
        public synchronized void made(long rows) {
            made += rows;
            long now = clock.getAsLong();
            if (now - lastDraw >= REDRAW_NANOS) {
                draw(now);
            }
        }

        @Override
        public synchronized void committed(String name, long rows, long nanos) {
            clear();
            out.printf(Locale.ROOT, "%-10s %,14d rows, done at %8.2f s%n", name, rows, nanos / 1e9);
            out.flush();
            draw(clock.getAsLong());
        }

        @Override
        public synchronized void finish() {
            clear();
        }

        private void draw(long now) {
            if (live == null) {
                return;
            }
            lastDraw = now;
            double seconds = Math.max(1e-3, (now - startNanos) / 1e9);
            double rate = made / seconds;
            // the rate of the first seconds (class loading, the compiler warming up) says little about the rest
            String left = seconds < SETTLE_SECONDS || made >= expected ? ""
                    : ", " + clock((expected - made) / rate) + " left";
            String line = String.format(Locale.ROOT, "%s: %,d of ~%,d rows, %s rows/s%s", table, made, expected,
                    rate(rate), left);
            live.draw(line);
        }

        private void clear() {
            if (live != null) {
                live.clear();
            }
        }

        static String rate(double perSecond) {
            if (perSecond >= 1e6) {
                return String.format(Locale.ROOT, "%.1fM", perSecond / 1e6);
            }
            if (perSecond >= 1e3) {
                return String.format(Locale.ROOT, "%.0fK", perSecond / 1e3);
            }
            return String.format(Locale.ROOT, "%.0f", perSecond);
        }

        static String clock(double seconds) {
            return TerminalLine.clock(seconds);
        }
    }
}

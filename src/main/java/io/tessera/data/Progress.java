package io.tessera.data;

import java.io.PrintStream;
import java.util.Locale;

/**
 * Reports the progress of a generator, one table at a time. On a terminal one line is redrawn with a bar,
 * percentage and rows; elsewhere (a pipe, a log file) one plain line is printed per finished table.
 */
public interface Progress {

    /** A table starts; {@code expectedRows} may be an estimate. */
    void start(String table, long expectedRows);

    /** {@code fraction} of the table (0..1) is written, {@code rows} rows so far. */
    void update(long rows, double fraction);

    /** The table is committed with {@code rows} rows after {@code nanos}. */
    void done(long rows, long nanos);

    static Progress silent() {
        return new Progress() {
            @Override
            public void start(String table, long expectedRows) {
            }

            @Override
            public void update(long rows, double fraction) {
            }

            @Override
            public void done(long rows, long nanos) {
            }
        };
    }

    /** A redrawn bar when standard output is a terminal, else a plain line per table. */
    static Progress forStandardOutput() {
        java.io.Console c = System.console();
        boolean terminal = c != null && c.isTerminal();
        return terminal ? new Bar(System.out) : new Lines(System.out);
    }

    /** One plain line per table. */
    final class Lines implements Progress {
        private final PrintStream out;
        private String table;

        public Lines(PrintStream out) {
            this.out = out;
        }

        @Override
        public void start(String table, long expectedRows) {
            this.table = table;
        }

        @Override
        public void update(long rows, double fraction) {
        }

        @Override
        public void done(long rows, long nanos) {
            out.printf(Locale.ROOT, "%-10s %,14d rows %8.2f s%n", table, rows, nanos / 1e9);
            out.flush();
        }
    }

    /** One line redrawn with a carriage return, at most ten times a second. */
    final class Bar implements Progress {
        private static final int WIDTH = 30;
        private final PrintStream out;
        private String table;
        private long lastDraw;

        public Bar(PrintStream out) {
            this.out = out;
        }

        @Override
        public void start(String table, long expectedRows) {
            this.table = table;
            this.lastDraw = 0;
            draw(0, 0, false);
        }

        @Override
        public void update(long rows, double fraction) {
            long now = System.nanoTime();
            if (now - lastDraw >= 100_000_000L) {
                lastDraw = now;
                draw(rows, fraction, false);
            }
        }

        @Override
        public void done(long rows, long nanos) {
            draw(rows, 1.0, true);
            out.printf(Locale.ROOT, " %8.2f s%n", nanos / 1e9);
            out.flush();
        }

        private void draw(long rows, double fraction, boolean finished) {
            double f = Math.max(0, Math.min(1, fraction));
            int filled = (int) Math.round(f * WIDTH);
            StringBuilder sb = new StringBuilder(80);
            sb.append('\r').append(String.format(Locale.ROOT, "%-10s [", table));
            for (int i = 0; i < WIDTH; i++) {
                sb.append(i < filled ? '#' : ' ');
            }
            sb.append(String.format(Locale.ROOT, "] %3d%% %,14d rows", (int) Math.floor(f * 100), rows));
            out.print(sb);
            if (!finished) {
                out.flush();
            }
        }
    }
}

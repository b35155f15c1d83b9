package io.tessera.data;

import java.io.Flushable;
import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.util.Locale;

/**
 * One line of a terminal redrawn in place: each text is written over the one before (carriage return, the text, and
 * spaces over what is left of a longer previous text), and {@link #clear()} blanks it, so that other output never
 * shares a line with it. The progress lines of generation, import and queries draw through it. Not thread-safe: its
 * owners draw under their own lock.
 */
public final class TerminalLine {

    /** How long a job runs before its line appears (a short one prints nothing). */
    public static final long QUIET_NANOS = 2_000_000_000L;
    /** The least time between two redraws: five a second. */
    public static final long REDRAW_NANOS = 200_000_000L;

    private final Appendable out;
    private final Flushable flush;
    private final boolean cursorToStart;
    private int drawn; // characters of the line on screen

    private <T extends Appendable & Flushable> TerminalLine(T out, boolean cursorToStart) {
        this.out = out;
        this.flush = out;
        this.cursorToStart = cursorToStart;
    }

    /** A line on {@code out} whose cursor stays after the text. */
    public static TerminalLine on(PrintStream out) {
        return new TerminalLine(out, false);
    }

    /**
     * A line on {@code out} whose cursor goes back to the line's start after each text (where other threads may
     * write to the same terminal, their text then starts at the line's start).
     */
    public static TerminalLine cursorAtStart(PrintWriter out) {
        return new TerminalLine(out, true);
    }

    /** Draws {@code text} over what is on the line. */
    public void draw(String text) {
        StringBuilder sb = new StringBuilder("\r").append(text);
        sb.append(" ".repeat(Math.max(0, drawn - text.length())));
        if (cursorToStart) {
            sb.append('\r');
        }
        write(sb);
        drawn = text.length();
    }

    /** Blanks the line, when something is drawn on it. */
    public void clear() {
        if (drawn > 0) {
            write("\r" + " ".repeat(drawn) + "\r");
            drawn = 0;
        }
    }

    private void write(CharSequence s) {
        try {
            out.append(s);
            flush.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e); // PrintStream and PrintWriter throw none
        }
    }

    /** {@code seconds} as a clock: m:ss, or h:mm:ss from an hour on. */
    public static String clock(double seconds) {
        long s = Math.round(seconds);
        return s >= 3600 ? String.format(Locale.ROOT, "%d:%02d:%02d", s / 3600, s / 60 % 60, s % 60)
                : String.format(Locale.ROOT, "%d:%02d", s / 60, s % 60);
    }
}

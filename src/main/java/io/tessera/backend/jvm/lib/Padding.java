package io.tessera.backend.jvm.lib;

/** A formatted value widened to a C width: spaces on the left, or on the right with the {@code -} flag. */
final class Padding {

    private Padding() {
    }

    static String pad(String s, String flags, String width) {
        int w = width.isEmpty() ? 0 : Integer.parseInt(width);
        if (s.length() >= w) {
            return s;
        }
        String fill = " ".repeat(w - s.length());
        return flags.contains("-") ? s + fill : fill + s;
    }
}

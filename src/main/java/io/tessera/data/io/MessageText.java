package io.tessera.data.io;

import java.nio.charset.StandardCharsets;

/**
 * Input text made safe to print in an error message: whatever bytes a bad file holds, a message shows them as
 * plain printable characters and never sends a control sequence to the terminal. Printable characters stand as
 * they are; a backslash is doubled; control characters below U+0080 (and DEL) and bytes that are not UTF-8 are
 * shown as {@code \xNN}; any other character that is not printable (C1 controls, format characters such as
 * bidirectional overrides and the byte order mark, separators other than the space, unassigned and private-use
 * code points) as <code>&#92;uNNNN</code> (a surrogate pair above U+FFFF). A quoted value shows at most
 * {@link #MAX_QUOTED_BYTES} of its bytes.
 */
public final class MessageText {

    /** Bytes of a value shown in a message; beyond them the value is cut and its length given. */
    static final int MAX_QUOTED_BYTES = 64;

    /** Code points of an unparsed message shown at most (see {@link #valueMessage}). */
    private static final int MAX_MESSAGE_CHARS = 300;

    private static final char[] HEX = "0123456789abcdef".toCharArray();

    private MessageText() {
    }

    /**
     * {@code b[s, e)} in single quotes, escaped; a value longer than {@link #MAX_QUOTED_BYTES} is cut at a
     * character boundary and followed by {@code ... (N bytes)}.
     */
    public static String quote(byte[] b, int s, int e) {
        StringBuilder out = new StringBuilder(Math.min(e - s, MAX_QUOTED_BYTES) + 8).append('\'');
        int limit = s + MAX_QUOTED_BYTES;
        int i = s;
        while (i < e && i < limit) {
            int n = Utf8.sequenceLength(b, i, e);
            if (n < 0) {
                hexByte(out, b[i]);
                i++;
                continue;
            }
            if (i + n > limit && i > s) {
                break; // do not show half of a character
            }
            int cp = Utf8.codePoint(b, i, n);
            appendCodePoint(out, cp);
            i += n;
        }
        out.append('\'');
        if (i < e) {
            out.append("... (").append(e - s).append(" bytes)");
        }
        return out.toString();
    }

    /** A decoded string with every character that is not printable escaped, backslashes doubled. */
    static String escape(CharSequence text) {
        StringBuilder out = new StringBuilder(text.length() + 8);
        appendEscaped(out, text, Integer.MAX_VALUE);
        return out.toString();
    }

    /**
     * The message of a value parser that failed on {@code b[s, e)}: the parsers write the value in single quotes,
     * as decoded UTF-8, and that quote is replaced by {@link #quote} of the bytes, so that invalid bytes show as
     * {@code \xNN} and a long value is cut. A message that does not hold the value is escaped and cut as a whole.
     */
    static String valueMessage(String message, byte[] b, int s, int e) {
        String raw = "'" + new String(b, s, e - s, StandardCharsets.UTF_8) + "'";
        int at = message.indexOf(raw);
        if (at < 0) {
            StringBuilder out = new StringBuilder();
            if (appendEscaped(out, message, MAX_MESSAGE_CHARS) < message.length()) {
                out.append("...");
            }
            return out.toString();
        }
        return escape(message.substring(0, at)) + quote(b, s, e) + escape(message.substring(at + raw.length()));
    }

    /** Appends up to max code points of text, escaped; returns the index in text where it stopped. */
    private static int appendEscaped(StringBuilder out, CharSequence text, int max) {
        int i = 0;
        for (int count = 0; i < text.length() && count < max; count++) {
            int cp = Character.codePointAt(text, i);
            appendCodePoint(out, cp);
            i += Character.charCount(cp);
        }
        return i;
    }

    private static void appendCodePoint(StringBuilder out, int cp) {
        if (cp == '\\') {
            out.append("\\\\");
        } else if (printable(cp)) {
            out.appendCodePoint(cp);
        } else if (cp < 0x80) {
            hexByte(out, (byte) cp);
        } else {
            for (char c : Character.toChars(cp)) {
                out.append("\\u").append(HEX[c >> 12]).append(HEX[(c >> 8) & 15]).append(HEX[(c >> 4) & 15])
                        .append(HEX[c & 15]);
            }
        }
    }

    private static void hexByte(StringBuilder out, byte v) {
        out.append("\\x").append(HEX[(v >> 4) & 15]).append(HEX[v & 15]);
    }

    /**
     * Why writing {@code out} failed, in words: a missing directory named as such (a NoSuchFileException's message
     * is only the path it could not open, a temporary name beside {@code out}), else the system's reason.
     */
    public static String writeFailure(java.nio.file.Path out, java.io.IOException e) {
        java.nio.file.Path dir = out.toAbsolutePath().getParent();
        if (e instanceof java.nio.file.NoSuchFileException && dir != null && !java.nio.file.Files.isDirectory(dir)) {
            return "no such directory " + dir;
        }
        if (e instanceof java.nio.file.AccessDeniedException) {
            return "permission denied";
        }
        if (e instanceof java.nio.file.FileSystemException f && f.getReason() != null) {
            return f.getReason();
        }
        return e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName();
    }

    /** Whether a code point prints as a visible character or the space (and moves the cursor no other way). */
    static boolean printable(int cp) {
        if (cp < 0x80) {
            return cp >= 0x20 && cp < 0x7f;
        }
        return switch (Character.getType(cp)) {
            case Character.CONTROL, Character.FORMAT, Character.UNASSIGNED, Character.PRIVATE_USE,
                 Character.SURROGATE, Character.LINE_SEPARATOR, Character.PARAGRAPH_SEPARATOR,
                 Character.SPACE_SEPARATOR -> false;
            default -> true;
        };
    }
}

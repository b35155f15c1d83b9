package io.tessera.data.io;

import java.nio.file.Path;
import java.util.Locale;

/** Text formats of the importer and exporter. */
public enum ImportFormat {
    /** The reference dbgen files: fields separated by {@code |}, a trailing {@code |} on every line, no quoting. */
    TBL('|'),
    /** RFC 4180: quoted fields with doubled quotes, quoted delimiters and line breaks, CRLF or LF. */
    CSV(',');

    private final char defaultDelimiter;

    ImportFormat(char defaultDelimiter) {
        this.defaultDelimiter = defaultDelimiter;
    }

    public char defaultDelimiter() {
        return defaultDelimiter;
    }

    /** {@code .tbl} (also {@code .tbl.N} of a split dbgen run) is TBL; anything else is CSV. */
    public static ImportFormat fromFileName(Path file) {
        String name = file.getFileName() == null ? "" : file.getFileName().toString().toLowerCase(Locale.ROOT);
        return name.endsWith(".tbl") || name.matches(".*\\.tbl\\.\\d+") ? TBL : CSV;
    }

    /** Parses {@code tbl} or {@code csv}, ignoring case. */
    public static ImportFormat parse(String text) {
        return switch (text.trim().toLowerCase(Locale.ROOT)) {
            case "tbl" -> TBL;
            case "csv" -> CSV;
            default -> throw new IllegalArgumentException("unknown format '" + text + "' (use tbl, csv or parquet)");
        };
    }

    /**
     * A delimiter given on the command line: one ASCII character, or {@code \t} / {@code tab} for a tab.
     * Quotes, carriage returns and line feeds cannot be delimiters.
     */
    public static byte parseDelimiter(String text) {
        String t = text.equals("\\t") || text.equalsIgnoreCase("tab") ? "\t" : text;
        if (t.length() != 1 || t.charAt(0) > 127) {
            throw new IllegalArgumentException("the delimiter must be one ASCII character, got '" + text + "'");
        }
        char c = t.charAt(0);
        if (c == '"' || c == '\n' || c == '\r') {
            throw new IllegalArgumentException("the delimiter cannot be a quote or a line break");
        }
        return (byte) c;
    }
}

package io.tessera.data.io;

/**
 * How a message names the import's options, so that its advice can be typed as it reads: the command line's
 * {@code --header} and {@code --delimiter}, COPY's {@code HEADER} and {@code DELIMITER}, or {@code read_csv}'s.
 */
public enum OptionSpelling {
    COMMAND_LINE("--header", "--delimiter "),
    SQL("HEADER", "DELIMITER "),
    /** A file in FROM: {@code read_csv}'s options. */
    READ_CSV("read_csv(..., header = true)", "read_csv(..., delim = ");

    private final String header;
    private final String delimiter;

    OptionSpelling(String header, String delimiter) {
        this.header = header;
        this.delimiter = delimiter;
    }

    /** The option that skips a header line. */
    public String header() {
        return header;
    }

    /** The option that sets the delimiter to {@code c}, as it is typed. */
    public String delimiter(byte c) {
        String v = c == '\t' ? (this == COMMAND_LINE ? "tab" : "'\\t'") : "'" + (char) c + "'";
        return delimiter + v + (this == READ_CSV ? ")" : "");
    }
}

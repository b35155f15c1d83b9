package io.tessera.data.io;

/**
 * An input file the importer cannot load. The message names the file, and where the problem is in it the
 * 1-based physical line on which the record starts and the 1-based column with its name, for example
 * {@code orders.tbl:1234: column 5 (o_orderdate): invalid date '1996-13-01'}.
 */
public final class ImportException extends RuntimeException {

    private final String file;
    private final long line;
    private final int column;

    public ImportException(String file, long line, int column, String message) {
        super(message);
        this.file = file;
        this.line = line;
        this.column = column;
    }

    public ImportException(String file, String message, Throwable cause) {
        super(message, cause);
        this.file = file;
        this.line = 0;
        this.column = 0;
    }

    /** The file as it was named to the importer. */
    public String file() {
        return file;
    }

    /** 1-based line where the bad record starts; 0 when the problem is not in one record. */
    public long line() {
        return line;
    }

    /** 1-based column; 0 when the problem is not in one column. */
    public int column() {
        return column;
    }
}

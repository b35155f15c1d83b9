package io.tessera.cli.format;

import io.tessera.api.QueryResult;
import io.tessera.api.ResultColumn;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;

/**
 * Writes a query result as text in one output format, batch by batch as the rows are read out of the engine,
 * so a result larger than the heap would hold as Java objects still goes out whole.
 */
public interface ResultFormatter {

    /** One result being written: its rows in order, then {@link #finish()}. */
    interface Rows {
        void rows(List<Object[]> batch);

        /** Writes what closes the result (a footer, a closing bracket) and flushes. */
        void finish();
    }

    /** Starts writing a result with these columns to {@code out}. */
    Rows open(List<ResultColumn> columns, PrintWriter out);

    /** Writes the whole result (header, rows, and whatever closes it) to {@code out}. */
    default void write(QueryResult result, PrintWriter out) {
        Rows w = open(result.columns(), out);
        if (result.rowCount() > 0) {
            w.rows(result.rows());
        }
        w.finish();
    }

    /** The text {@link #write} produces. */
    default String format(QueryResult result) {
        StringWriter s = new StringWriter();
        try (PrintWriter w = new PrintWriter(s)) {
            write(result, w);
        }
        return s.toString();
    }
}

package io.tessera.cli.format;

import io.tessera.api.QueryResult;

import java.io.PrintWriter;
import java.io.StringWriter;

/** Writes a query result as text in one output format. */
public interface ResultFormatter {

    /** Writes the whole result (header, rows, and whatever closes it) to {@code out}. */
    void write(QueryResult result, PrintWriter out);

    /** The text {@link #write} produces. */
    default String format(QueryResult result) {
        StringWriter s = new StringWriter();
        try (PrintWriter w = new PrintWriter(s)) {
            write(result, w);
        }
        return s.toString();
    }
}

package io.tessera.api;

import java.util.List;

/**
 * Takes a query's result as it is read out, batch by batch, instead of as one list of every row: for results
 * larger than the heap would hold as Java objects (a command line writing them out, a JDBC result set).
 * {@link #start} comes once, then {@link #rows} for each batch in order (none for an empty result). The values
 * are those of {@link QueryResult}. A sink that throws stops the query with that exception.
 */
public interface RowSink {

    /** The result's columns, before any rows. */
    void start(List<ResultColumn> columns);

    /** The next rows, in order; the list and its arrays are the sink's to keep or drop. */
    void rows(List<Object[]> batch);
}

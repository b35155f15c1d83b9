package io.tessera.jdbc;

import io.tessera.api.ResultColumn;
import io.tessera.api.RowSink;

import java.util.ArrayList;
import java.util.List;

/**
 * Keeps a statement's rows as they are read out, at most {@code maxRows} of them (0: all): reaching the limit stops
 * the statement with {@link Full}, so the rest is never turned into Java values.
 */
final class RowCollector implements RowSink {

    /** The limit was reached: the rows kept are the result. */
    static final class Full extends RuntimeException {
        Full() {
            super("the result set's maximum row count was reached", null, false, false);
        }
    }

    private final long maxRows;
    private List<ResultColumn> columns = List.of();
    private final List<Object[]> rows = new ArrayList<>();

    RowCollector(long maxRows) {
        this.maxRows = maxRows;
    }

    @Override
    public void start(List<ResultColumn> columns) {
        this.columns = List.copyOf(columns);
    }

    @Override
    public void rows(List<Object[]> batch) {
        for (Object[] row : batch) {
            if (maxRows > 0 && rows.size() >= maxRows) {
                throw new Full();
            }
            rows.add(row);
        }
    }

    List<ResultColumn> columns() {
        return columns;
    }

    List<Object[]> rows() {
        return rows;
    }

    /** A data change's row count (its one row, {@code count}); 0 for a statement without rows (CREATE, DROP). */
    long updateCount() {
        if (rows.isEmpty() || columns.size() != 1 || !(rows.getFirst()[0] instanceof Long n)) {
            return 0;
        }
        return n;
    }
}

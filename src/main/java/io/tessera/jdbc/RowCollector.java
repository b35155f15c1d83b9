package io.tessera.jdbc;

import io.tessera.api.ResultColumn;
import io.tessera.api.RowSink;

import java.util.ArrayList;
import java.util.List;

/** Keeps the few rows of a statement that changes the database (its count) or of a metadata query. */
final class RowCollector implements RowSink {

    private List<ResultColumn> columns = List.of();
    private final List<Object[]> rows = new ArrayList<>();

    @Override
    public void start(List<ResultColumn> columns) {
        this.columns = List.copyOf(columns);
    }

    @Override
    public void rows(List<Object[]> batch) {
        rows.addAll(batch);
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

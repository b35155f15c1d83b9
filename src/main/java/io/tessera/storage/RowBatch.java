package io.tessera.storage;

import java.util.List;

/** One builder per column of a schema, filled row by row; all columns end with the same row count. */
public final class RowBatch {

    private final TableSchema schema;
    private final ColumnBuilder[] columns;

    public RowBatch(TableSchema schema, int initialCapacity) {
        this.schema = schema;
        List<ColumnSchema> cs = schema.columns();
        this.columns = new ColumnBuilder[cs.size()];
        for (int i = 0; i < columns.length; i++) {
            columns[i] = new ColumnBuilder(cs.get(i).type(), initialCapacity);
        }
    }

    public TableSchema schema() {
        return schema;
    }

    public ColumnBuilder column(int i) {
        return columns[i];
    }

    public ColumnBuilder column(String name) {
        int i = schema.indexOf(name);
        if (i < 0) {
            throw new IllegalArgumentException("table " + schema.name() + " has no column " + name);
        }
        return columns[i];
    }

    public int columnCount() {
        return columns.length;
    }

    /** Number of rows; every column must have it. */
    public int rowCount() {
        int n = columns[0].size();
        for (int i = 1; i < columns.length; i++) {
            if (columns[i].size() != n) {
                throw new IllegalStateException("column " + schema.columns().get(i).name() + " has "
                        + columns[i].size() + " rows, column " + schema.columns().get(0).name() + " has " + n);
            }
        }
        return n;
    }

    /** Cuts every column back to {@code rows} rows (undoing a partly appended row). */
    public void truncate(int rows) {
        for (ColumnBuilder c : columns) {
            c.truncate(rows);
        }
    }

    public void clear() {
        for (ColumnBuilder c : columns) {
            c.clear();
        }
    }
}

package io.tessera.storage;

import java.util.List;

/** A stored table: its schema, row count and columns, as of the manifest it was opened from. */
public final class Table {

    private final TableSchema schema;
    private final long rowCount;
    private final int generation;
    private final List<Column> columns;

    Table(TableSchema schema, long rowCount, int generation, List<Column> columns) {
        this.schema = schema;
        this.rowCount = rowCount;
        this.generation = generation;
        this.columns = List.copyOf(columns);
    }

    public String name() {
        return schema.name();
    }

    public TableSchema schema() {
        return schema;
    }

    public long rowCount() {
        return rowCount;
    }

    /** Bumped by every committed write; part of the file names. */
    public int generation() {
        return generation;
    }

    public List<Column> columns() {
        return columns;
    }

    public Column column(int i) {
        return columns.get(i);
    }

    public Column column(String name) {
        int i = schema.indexOf(name);
        if (i < 0) {
            throw new IllegalArgumentException("table " + name() + " has no column " + name);
        }
        return columns.get(i);
    }

    /** Bytes of all column files (values, validity, dictionaries). */
    public long sizeBytes() {
        long total = 0;
        for (Column c : columns) {
            total += c.dataFile().bytes();
            if (c.validityFile() != null) {
                total += c.validityFile().bytes();
            }
            if (c.dictionaryFile() != null) {
                total += c.dictionaryFile().bytes();
            }
        }
        return total;
    }

    @Override
    public String toString() {
        return schema.name() + " [" + rowCount + " rows]";
    }
}

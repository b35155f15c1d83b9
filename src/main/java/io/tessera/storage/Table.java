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

    /**
     * Rows {@code [fromRow, toRow)} of this table as a table of the same name, schema and generation, whose columns
     * share this table's mapped files: a query over it reads only those rows. {@code fromRow} is a multiple of
     * {@link #SLICE_ALIGNMENT}, and so is {@code toRow} unless it is the row count, so that each slice starts on a word
     * of the validity bitmaps and slices of one table never share a word.
     */
    public Table slice(long fromRow, long toRow) {
        if (fromRow < 0 || toRow < fromRow || toRow > rowCount) {
            throw new IllegalArgumentException("rows " + fromRow + ".." + toRow + " are not within table " + name()
                    + " (" + rowCount + " rows)");
        }
        if (fromRow % SLICE_ALIGNMENT != 0 || toRow % SLICE_ALIGNMENT != 0 && toRow != rowCount) {
            throw new IllegalArgumentException("a slice of table " + name() + " starts and ends on a multiple of "
                    + SLICE_ALIGNMENT + " rows (or at its end), not " + fromRow + ".." + toRow);
        }
        List<Column> sliced = new java.util.ArrayList<>(columns.size());
        for (Column c : columns) {
            sliced.add(c.slice(fromRow, toRow));
        }
        return new Table(schema, toRow - fromRow, generation, sliced);
    }

    /** Where slices of a table may start: a word of 64 validity bits. */
    public static final long SLICE_ALIGNMENT = 64;

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

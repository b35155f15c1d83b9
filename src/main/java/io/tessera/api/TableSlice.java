package io.tessera.api;

/**
 * Rows {@code [fromRow, toRow)} of one table, as of one committed write of it ({@code generation}, -1: whichever is
 * current): a query run over a slice reads only those rows of that table wherever it names it, so that a table can be
 * read in parts (one per task of a cluster job) whose union is the whole. {@code fromRow} is a multiple of 64, and so
 * is {@code toRow} unless it is the table's row count.
 */
public record TableSlice(String table, long fromRow, long toRow, int generation) {

    public TableSlice {
        if (table == null) {
            throw new IllegalArgumentException("a table slice names its table");
        }
        if (fromRow < 0 || toRow < fromRow) {
            throw new IllegalArgumentException("invalid rows " + fromRow + ".." + toRow + " of table " + table);
        }
    }
}

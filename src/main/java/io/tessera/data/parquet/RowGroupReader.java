package io.tessera.data.parquet;

import io.tessera.data.io.InvalidUtf8;
import io.tessera.storage.ColumnBuilder;
import io.tessera.storage.ColumnSchema;
import io.tessera.storage.RowBatch;
import io.tessera.storage.TableSchema;
import org.apache.parquet.column.impl.ColumnReaderImpl;
import org.apache.parquet.format.RowGroup;

import java.io.IOException;
import java.util.List;

/**
 * Reads one row group of a Parquet file into a row batch of the table's schema, column by column: each column
 * chunk's pages go through parquet-java's column reader into the converter for the table column's type.
 */
final class RowGroupReader {

    /** A row group that could not be read: the 0-based row in the file and table column where known (else -1). */
    static final class Failure extends Exception {
        final long row;
        final int column;

        Failure(long row, int column, String message, Throwable cause) {
            super(message, cause);
            this.row = row;
            this.column = column;
        }
    }

    private RowGroupReader() {
    }

    /**
     * @param sources    for each table column, the file column that fills it
     * @param firstRow   the group's first row in the file (0-based), for messages
     */
    static RowBatch read(ParquetFile file, int group, long firstRow, TableSchema schema, List<SourceColumn> sources,
                         InvalidUtf8 invalidUtf8) throws Failure {
        return read(file, group, firstRow, schema, sources, invalidUtf8, true, null);
    }

    /**
     * @param direct whether {@link DirectDecoder} reads the chunks it handles (tests compare it with the other way)
     * @param reuse  an empty batch of {@code schema} to fill (an earlier group's, written already), or null for a
     *               new one
     */
    static RowBatch read(ParquetFile file, int group, long firstRow, TableSchema schema, List<SourceColumn> sources,
                         InvalidUtf8 invalidUtf8, boolean direct, RowBatch reuse) throws Failure {
        RowGroup rg = file.footer().getRow_groups().get(group);
        if (rg.getNum_rows() > Integer.MAX_VALUE - 16) {
            throw new Failure(firstRow, -1, "a row group of " + rg.getNum_rows() + " rows is too large", null);
        }
        int rows = (int) rg.getNum_rows();
        // room for the rows up front, up to a bound: a broken row count grows the builders only as values come
        RowBatch batch = reuse != null ? reuse : new RowBatch(schema, Math.min(rows, 1 << 20));
        // the chunks are read and decoded one after another: each reuses the arrays the last one's pages took
        PageBuffers buffers = PageBuffers.forThisThread();
        for (int c = 0; c < sources.size(); c++) {
            buffers.reset();
            SourceColumn src = sources.get(c);
            ColumnSchema target = schema.columns().get(c);
            ColumnBuilder out = batch.column(c);
            if (src.nested()) {
                readNested(file, rg, src, target, out, rows, invalidUtf8, firstRow, c);
                continue;
            }
            ChunkPages pages;
            try {
                pages = ChunkPages.read(file, rg.getColumns().get(src.index()), buffers);
            } catch (IOException e) {
                throw new Failure(firstRow, c, e.getMessage(), e);
            } catch (RuntimeException e) { // a header that parses but makes no sense
                throw new Failure(firstRow, c, "a broken page: " + e, e);
            }
            if (src.list()) {
                try {
                    ListChunks.read(src, target, pages, out, file.writer(), rows, invalidUtf8);
                } catch (IllegalArgumentException e) {
                    throw new Failure(firstRow, c, e.getMessage(), e);
                } catch (RuntimeException e) {
                    throw new Failure(firstRow, c, "cannot decode the list: " + e.getMessage(), e);
                }
                continue;
            }
            if (pages.getTotalValueCount() != rows) {
                throw new Failure(firstRow, c, "its chunk holds " + pages.getTotalValueCount() + " values in a row"
                        + " group of " + rows + " rows", null);
            }
            if (direct && DirectDecoder.handles(src, target, pages)) {
                DirectDecoder.decode(src, target, pages, out, invalidUtf8, firstRow, c);
                continue;
            }
            int maxDefinition = src.descriptor().getMaxDefinitionLevel();
            int r = 0;
            try {
                ColumnReaderImpl reader = new ColumnReaderImpl(src.descriptor(),
                        pages, ValueConverters.create(src, target.type(), out, invalidUtf8), file.writer());
                for (; r < rows; r++) {
                    if (maxDefinition > 0 && reader.getCurrentDefinitionLevel() < maxDefinition) {
                        if (!target.nullable()) {
                            throw new IllegalArgumentException("NULL in a NOT NULL column");
                        }
                        out.appendNull();
                    } else {
                        reader.writeCurrentValueToConverter();
                    }
                    reader.consume();
                }
            } catch (IllegalArgumentException e) {
                throw new Failure(firstRow + r, c, e.getMessage(), e);
            } catch (RuntimeException e) { // ParquetDecodingException and what broken bytes make the decoders throw
                throw new Failure(firstRow + r, c, "cannot decode the value: " + e.getMessage(), e);
            }
        }
        return batch;
    }

    /** A nested column: its leaves' chunks, each read with buffers of its own, assembled into its values. */
    private static void readNested(ParquetFile file, RowGroup rg, SourceColumn src, ColumnSchema target,
                                   ColumnBuilder out, int rows, InvalidUtf8 invalidUtf8, long firstRow, int c)
            throws Failure {
        List<ChunkPages> pages = new java.util.ArrayList<>();
        try {
            for (SourceColumn f : src.leaves()) {
                pages.add(ChunkPages.read(file, rg.getColumns().get(f.index())));
            }
        } catch (IOException e) {
            throw new Failure(firstRow, c, e.getMessage(), e);
        } catch (RuntimeException e) {
            throw new Failure(firstRow, c, "a broken page: " + e, e);
        }
        try {
            NestedChunks.read(src, target, pages, out, file.writer(), rows, invalidUtf8);
        } catch (IllegalArgumentException e) {
            throw new Failure(firstRow, c, e.getMessage(), e);
        } catch (RuntimeException e) {
            throw new Failure(firstRow, c, "cannot decode the nested value: " + e.getMessage(), e);
        }
    }
}

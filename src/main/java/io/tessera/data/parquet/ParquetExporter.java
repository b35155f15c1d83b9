package io.tessera.data.parquet;

import io.tessera.data.io.ImportException;
import io.tessera.storage.Column;
import io.tessera.storage.ColumnSchema;
import io.tessera.storage.DataType;
import io.tessera.storage.Dictionary;
import io.tessera.storage.Table;
import io.tessera.storage.TypeKind;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.ColumnWriter;
import org.apache.parquet.column.ParquetProperties;
import org.apache.parquet.column.impl.ColumnWriteStoreV1;
import org.apache.parquet.format.ColumnChunk;
import org.apache.parquet.format.ColumnMetaData;
import org.apache.parquet.format.FileMetaData;
import org.apache.parquet.format.RowGroup;
import org.apache.parquet.format.SchemaElement;
import org.apache.parquet.format.Util;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.MessageType;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;

/**
 * Writes a table as a Parquet file that {@link ParquetImporter} and other readers (DuckDB among them) read back to
 * the same values, with the types of {@link ExportTypes}. parquet-java's column writers encode the values
 * (dictionary encoding where it pays, plain otherwise); pages are Snappy-compressed; the file is written under a
 * temporary name and renamed into place.
 */
public final class ParquetExporter {

    /** Rows per row group unless the caller says otherwise. */
    public static final int DEFAULT_ROW_GROUP_ROWS = 1 << 20;
    /** Row groups encoded at once: their encoded chunks are held until written (some 35 MB a group of lineitem). */
    static final int GROUPS_IN_FLIGHT = Math.min(8, Runtime.getRuntime().availableProcessors());

    private static final byte[] MAGIC = "PAR1".getBytes(StandardCharsets.US_ASCII);

    private ParquetExporter() {
    }

    /** Writes the table to {@code out} in row groups of {@link #DEFAULT_ROW_GROUP_ROWS}; returns the rows. */
    public static long export(Table table, Path out) {
        return export(table, out, DEFAULT_ROW_GROUP_ROWS);
    }

    /** Writes the table to {@code out} in row groups of at most {@code rowGroupRows} rows; returns the rows. */
    public static long export(Table table, Path out, int rowGroupRows) {
        if (rowGroupRows < 1) {
            throw new IllegalArgumentException("row groups must hold at least one row");
        }
        Path tmp = out.resolveSibling(out.getFileName() + ".tmp");
        try (OutputStream os = new BufferedOutputStream(Files.newOutputStream(tmp), 1 << 20)) {
            write(table, os, rowGroupRows);
        } catch (IOException e) {
            deleteQuietly(tmp);
            throw new ImportException(out.toString(), "cannot write " + out + ": "
                    + io.tessera.data.io.MessageText.writeFailure(out, e), e);
        } catch (RuntimeException e) {
            deleteQuietly(tmp);
            throw e;
        }
        try {
            try {
                Files.move(tmp, out, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, out, StandardCopyOption.REPLACE_EXISTING);
            }
        } catch (IOException e) {
            deleteQuietly(tmp);
            throw new ImportException(out.toString(), "cannot write " + out + ": "
                    + io.tessera.data.io.MessageText.writeFailure(out, e), e);
        }
        return table.rowCount();
    }

    /** Writes the table to {@code os} in row groups of {@link #DEFAULT_ROW_GROUP_ROWS}; the caller closes it. */
    public static void write(Table table, OutputStream os) throws IOException {
        write(table, os, DEFAULT_ROW_GROUP_ROWS);
    }

    private static void write(Table table, OutputStream os, int rowGroupRows) throws IOException {
        List<ColumnSchema> columns = table.schema().columns();
        int nc = columns.size();
        List<org.apache.parquet.schema.Type> fields = new ArrayList<>();
        List<SchemaElement> elements = new ArrayList<>();
        SchemaElement root = new SchemaElement("schema");
        root.setNum_children(nc);
        elements.add(root);
        List<List<SchemaElement>> leaves = new ArrayList<>(); // each column's leaves: a list's element, a struct's fields
        for (ColumnSchema c : columns) {
            if (c.type().isNested()) {
                fields.add(NestedExport.type(c));
                List<SchemaElement> group = NestedExport.elements(c);
                elements.addAll(group);
                leaves.add(group.stream().filter(e -> !e.isSetNum_children()).toList());
            } else {
                fields.add(ExportTypes.primitive(c));
                elements.add(ExportTypes.element(c));
                leaves.add(List.of(elements.getLast()));
            }
        }
        MessageType schema = new MessageType("schema", fields);
        Binary[][] strings = new Binary[nc][];
        for (int i = 0; i < nc; i++) {
            Column c = table.column(i);
            if (c.type().kind() == TypeKind.VARCHAR && !c.type().isNested() && c.rowCount() > 0) {
                Dictionary d = c.dictionary();
                strings[i] = new Binary[d.size()];
                for (int k = 0; k < d.size(); k++) {
                    try {
                        strings[i][k] = Binary.fromConstantByteArray(ExportTypes.bytes(d.value(k), c.type()));
                    } catch (IllegalArgumentException e) {
                        throw new IllegalArgumentException("column " + c.name() + ": " + e.getMessage(), e);
                    }
                }
            }
        }
        ParquetProperties props = ParquetProperties.builder()
                .withWriterVersion(ParquetProperties.WriterVersion.PARQUET_1_0)
                .withDictionaryEncoding(true)
                .build();
        os.write(MAGIC);
        long pos = MAGIC.length;
        List<RowGroup> groups = new ArrayList<>();
        long rows = table.rowCount();
        long groupCount = (rows + rowGroupRows - 1) / rowGroupRows;
        int window = (int) Math.max(1, Math.min(groupCount, GROUPS_IN_FLIGHT));
        List<ColumnDescriptor> descriptors = schema.getColumns();
        for (long g0 = 0; g0 < groupCount; g0 += window) {
            // the column chunks of a window of row groups encoded at once, each on its own core (one group alone
            // waits for its slowest column, a table's strings), then written in the groups' order
            long first = g0;
            int inFlight = (int) Math.min(window, groupCount - g0);
            List<List<ChunkBuffer>> chunks = IntStream.range(0, inFlight * nc).parallel()
                    .mapToObj(t -> {
                        long from = (first + t / nc) * rowGroupRows;
                        long end = Math.min(rows, from + rowGroupRows);
                        return encodeChunks(table.column(t % nc), fields.get(t % nc), from, end, strings[t % nc], props);
                    })
                    .toList();
            for (int g = 0; g < inFlight; g++) {
                long from = (first + g) * rowGroupRows;
                long end = Math.min(rows, from + rowGroupRows);
                List<ColumnChunk> chunkMeta = new ArrayList<>();
                long groupBytes = 0;
                int leaf = 0;
                for (int i = 0; i < nc; i++) {
                    List<ChunkBuffer> column = chunks.get(g * nc + i);
                    for (int k = 0; k < column.size(); k++, leaf++) {
                        ChunkBuffer chunk = column.get(k);
                        ColumnMetaData m = chunk.writeTo(os, pos, leaves.get(i).get(k).getType(),
                                List.of(descriptors.get(leaf).getPath()));
                        ColumnChunk cc = new ColumnChunk(pos);
                        cc.setMeta_data(m);
                        chunkMeta.add(cc);
                        pos += chunk.size();
                        groupBytes += m.getTotal_uncompressed_size();
                    }
                }
                groups.add(new RowGroup(chunkMeta, groupBytes, end - from));
            }
        }
        FileMetaData footer = new FileMetaData(1, elements, rows, groups);
        footer.setCreated_by("tessera");
        java.io.ByteArrayOutputStream f = new java.io.ByteArrayOutputStream();
        Util.writeFileMetaData(footer, f);
        f.writeTo(os);
        os.write(ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(f.size()).array());
        os.write(MAGIC);
    }

    /**
     * Rows {@code [from, end)} of one column as its column chunks (one per leaf: a struct's fields each have one),
     * through parquet-java's column writers.
     */
    private static List<ChunkBuffer> encodeChunks(Column c, org.apache.parquet.schema.Type type, long from, long end,
                                                  Binary[] strings, ParquetProperties props) {
        MessageType one = new MessageType("schema", type);
        List<ColumnDescriptor> leaves = one.getColumns();
        List<ChunkBuffer> chunks = new ArrayList<>();
        leaves.forEach(d -> chunks.add(new ChunkBuffer()));
        ColumnWriteStoreV1 store = new ColumnWriteStoreV1(one, d -> chunks.get(leaves.indexOf(d)), props);
        ColumnWriter w = store.getColumnWriter(leaves.get(0));
        List<ColumnWriter> writers = leaves.stream().map(store::getColumnWriter).toList();
        int maxDefinition = type.isRepetition(org.apache.parquet.schema.Type.Repetition.OPTIONAL) ? 1 : 0;
        for (long r = from; r < end; r++) {
            if (c.type().isNested()) {
                NestedExport.write(writers, c.schema(), c.isNull(r) ? null : c.dictionary().value(c.getInt(r)));
            } else {
                writeValue(w, c, r, strings, maxDefinition);
            }
            store.endRecord();
        }
        store.flush();
        store.close();
        return chunks;
    }

    private static void writeValue(ColumnWriter w, Column c, long r, Binary[] strings, int maxDefinition) {
        if (c.isNull(r)) {
            w.writeNull(0, 0);
            return;
        }
        DataType t = c.type();
        switch (t.kind()) {
            case INTEGER, DATE -> w.write(c.getInt(r), 0, maxDefinition);
            case BIGINT, TIMESTAMP, TIMESTAMP_TZ, TIME -> w.write(c.getLong(r), 0, maxDefinition);
            case DECIMAL -> {
                if (ExportTypes.decimalAsInt32(t)) {
                    w.write((int) c.getLong(r), 0, maxDefinition);
                } else {
                    w.write(c.getLong(r), 0, maxDefinition);
                }
            }
            case DOUBLE -> {
                if (t.isReal()) {
                    w.write((float) c.getDouble(r), 0, maxDefinition); // exact: a REAL holds floats
                } else {
                    w.write(c.getDouble(r), 0, maxDefinition);
                }
            }
            case BOOLEAN -> w.write(c.getBoolean(r), 0, maxDefinition);
            case VARCHAR -> w.write(strings[c.getInt(r)], 0, maxDefinition);
        }
    }

    private static void deleteQuietly(Path p) {
        try {
            Files.deleteIfExists(p);
        } catch (IOException e) {
            // nothing else to do; the temporary name is never read
        }
    }
}

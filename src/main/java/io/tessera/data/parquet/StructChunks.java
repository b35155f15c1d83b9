package io.tessera.data.parquet;

import io.tessera.data.io.InvalidUtf8;
import io.tessera.storage.ColumnBuilder;
import io.tessera.storage.ColumnSchema;
import io.tessera.storage.ListCodec;
import org.apache.parquet.VersionParser;
import org.apache.parquet.column.impl.ColumnReaderImpl;

import java.util.List;

/**
 * The chunks of a Parquet STRUCT column's fields (a group of primitive leaves, {@link SourceColumn#fields()}) read
 * into STRUCT values, row by row across the fields: a definition level below the group's own a NULL struct (every
 * field says so), below the field's a NULL field. Each struct is stored as its encoding
 * ({@link io.tessera.storage.StructCodec}), each field as its canonical text.
 */
final class StructChunks {
    private StructChunks() {
    }

    /** Appends {@code rows} structs to {@code out}; an IllegalArgumentException names what is wrong. */
    static void read(SourceColumn src, ColumnSchema target, List<ChunkPages> pages, ColumnBuilder out,
                     VersionParser.ParsedVersion writer, int rows, InvalidUtf8 invalidUtf8) {
        int n = src.fields().size();
        ColumnReaderImpl[] readers = new ColumnReaderImpl[n];
        ListChunks.Element[] values = new ListChunks.Element[n];
        int[] present = new int[n];
        for (int k = 0; k < n; k++) {
            SourceColumn f = src.fields().get(k);
            if (pages.get(k).getTotalValueCount() != rows) {
                throw new IllegalArgumentException("the chunk of field " + f.name() + " holds "
                        + pages.get(k).getTotalValueCount() + " values in a row group of " + rows + " rows");
            }
            values[k] = new ListChunks.Element(f, invalidUtf8);
            readers[k] = new ColumnReaderImpl(f.descriptor(), pages.get(k), values[k], writer);
            present[k] = f.descriptor().getMaxDefinitionLevel();
        }
        int structDefined = src.optional() ? 1 : 0;
        StringBuilder struct = new StringBuilder();
        for (int r = 0; r < rows; r++) {
            if (readers[0].getCurrentDefinitionLevel() < structDefined) {
                if (!target.nullable()) {
                    throw new IllegalArgumentException("NULL in a NOT NULL column");
                }
                out.appendNull();
                for (ColumnReaderImpl reader : readers) {
                    reader.consume();
                }
                continue;
            }
            struct.setLength(0);
            for (int k = 0; k < n; k++) {
                if (readers[k].getCurrentDefinitionLevel() < present[k]) {
                    ListCodec.append(struct, null);
                } else {
                    readers[k].writeCurrentValueToConverter();
                    ListCodec.append(struct, values[k].text);
                }
                readers[k].consume();
            }
            out.appendString(struct.toString());
        }
    }
}

package io.tessera.data.parquet;

import io.tessera.data.io.InvalidUtf8;
import io.tessera.storage.RowBatch;
import io.tessera.storage.TableSchema;
import org.apache.parquet.bytes.HeapByteBufferAllocator;
import org.apache.parquet.column.values.rle.RunLengthBitPackingHybridEncoder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The direct page decoding against parquet-java's: the same runs, the same values in every column. */
class DirectDecoderTest {

    @TempDir
    Path dir;

    @Test
    void hybridRunsDecodeWhatParquetJavaEncodes() throws Exception {
        Random random = new Random(28);
        for (int bitWidth = 0; bitWidth <= 24; bitWidth++) {
            int n = 1 + random.nextInt(5000);
            int[] values = new int[n];
            for (int i = 0; i < n; i++) {
                // runs of repeats (RLE) between stretches of noise (bit-packed)
                values[i] = bitWidth == 0 ? 0 : (i / 50) % 3 == 0 ? 1 : random.nextInt(1 << bitWidth);
            }
            RunLengthBitPackingHybridEncoder e = new RunLengthBitPackingHybridEncoder(bitWidth, 64, 1 << 20,
                    new HeapByteBufferAllocator());
            for (int v : values) {
                e.writeInt(v);
            }
            byte[] encoded = e.toBytes().toByteArray();
            int[] decoded = new int[n];
            int end = HybridRuns.decode(encoded, 0, encoded.length, bitWidth, decoded, n);
            assertArrayEquals(values, decoded, "bit width " + bitWidth);
            assertTrue(end <= encoded.length);
        }
    }

    @Test
    void directDecodingGivesTheValuesOfParquetJavasColumnReader() throws Exception {
        Path file = dir.resolve("mixed.parquet");
        try (Connection duck = DriverManager.getConnection("jdbc:duckdb:"); Statement s = duck.createStatement()) {
            s.execute("COPY (SELECT i::INTEGER AS i, CASE WHEN i % 9 = 0 THEN NULL ELSE i % 37 END::INTEGER AS small,"
                    + " CASE WHEN i % 4 = 0 THEN NULL ELSE i * 7919 END::BIGINT AS big,"
                    + " CASE WHEN i % 6 = 0 THEN NULL ELSE i / 3.0 END::DOUBLE AS x,"
                    + " CASE WHEN i % 5 = 0 THEN NULL ELSE 'k' || (i % 13) END AS tag,"
                    + " DATE '2000-01-01' + (i % 400)::INTEGER AS d,"
                    + " CASE WHEN i % 7 = 0 THEN NULL ELSE i * 1234.56 - 9000000 END::DECIMAL(15,2) AS m,"
                    + " ((i % 300) / 10 - 15)::DECIMAL(5,1) AS m5,"
                    + " CASE WHEN i % 8 = 0 THEN NULL ELSE 'note ' || (i * 7919) || repeat('é', i % 5) END AS note,"
                    + " 'row ' || i AS name"
                    + " FROM range(20000) t(i)) TO '" + file + "' (FORMAT parquet, ROW_GROUP_SIZE 4096)");
        }
        TableSchema schema = TableSchema.parse("t",
                "i INTEGER NOT NULL, small INTEGER, big BIGINT, x DOUBLE, tag VARCHAR, d DATE, m DECIMAL(15,2),"
                        + " m5 DECIMAL(5,1) NOT NULL, note VARCHAR, name VARCHAR NOT NULL");
        try (ParquetFile f = ParquetFile.open(file)) {
            List<SourceColumn> sources = new ArrayList<>(f.columns());
            int directChunks = 0;
            int plainStrings = 0; // string chunks without a dictionary: PLAIN values
            for (var g : f.footer().getRow_groups()) {
                for (int c : new int[] {8, 9}) {
                    var encodings = g.getColumns().get(c).getMeta_data().getEncodings();
                    plainStrings += encodings.contains(org.apache.parquet.format.Encoding.RLE_DICTIONARY)
                            || encodings.contains(org.apache.parquet.format.Encoding.PLAIN_DICTIONARY) ? 0 : 1;
                }
            }
            assertTrue(plainStrings > 0, "the file has PLAIN string chunks");
            for (int g = 0; g < f.footer().getRow_groupsSize(); g++) {
                for (int c = 0; c < sources.size(); c++) {
                    ChunkPages pages = ChunkPages.read(f, f.footer().getRow_groups().get(g).getColumns().get(c));
                    directChunks += DirectDecoder.handles(sources.get(c), schema.columns().get(c), pages) ? 1 : 0;
                }
                RowBatch direct = RowGroupReader.read(f, g, 0, schema, sources, InvalidUtf8.ERROR, true, null);
                RowBatch reference = RowGroupReader.read(f, g, 0, schema, sources, InvalidUtf8.ERROR, false, null);
                assertEquals(reference.rowCount(), direct.rowCount());
                for (int c = 0; c < sources.size(); c++) {
                    for (int r = 0; r < reference.rowCount(); r++) {
                        assertEquals(reference.column(c).get(r), direct.column(c).get(r),
                                "group " + g + " column " + c + " row " + r);
                    }
                }
            }
            assertEquals(f.footer().getRow_groupsSize() * sources.size(), directChunks,
                    "every chunk of this file (dictionary and PLAIN strings too) is one the direct decoder reads: "
                            + Arrays.toString(
                            f.footer().getRow_groups().get(0).getColumns().stream()
                                    .map(c -> c.getMeta_data().getEncodings().toString()).toArray()));
        }
    }
}

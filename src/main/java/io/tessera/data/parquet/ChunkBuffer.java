package io.tessera.data.parquet;

import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.column.page.DictionaryPage;
import org.apache.parquet.column.page.PageWriter;
import org.apache.parquet.column.statistics.SizeStatistics;
import org.apache.parquet.column.statistics.Statistics;
import org.apache.parquet.column.statistics.geospatial.GeospatialStatistics;
import org.apache.parquet.format.CompressionCodec;
import org.apache.parquet.format.ColumnMetaData;
import org.apache.parquet.format.DataPageHeader;
import org.apache.parquet.format.DictionaryPageHeader;
import org.apache.parquet.format.PageHeader;
import org.apache.parquet.format.PageType;
import org.apache.parquet.format.Type;
import org.apache.parquet.format.Util;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * One column chunk being written: parquet-java's column writer hands it encoded pages, which it compresses with
 * Snappy and keeps, each after its page header, until the row group is complete. The dictionary page, which the
 * column writer hands over last, is written first, as the format requires. (PageWriter's abstract methods include
 * deprecated ones, hence the suppression.)
 */
@SuppressWarnings("deprecation")
final class ChunkBuffer implements PageWriter {

    private final ByteArrayOutputStream dictionary = new ByteArrayOutputStream();
    private final ByteArrayOutputStream data = new ByteArrayOutputStream();
    private final Set<org.apache.parquet.format.Encoding> encodings = new LinkedHashSet<>();
    private long values;
    private long uncompressed;

    @Override
    public void writePage(BytesInput bytes, int valueCount, Statistics<?> statistics, Encoding rl, Encoding dl,
                          Encoding values) throws IOException {
        writePage(bytes, valueCount, valueCount, statistics, rl, dl, values);
    }

    @Override
    public void writePage(BytesInput bytes, int valueCount, int rowCount, Statistics<?> statistics, Encoding rl,
                          Encoding dl, Encoding valuesEncoding) throws IOException {
        byte[] raw = bytesOf(bytes);
        byte[] packed = PageCodec.snappy(raw);
        PageHeader h = new PageHeader(PageType.DATA_PAGE, raw.length, packed.length);
        h.setData_page_header(new DataPageHeader(valueCount, format(valuesEncoding), format(dl), format(rl)));
        write(h, packed, raw.length, data);
        values += valueCount;
        encodings.add(format(valuesEncoding));
        encodings.add(format(dl));
        encodings.add(format(rl));
    }

    @Override
    public void writePage(BytesInput bytes, int valueCount, int rowCount, Statistics<?> statistics,
                          SizeStatistics sizes, Encoding rl, Encoding dl, Encoding values) throws IOException {
        writePage(bytes, valueCount, rowCount, statistics, rl, dl, values);
    }

    @Override
    public void writePage(BytesInput bytes, int valueCount, int rowCount, Statistics<?> statistics,
                          SizeStatistics sizes, GeospatialStatistics geospatial, Encoding rl, Encoding dl,
                          Encoding values) throws IOException {
        writePage(bytes, valueCount, rowCount, statistics, rl, dl, values);
    }

    @Override
    public void writePageV2(int rowCount, int nullCount, int valueCount, BytesInput repetitionLevels,
                            BytesInput definitionLevels, Encoding dataEncoding, BytesInput data,
                            Statistics<?> statistics) {
        throw new UnsupportedOperationException("the exporter writes version 1 data pages");
    }

    @Override
    public void writeDictionaryPage(DictionaryPage page) throws IOException {
        if (dictionary.size() > 0) {
            throw new IOException("a second dictionary page in one column chunk");
        }
        byte[] raw = bytesOf(page.getBytes());
        byte[] packed = PageCodec.snappy(raw);
        PageHeader h = new PageHeader(PageType.DICTIONARY_PAGE, raw.length, packed.length);
        h.setDictionary_page_header(new DictionaryPageHeader(page.getDictionarySize(), format(page.getEncoding())));
        write(h, packed, raw.length, dictionary);
        encodings.add(format(page.getEncoding()));
    }

    private void write(PageHeader h, byte[] packed, int rawLength, ByteArrayOutputStream to) throws IOException {
        int before = to.size();
        Util.writePageHeader(h, to);
        uncompressed += to.size() - before + rawLength;
        to.write(packed);
    }

    private static byte[] bytesOf(BytesInput in) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream((int) in.size());
        in.writeAllTo(out);
        return out.toByteArray();
    }

    private static org.apache.parquet.format.Encoding format(Encoding e) {
        return org.apache.parquet.format.Encoding.valueOf(e.name());
    }

    /** Writes the chunk at file position {@code offset} and returns its metadata. */
    ColumnMetaData writeTo(OutputStream out, long offset, Type type, List<String> path) throws IOException {
        dictionary.writeTo(out);
        data.writeTo(out);
        long size = dictionary.size() + data.size();
        ColumnMetaData m = new ColumnMetaData(type, new ArrayList<>(encodings), path,
                CompressionCodec.SNAPPY, values, uncompressed, size, offset + dictionary.size());
        if (dictionary.size() > 0) {
            m.setDictionary_page_offset(offset);
        }
        return m;
    }

    long size() {
        return dictionary.size() + data.size();
    }

    @Override
    public long getMemSize() {
        return size();
    }

    @Override
    public long allocatedSize() {
        return size();
    }

    @Override
    public String memUsageString(String prefix) {
        return prefix + " " + size() + " bytes";
    }
}

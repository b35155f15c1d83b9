package io.tessera.data.parquet;

import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.column.page.DataPage;
import org.apache.parquet.column.page.DataPageV1;
import org.apache.parquet.column.page.DataPageV2;
import org.apache.parquet.column.page.DictionaryPage;
import org.apache.parquet.column.page.PageReader;
import org.apache.parquet.format.ColumnChunk;
import org.apache.parquet.format.ColumnMetaData;
import org.apache.parquet.format.DataPageHeader;
import org.apache.parquet.format.DataPageHeaderV2;
import org.apache.parquet.format.PageHeader;
import org.apache.parquet.format.Util;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * The pages of one column chunk, read from the file in one positional read and decompressed, handed to
 * parquet-java's column reader (which decodes levels, dictionaries and every value encoding). Replaces the
 * Hadoop-bound page reader of parquet-hadoop.
 */
final class ChunkPages implements PageReader {

    /**
     * A decompressed page as {@link DirectDecoder} reads it: a version 1 data page, or the dictionary page, in
     * {@code bytes[0, length)} (the array may be longer: a reused buffer).
     */
    record RawPage(byte[] bytes, int length, int valueCount, Encoding definitionLevels, Encoding values) {
    }

    private final DictionaryPage dictionary;
    private final ArrayDeque<DataPage> pages;
    private final long valueCount;
    private final RawPage rawDictionary;
    /** The data pages, when all are version 1 pages (else null). */
    private final List<RawPage> rawPages;

    private ChunkPages(DictionaryPage dictionary, ArrayDeque<DataPage> pages, long valueCount, RawPage rawDictionary,
                       List<RawPage> rawPages) {
        this.dictionary = dictionary;
        this.pages = pages;
        this.valueCount = valueCount;
        this.rawDictionary = rawDictionary;
        this.rawPages = rawPages;
    }

    RawPage rawDictionary() {
        return rawDictionary;
    }

    /** The version 1 data pages in order, or null when the chunk has version 2 pages. */
    List<RawPage> rawPages() {
        return rawPages;
    }

    /** Reads the chunk's pages; an {@link IOException} says what is broken. */
    static ChunkPages read(ParquetFile file, ColumnChunk chunk) throws IOException {
        return read(file, chunk, new PageBuffers());
    }

    /**
     * As {@link #read(ParquetFile, ColumnChunk)}, the chunk and its version 1 pages in arrays from {@code buffers},
     * which hold them until their next reset.
     */
    static ChunkPages read(ParquetFile file, ColumnChunk chunk, PageBuffers buffers) throws IOException {
        if (chunk.isSetFile_path()) {
            throw new IOException("its values are in another file (" + chunk.getFile_path() + "), which Tessera does"
                    + " not read");
        }
        ColumnMetaData m = chunk.getMeta_data();
        if (m == null) {
            throw new IOException("a column chunk has no metadata (an encrypted column?)");
        }
        String codecProblem = PageCodec.unsupported(m.getCodec());
        if (codecProblem != null) {
            throw new IOException(codecProblem);
        }
        long start = m.getData_page_offset();
        if (m.isSetDictionary_page_offset() && m.getDictionary_page_offset() > 0) {
            start = Math.min(start, m.getDictionary_page_offset());
        }
        byte[] buf = file.read(start, m.getTotal_compressed_size(), buffers);
        int length = (int) m.getTotal_compressed_size();
        ByteArrayInputStream in = new ByteArrayInputStream(buf, 0, length);
        DictionaryPage dictionary = null;
        RawPage rawDictionary = null;
        List<RawPage> rawPages = new ArrayList<>();
        ArrayDeque<DataPage> pages = new ArrayDeque<>();
        long values = 0;
        while (values < m.getNum_values() && in.available() > 0) {
            PageHeader h;
            try {
                h = Util.readPageHeader(in);
            } catch (IOException | RuntimeException e) {
                throw new IOException("a broken page header: " + e.getMessage(), e);
            }
            int pos = length - in.available();
            int size = h.getCompressed_page_size();
            if (size < 0 || size > length - pos) {
                throw new IOException("a page of " + size + " bytes runs past its column chunk");
            }
            // what a broken header could make us allocate: no more than the chunk's metadata says it holds
            if (h.getUncompressed_page_size() < 0 || m.getTotal_uncompressed_size() > 0
                    && h.getUncompressed_page_size() > m.getTotal_uncompressed_size()) {
                throw new IOException("a page of " + h.getUncompressed_page_size() + " bytes in a column chunk of "
                        + m.getTotal_uncompressed_size());
            }
            int pageValues = h.isSetData_page_header() ? h.getData_page_header().getNum_values()
                    : h.isSetData_page_header_v2() ? h.getData_page_header_v2().getNum_values() : 0;
            if (pageValues < 0 || pageValues > m.getNum_values() - values) {
                throw new IOException("a page of " + pageValues + " values where " + (m.getNum_values() - values)
                        + " are left");
            }
            switch (h.getType()) {
                case DICTIONARY_PAGE -> {
                    int entries = h.getDictionary_page_header().getNum_values();
                    if (entries < 0 || entries > h.getUncompressed_page_size()) { // every entry takes a byte at least
                        throw new IOException("a dictionary of " + entries + " entries in "
                                + h.getUncompressed_page_size() + " bytes");
                    }
                    int n = h.getUncompressed_page_size();
                    byte[] b = PageCodec.decompress(m.getCodec(), buf, pos, size, n, buffers);
                    dictionary = new DictionaryPage(BytesInput.from(b, 0, n),
                            h.getDictionary_page_header().getNum_values(),
                            encoding(h.getDictionary_page_header().getEncoding()));
                    rawDictionary = new RawPage(b, n, dictionary.getDictionarySize(), null, dictionary.getEncoding());
                }
                case DATA_PAGE -> {
                    DataPageHeader d = h.getData_page_header();
                    int n = h.getUncompressed_page_size();
                    byte[] b = PageCodec.decompress(m.getCodec(), buf, pos, size, n, buffers);
                    pages.add(new DataPageV1(BytesInput.from(b, 0, n), d.getNum_values(), n, null,
                            encoding(d.getRepetition_level_encoding()), encoding(d.getDefinition_level_encoding()),
                            encoding(d.getEncoding())));
                    values += d.getNum_values();
                    if (rawPages != null) {
                        rawPages.add(new RawPage(b, n, d.getNum_values(), encoding(d.getDefinition_level_encoding()),
                                encoding(d.getEncoding())));
                    }
                }
                case DATA_PAGE_V2 -> {
                    rawPages = null;
                    DataPageHeaderV2 d = h.getData_page_header_v2();
                    int rl = d.getRepetition_levels_byte_length();
                    int dl = d.getDefinition_levels_byte_length();
                    if (rl < 0 || dl < 0 || rl + dl > size) {
                        throw new IOException("a page's level lengths run past the page");
                    }
                    int dataAt = pos + rl + dl;
                    int dataSize = size - rl - dl;
                    byte[] data = !d.isSetIs_compressed() || d.isIs_compressed()
                            ? PageCodec.decompress(m.getCodec(), buf, dataAt, dataSize,
                                    h.getUncompressed_page_size() - rl - dl)
                            : java.util.Arrays.copyOfRange(buf, dataAt, dataAt + dataSize);
                    pages.add(DataPageV2.uncompressed(d.getNum_rows(), d.getNum_nulls(), d.getNum_values(),
                            BytesInput.from(buf, pos, rl), BytesInput.from(buf, pos + rl, dl),
                            encoding(d.getEncoding()), BytesInput.from(data), null));
                    values += d.getNum_values();
                }
                default -> {
                    // an index page: nothing to read
                }
            }
            in.skip(size);
        }
        if (values != m.getNum_values()) {
            throw new IOException("a column chunk holds " + values + " values, its metadata says "
                    + m.getNum_values());
        }
        return new ChunkPages(dictionary, pages, values, rawDictionary, rawPages);
    }

    private static Encoding encoding(org.apache.parquet.format.Encoding e) {
        return Encoding.valueOf(e.name());
    }

    @Override
    public DictionaryPage readDictionaryPage() {
        return dictionary;
    }

    @Override
    public long getTotalValueCount() {
        return valueCount;
    }

    @Override
    public DataPage readPage() {
        return pages.poll();
    }
}

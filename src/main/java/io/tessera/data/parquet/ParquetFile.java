package io.tessera.data.parquet;

import org.apache.parquet.VersionParser;
import org.apache.parquet.format.FileMetaData;
import org.apache.parquet.format.SchemaElement;
import org.apache.parquet.format.Util;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * An open Parquet file: its footer (parquet-java's Thrift structures), its top-level columns, and positional reads of
 * its bytes, which any number of threads may make at once. A STRUCT or LIST column is a tree of {@link SourceColumn}s;
 * a shape Tessera cannot hold (a MAP of BLOB keys) is named by {@link SourceColumn#reason()}.
 */
final class ParquetFile implements AutoCloseable {

    private static final byte[] MAGIC = "PAR1".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] ENCRYPTED_MAGIC = "PARE".getBytes(StandardCharsets.US_ASCII);

    private final String name;
    private final FileChannel owned; // closed with this; null where the caller closes the channel
    private final FileChannel channel;
    private final long size;
    private final FileMetaData footer;
    private final List<SourceColumn> columns;
    private final VersionParser.ParsedVersion writer;

    private ParquetFile(String name, FileChannel owned, FileChannel channel, long size, FileMetaData footer, List<SourceColumn> columns,
                        VersionParser.ParsedVersion writer) {
        this.name = name;
        this.owned = owned;
        this.channel = channel;
        this.size = size;
        this.footer = footer;
        this.columns = columns;
        this.writer = writer;
    }

    /** Opens {@code file} and reads its footer; an {@link IOException} says what is wrong with it. */
    /** Whether {@code ch} begins as a Parquet file does (PAR1), read at its start without moving its position. */
    static boolean begins(FileChannel ch) throws IOException {
        ByteBuffer head = ByteBuffer.allocate(MAGIC.length);
        ch.read(head, 0);
        return head.position() == MAGIC.length && java.util.Arrays.equals(head.array(), MAGIC);
    }

    static ParquetFile open(Path file) throws IOException {
        return open(io.tessera.data.io.SourceFile.of(file));
    }

    /** Opens a file (its channel closed with this) and reads its footer. */
    static ParquetFile open(io.tessera.data.io.SourceFile file) throws IOException {
        return open(file, true);
    }

    /** Reads a file's footer; {@code owns}: its channel is closed with this. */
    static ParquetFile open(io.tessera.data.io.SourceFile file, boolean owns) throws IOException {
        FileChannel ch = file.open();
        try {
            long size = ch.size();
            if (size < 12) {
                throw new IOException("not a Parquet file: " + size + " bytes");
            }
            ByteBuffer tail = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN);
            readFully(ch, tail, size - 8);
            byte[] magic = new byte[4];
            tail.get(4, magic);
            if (java.util.Arrays.equals(magic, ENCRYPTED_MAGIC)) {
                throw new IOException("an encrypted Parquet file, which Tessera does not read");
            }
            if (!java.util.Arrays.equals(magic, MAGIC)) {
                throw new IOException("not a Parquet file (it does not end in PAR1)");
            }
            int footerLength = tail.getInt(0);
            if (footerLength <= 0 || footerLength > size - 12) {
                throw new IOException("a broken Parquet file: its footer length " + footerLength + " does not fit");
            }
            ByteBuffer f = ByteBuffer.allocate(footerLength);
            readFully(ch, f, size - 8 - footerLength);
            FileMetaData footer;
            try {
                footer = Util.readFileMetaData(new ByteArrayInputStream(f.array()));
            } catch (IOException | RuntimeException e) {
                throw new IOException("a broken Parquet footer: " + e.getMessage(), e);
            }
            List<SchemaElement> schema = footer.getSchema();
            if (schema == null || schema.isEmpty()) {
                throw new IOException("a broken Parquet file: no schema");
            }
            List<SourceColumn> columns = new ArrayList<>();
            int leaves = 0;
            // the root, then each top-level field with its subtree (depth first)
            for (int i = 1; i < schema.size(); ) {
                columns.add(SourceColumn.of(schema, i, leaves));
                int subtree = subtreeSize(schema, i);
                leaves += leafCount(schema, i, subtree);
                i += subtree;
            }
            VersionParser.ParsedVersion writer = null;
            try {
                writer = footer.isSetCreated_by() ? VersionParser.parse(footer.getCreated_by()) : null;
            } catch (VersionParser.VersionParseException | RuntimeException e) {
                // another writer than parquet-java: none of its known bugs apply
            }
            return new ParquetFile(file.name(), owns ? ch : null, ch, size, footer, List.copyOf(columns), writer);
        } catch (IOException | RuntimeException e) {
            if (owns) {
                ch.close();
            }
            throw e;
        }
    }

    /** Elements in the subtree rooted at {@code schema[i]}, itself included. */
    private static int subtreeSize(List<SchemaElement> schema, int i) {
        int n = 1;
        int children = schema.get(i).isSetNum_children() ? schema.get(i).getNum_children() : 0;
        for (int c = 0; c < children; c++) {
            if (i + n >= schema.size()) {
                break;
            }
            n += subtreeSize(schema, i + n);
        }
        return n;
    }

    private static int leafCount(List<SchemaElement> schema, int from, int n) {
        int leaves = 0;
        for (int k = from; k < from + n && k < schema.size(); k++) {
            if (!schema.get(k).isSetNum_children() || schema.get(k).getNum_children() == 0) {
                leaves++;
            }
        }
        return leaves;
    }

    String name() {
        return name;
    }

    long size() {
        return size;
    }

    FileMetaData footer() {
        return footer;
    }

    List<SourceColumn> columns() {
        return columns;
    }

    VersionParser.ParsedVersion writer() {
        return writer;
    }

    /**
     * {@code length} bytes from {@code offset}, at the start of an array from {@code buffers} (which may be
     * longer); a range outside the file is an error.
     */
    byte[] read(long offset, long length, PageBuffers buffers) throws IOException {
        if (offset < 0 || length < 0 || length > Integer.MAX_VALUE - 16 || offset + length > size) {
            throw new IOException("a broken Parquet file: a column chunk at " + offset + " of " + length
                    + " bytes lies outside its " + size + " bytes");
        }
        ByteBuffer b = ByteBuffer.wrap(buffers.take((int) length), 0, (int) length);
        readFully(channel, b, offset);
        return b.array();
    }

    private static void readFully(FileChannel ch, ByteBuffer b, long pos) throws IOException {
        while (b.hasRemaining()) {
            int r = ch.read(b, pos + b.position());
            if (r < 0) {
                throw new IOException("the file ended early");
            }
        }
        b.flip();
    }

    @Override
    public void close() throws IOException {
        if (owned != null) {
            owned.close();
        }
    }
}

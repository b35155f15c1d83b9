package io.tessera.data.io;

import io.tessera.storage.ColumnSchema;
import io.tessera.storage.Database;
import io.tessera.storage.RowBatch;
import io.tessera.storage.TableSchema;
import io.tessera.storage.TableWriter;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;

/**
 * Appends the rows of text files to a table. A file is read in chunks that end at record boundaries; chunks are
 * parsed into row batches in parallel and written in file order, with a bounded window of chunks in flight.
 * Nothing is committed until every file has been parsed: on any error the writer is closed without a commit,
 * so the table is exactly as it was. See {@link ChunkParser} for the rules of each format.
 */
public final class TableImporter {

    /**
     * The longest record, line end included, that an import reads: a longer one is an error naming the limit (in
     * a CSV file usually an unterminated quote), and memory stays bounded whatever the file holds.
     */
    static final int MAX_RECORD_BYTES = 64 << 20;

    /**
     * @param format      null: from each file's name ({@code .tbl} is tbl, anything else csv)
     * @param delimiter   null: the format's default ({@code |} for tbl, {@code ,} for csv)
     * @param header      skip the first record of every file
     * @param threads     parser threads, at least 1
     * @param chunkBytes  bytes read per chunk
     * @param invalidUtf8 what a VARCHAR field that is not UTF-8 does: an error, or U+FFFD stored for it
     * @param progress    told of rows and bytes as they take their place in the table
     * @param spelling    how advice in a message names the options (the command line's, or COPY's)
     */
    public record Options(ImportFormat format, Byte delimiter, boolean header, int threads, int chunkBytes,
                          InvalidUtf8 invalidUtf8, ImportProgress progress, OptionSpelling spelling) {
        public Options {
            if (threads < 1 || chunkBytes < 1) {
                throw new IllegalArgumentException("threads and chunk size must be positive");
            }
            java.util.Objects.requireNonNull(invalidUtf8, "invalidUtf8");
            java.util.Objects.requireNonNull(progress, "progress");
            java.util.Objects.requireNonNull(spelling, "spelling");
        }

        public static Options defaults() {
            return new Options(null, null, false, Runtime.getRuntime().availableProcessors(), 8 << 20,
                    InvalidUtf8.ERROR, ImportProgress.NONE,
                    OptionSpelling.COMMAND_LINE);
        }

        public Options withFormat(ImportFormat f) {
            return new Options(f, delimiter, header, threads, chunkBytes, invalidUtf8, progress, spelling);
        }

        public Options withDelimiter(Byte d) {
            return new Options(format, d, header, threads, chunkBytes, invalidUtf8, progress, spelling);
        }

        public Options withHeader(boolean h) {
            return new Options(format, delimiter, h, threads, chunkBytes, invalidUtf8, progress, spelling);
        }

        public Options withThreads(int t) {
            return new Options(format, delimiter, header, t, chunkBytes, invalidUtf8, progress, spelling);
        }

        public Options withChunkBytes(int c) {
            return new Options(format, delimiter, header, threads, c, invalidUtf8, progress, spelling);
        }

        public Options withInvalidUtf8(InvalidUtf8 u) {
            return new Options(format, delimiter, header, threads, chunkBytes, u, progress, spelling);
        }

        public Options withProgress(ImportProgress p) {
            return new Options(format, delimiter, header, threads, chunkBytes, invalidUtf8, p, spelling);
        }

        public Options withSpelling(OptionSpelling sp) {
            return new Options(format, delimiter, header, threads, chunkBytes, invalidUtf8, progress, sp);
        }
    }

    /**
     * Rows and bytes an import read, and where its time went: reading, parsing and writing the column files,
     * then the commit (dictionaries, statistics, checksums, sync, manifest).
     */
    public record Summary(long rows, long bytes, int files, long parseNanos, long commitNanos) {
    }

    private TableImporter() {
    }

    /** Appends every file's rows to {@code table} and commits once; on an error the table stays unchanged. */
    public static Summary importFiles(Database db, String table, List<Path> files, Options options) {
        return importSources(db, table, files.stream().map(SourceFile::of).toList(), options);
    }

    /** As {@link #importFiles}, for files named in SQL and opened already ({@link AllowedDirectories}). */
    public static Summary importSources(Database db, String table, List<SourceFile> files, Options options) {
        return importSources(db, table, files, options, null);
    }

    /**
     * As {@link #importSources(Database, String, List, Options)} for records whose fields are {@code fields}'
     * columns (null: the table's), of which only those the table has (by name) are parsed and kept.
     */
    public static Summary importSources(Database db, String table, List<SourceFile> files, Options options,
                                        TableSchema fields) {
        ExecutorService pool = PartWrites.pool(options.threads(), "tessera-import");
        ImportProgress progress = options.progress();
        try (TableWriter writer = db.append(table)) {
            progress.start(writer.schema().name(), SourceFile.totalSize(files));
            long t0 = System.nanoTime();
            long before = writer.rowCount();
            long bytes = 0;
            // batches written already, emptied for the next chunks: their arrays are allocated once per import, not
            // once per chunk (nor copied by every young collection while they fill)
            Queue<RowBatch> spare = new ConcurrentLinkedQueue<>();
            for (SourceFile f : files) {
                try (PartWrites parts = new PartWrites(writer, pool, options.threads(), f.name())) {
                    bytes += importFile(f, writer.schema(), parts, options, fields, pool, spare);
                    parts.finish();
                }
            }
            long rows = writer.rowCount() - before;
            long t1 = System.nanoTime();
            progress.committing();
            writer.commit();
            return new Summary(rows, bytes, files.size(), t1 - t0, System.nanoTime() - t1);
        } finally {
            progress.finish();
            PartWrites.shutdown(pool);
        }
    }

    private static long importFile(SourceFile file, TableSchema table, PartWrites parts, Options o,
                                   TableSchema fields, ExecutorService pool, Queue<RowBatch> spare) {
        String name = file.name();
        ImportFormat format = o.format() != null ? o.format() : ImportFormat.fromFileName(Path.of(name));
        byte delim = o.delimiter() != null ? o.delimiter() : (byte) format.defaultDelimiter();
        // the fields of a record, as errors name them: given, or from the header, or the table's columns
        TableSchema schema = fields != null ? fields : table;
        int window = Math.max(2, 2 * o.threads());
        ArrayDeque<Future<ChunkParser.Result>> inflight = new ArrayDeque<>();
        ArrayDeque<Integer> chunkBytes = new ArrayDeque<>(); // each chunk's bytes, beside its future
        long nextLine = 1; // first line of the next chunk to be written
        try (FileChannel ch = file.open()) {
            long size = ch.size();
            long pos = 0;
            byte[] carry = new byte[0];
            boolean first = true;
            while (true) {
                // the buffer holds at most MAX_RECORD_BYTES, so a record found whole in it is within the limit
                int want = (int) Math.min(Math.min(o.chunkBytes(), MAX_RECORD_BYTES - carry.length), size - pos);
                byte[] buf = new byte[carry.length + want];
                System.arraycopy(carry, 0, buf, 0, carry.length);
                int got = readFully(ch, buf, carry.length, want, pos);
                pos += got;
                int n = carry.length + got;
                boolean eof = pos >= size || got < want;
                int end = eof ? n : recordBoundary(buf, n, format);
                if (end < 0) {
                    if (n < MAX_RECORD_BYTES) {
                        carry = buf; // one record longer than the chunk: read on
                        continue;
                    }
                    // no record end in the limit: earlier chunks' errors come first, then this one
                    while (!inflight.isEmpty()) {
                        nextLine = drain(inflight.poll(), chunkBytes.poll(), parts, o, schema, name, nextLine, spare);
                    }
                    throw new ImportException(name, nextLine, 0, name + ":" + nextLine + ": the record is longer than "
                            + (MAX_RECORD_BYTES >> 20) + " MiB, the limit of one record"
                            + (format == ImportFormat.CSV && endsInsideQuotes(buf, n)
                            ? " (its first " + (MAX_RECORD_BYTES >> 20) + " MiB end inside a quoted field:"
                            + " an unterminated quote?)" : ""));
                }
                boolean skipHeader = first && o.header();
                boolean fileStart = first;
                final int from = first && startsWithByteOrderMark(buf, end) ? UTF8_BOM.length : 0;
                if (skipHeader && fields == null) {
                    schema = HeaderMatch.fields(name, HeaderMatch.names(buf, from, end, delim,
                            format == ImportFormat.CSV), table, delim, o.spelling());
                }
                first = false;
                final int to = end;
                ChunkParser parser = new ChunkParser(table, schema, format, delim, o.invalidUtf8());
                inflight.add(pool.submit(() -> parser.parse(buf, from, to, skipHeader, fileStart, spare.poll())));
                chunkBytes.add(end);
                carry = java.util.Arrays.copyOfRange(buf, end, n);
                while (inflight.size() >= window) {
                    nextLine = drain(inflight.poll(), chunkBytes.poll(), parts, o, schema, name, nextLine, spare);
                }
                if (eof) {
                    break;
                }
            }
            while (!inflight.isEmpty()) {
                nextLine = drain(inflight.poll(), chunkBytes.poll(), parts, o, schema, name, nextLine, spare);
            }
            return size;
        } catch (NoSuchFileException e) {
            throw new ImportException(name, name + ": no such file", e);
        } catch (IOException e) {
            throw new ImportException(name, name + ": cannot read: " + e.getMessage(), e);
        } finally {
            for (Future<?> f : inflight) {
                f.cancel(true);
            }
        }
    }

    private static long drain(Future<ChunkParser.Result> f, int bytes, PartWrites parts, Options o,
                              TableSchema schema, String file, long firstLine, Queue<RowBatch> spare) {
        ChunkParser.Result r;
        try {
            r = f.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ImportException(file, file + ": interrupted", e);
        } catch (ExecutionException e) {
            Throwable c = e.getCause();
            throw new ImportException(file, file + ": " + c, c);
        }
        if (r.failed()) {
            long line = firstLine + r.errorLine();
            StringBuilder m = new StringBuilder(file).append(':').append(line).append(": ");
            if (r.errorColumn() >= 0) {
                m.append("column ").append(r.errorColumn() + 1);
                if (r.errorColumn() < schema.columns().size()) {
                    ColumnSchema c = schema.columns().get(r.errorColumn());
                    m.append(" (").append(c.name()).append(')');
                }
                m.append(": ");
            }
            m.append(r.error());
            if (r.hint() != null) {
                m.append(" (").append(r.hint().text(o.spelling())).append(')');
            }
            throw new ImportException(file, line, r.errorColumn() + 1, m.toString());
        }
        int rows = r.batch().rowCount();
        parts.place(r.batch(), written -> {
            written.clear();
            spare.add(written);
        });
        o.progress().advanced(rows, bytes);
        return firstLine + r.lines();
    }

    /** The UTF-8 byte order mark (U+FEFF), which some tools write at the start of a file; it is not data. */
    private static final byte[] UTF8_BOM = {(byte) 0xef, (byte) 0xbb, (byte) 0xbf};

    private static boolean startsWithByteOrderMark(byte[] buf, int n) {
        return n >= UTF8_BOM.length && java.util.Arrays.equals(buf, 0, UTF8_BOM.length, UTF8_BOM, 0, UTF8_BOM.length);
    }

    private static int readFully(FileChannel ch, byte[] buf, int off, int len, long pos) throws IOException {
        ByteBuffer bb = ByteBuffer.wrap(buf, off, len);
        int total = 0;
        while (bb.hasRemaining()) {
            int r = ch.read(bb, pos + total);
            if (r < 0) {
                break;
            }
            total += r;
        }
        return total;
    }

    /** Whether {@code buf[0, n)}, which starts at a record start, ends inside a quoted CSV field. */
    private static boolean endsInsideQuotes(byte[] buf, int n) {
        boolean inQuote = false;
        for (int i = 0; i < n; i++) {
            if (buf[i] == '"') {
                inQuote = !inQuote;
            }
        }
        return inQuote;
    }

    /**
     * Index just after the last record end (a line feed; in CSV one outside quotes) in {@code buf[0, n)}, or -1.
     * The buffer starts at a record start, so quote state starts outside.
     */
    static int recordBoundary(byte[] buf, int n, ImportFormat format) {
        if (format == ImportFormat.TBL) {
            for (int i = n - 1; i >= 0; i--) {
                if (buf[i] == '\n') {
                    return i + 1;
                }
            }
            return -1;
        }
        boolean inQuote = false;
        int last = -1;
        for (int i = 0; i < n; i++) {
            byte c = buf[i];
            if (c == '"') {
                inQuote = !inQuote;
            } else if (c == '\n' && !inQuote) {
                last = i + 1;
            }
        }
        return last;
    }
}

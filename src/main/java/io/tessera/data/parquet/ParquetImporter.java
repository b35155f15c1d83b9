package io.tessera.data.parquet;

import io.tessera.data.io.ImportException;
import io.tessera.data.io.ImportProgress;
import io.tessera.data.io.InvalidUtf8;
import io.tessera.data.io.PartWrites;
import io.tessera.data.io.SourceFile;
import io.tessera.data.io.TableImporter;
import io.tessera.storage.ColumnSchema;
import io.tessera.storage.DataType;
import io.tessera.storage.Database;
import io.tessera.storage.RowBatch;
import io.tessera.storage.TableSchema;
import io.tessera.storage.TableWriter;

import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;

/**
 * Appends the rows of Parquet files to a table, all or nothing, like {@link TableImporter} for text: the file's
 * columns are matched to the table's by name (ignoring case), every type is checked before a row is read, row
 * groups are decoded on all cores (at most two per thread in flight, and no more than a quarter of the heap holds)
 * and written in file order, and the table is
 * committed once after every file was read. On any error the writer is closed without a commit, so the table is
 * exactly as it was. docs/IMPORT.md lists the types read.
 */
public final class ParquetImporter {

    private ParquetImporter() {
    }

    /** Whether {@code file}'s name ends in {@code .parquet} (any case). */
    public static boolean isParquetName(Path file) {
        Path n = file.getFileName();
        return n != null && n.toString().toLowerCase(Locale.ROOT).endsWith(".parquet");
    }

    /** Appends every file's rows to {@code table} and commits once; on an error the table stays unchanged. */
    public static TableImporter.Summary importFiles(Database db, String table, List<Path> files, int threads,
                                                    InvalidUtf8 invalidUtf8) {
        return importFiles(db, table, files, threads, invalidUtf8, ImportProgress.NONE);
    }

    /** As {@link #importFiles(Database, String, List, int, InvalidUtf8)}, telling {@code progress} as it goes. */
    public static TableImporter.Summary importFiles(Database db, String table, List<Path> files, int threads,
                                                    InvalidUtf8 invalidUtf8, ImportProgress progress) {
        return importSources(db, table, files.stream().map(SourceFile::of).toList(), null, RowGroupBounds.NONE,
                threads, invalidUtf8, progress);
    }

    /** As {@link #importFiles}, for files named in SQL and opened already ({@code AllowedDirectories}). */
    public static TableImporter.Summary importSources(Database db, String table, List<SourceFile> files,
                                                      int threads, InvalidUtf8 invalidUtf8) {
        return importSources(db, table, files, null, threads, invalidUtf8);
    }

    /**
     * A column of a Parquet file: its name in the file and the type a table made from the file gives it, or (type
     * null) why no Tessera type holds it.
     */
    public record FileColumn(String name, DataType type, String reason) {
    }

    /**
     * Whether the open file {@code ch} begins as a Parquet file does: a file about to be read as another format is
     * refused on it (its position is left where it was).
     */
    public static boolean beginsAsParquet(java.nio.channels.FileChannel ch) throws IOException {
        return ParquetFile.begins(ch);
    }

    /**
     * The top-level columns of a file, with the types a table made from it gives them. Reads the footer only and
     * leaves the file open.
     */
    public static List<FileColumn> columns(SourceFile source) {
        String name = source.name();
        try (ParquetFile file = ParquetFile.open(source, false)) {
            List<FileColumn> columns = new ArrayList<>();
            for (SourceColumn s : file.columns()) {
                columns.add(new FileColumn(s.name(), s.natural(), s.natural() != null ? null
                        : s.reason() != null ? s.reason() : s.describe() + ", a type Tessera cannot hold"));
            }
            return columns;
        } catch (IOException e) {
            throw new ImportException(name, name + ": " + e.getMessage(), e);
        }
    }

    /**
     * Appends the rows of files to {@code table}, each table column read from the file column named in
     * {@code sourceNames} (at the same position; the file's other columns are not read at all), or, with
     * {@code sourceNames} null, every file column matched to the table column of its name.
     */
    public static TableImporter.Summary importSources(Database db, String table, List<SourceFile> files,
                                                      List<String> sourceNames, int threads,
                                                      InvalidUtf8 invalidUtf8) {
        return importSources(db, table, files, sourceNames, RowGroupBounds.NONE, threads, invalidUtf8);
    }

    /** As {@link #importSources(Database, String, List, List, int, InvalidUtf8)}, telling {@code progress}. */
    public static TableImporter.Summary importSources(Database db, String table, List<SourceFile> files,
                                                      List<String> sourceNames, int threads,
                                                      InvalidUtf8 invalidUtf8, ImportProgress progress) {
        return importSources(db, table, files, sourceNames, RowGroupBounds.NONE, threads, invalidUtf8, progress);
    }

    /**
     * As {@link #importSources(Database, String, List, List, int, InvalidUtf8)}, skipping the row groups whose
     * statistics rule {@code bounds} out (their rows are not appended: for a query that filters by the bounds).
     */
    public static TableImporter.Summary importSources(Database db, String table, List<SourceFile> files,
                                                      List<String> sourceNames, RowGroupBounds bounds,
                                                      int threads, InvalidUtf8 invalidUtf8) {
        return importSources(db, table, files, sourceNames, bounds, threads, invalidUtf8, ImportProgress.NONE);
    }

    private static TableImporter.Summary importSources(Database db, String table, List<SourceFile> files,
                                                       List<String> sourceNames, RowGroupBounds bounds, int threads,
                                                       InvalidUtf8 invalidUtf8, ImportProgress progress) {
        if (threads < 1) {
            throw new IllegalArgumentException("threads must be positive");
        }
        ExecutorService pool = PartWrites.pool(threads, "tessera-parquet");
        try (TableWriter writer = db.append(table)) {
            progress.start(writer.schema().name(), SourceFile.totalSize(files));
            long t0 = System.nanoTime();
            long before = writer.rowCount();
            long bytes = 0;
            // batches written already, emptied for the next row groups: reused, their arrays are allocated once per
            // import instead of once per group (and are not copied by every young collection while they fill)
            Queue<RowBatch> spare = new ConcurrentLinkedQueue<>();
            for (SourceFile f : files) {
                try (PartWrites parts = new PartWrites(writer, pool, threads, f.name())) {
                    bytes += importFile(f, writer.schema(), parts, sourceNames, bounds, threads, invalidUtf8, pool,
                            progress, spare);
                    parts.finish();
                }
            }
            long rows = writer.rowCount() - before;
            long t1 = System.nanoTime();
            progress.committing();
            writer.commit();
            return new TableImporter.Summary(rows, bytes, files.size(), t1 - t0, System.nanoTime() - t1);
        } finally {
            progress.finish();
            PartWrites.shutdown(pool);
        }
    }

    private static long importFile(SourceFile path, TableSchema schema, PartWrites parts, List<String> sourceNames,
                                   RowGroupBounds bounds, int threads, InvalidUtf8 invalidUtf8,
                                   ExecutorService pool, ImportProgress progress, Queue<RowBatch> spare) {
        String name = path.name();
        ArrayDeque<Future<RowBatch>> inflight = new ArrayDeque<>();
        long[] firstRows;
        try (ParquetFile file = ParquetFile.open(path)) {
            List<SourceColumn> sources = sourceNames == null ? match(file, schema) : named(file, schema, sourceNames);
            int groups = file.footer().getRow_groupsSize();
            firstRows = new long[groups];
            long row = 0;
            for (int g = 0; g < groups; g++) {
                firstRows[g] = row;
                row += file.footer().getRow_groups().get(g).getNum_rows();
            }
            int window = Math.max(2, 2 * threads);
            long budget = Runtime.getRuntime().maxMemory() / 4;
            ArrayDeque<Long> sizes = new ArrayDeque<>();
            ArrayDeque<Long> fileBytes = new ArrayDeque<>(); // each group's bytes in the file, for progress
            long inflightBytes = 0;
            for (int g = 0; g < groups; g++) {
                final int group = g;
                if (!bounds.mayMatch(file, file.footer().getRow_groups().get(g))) {
                    continue; // no row of it is within the query's bounds
                }
                long size = memoryEstimate(file.footer().getRow_groups().get(g), schema);
                // at most two groups per thread, and (beyond the first) what a quarter of the heap holds
                while (!inflight.isEmpty() && (inflight.size() >= window || inflightBytes + size > budget)) {
                    place(drain(inflight.poll(), name, schema), fileBytes.poll(), parts, progress, spare);
                    inflightBytes -= sizes.poll();
                }
                inflight.add(pool.submit(() -> RowGroupReader.read(file, group, firstRows[group], schema, sources,
                        invalidUtf8, true, spare.poll())));
                sizes.add(size);
                fileBytes.add(compressedSize(file.footer().getRow_groups().get(g)));
                inflightBytes += size;
            }
            while (!inflight.isEmpty()) {
                place(drain(inflight.poll(), name, schema), fileBytes.poll(), parts, progress, spare);
            }
            return file.size();
        } catch (NoSuchFileException e) {
            throw new ImportException(name, name + ": no such file", e);
        } catch (IOException e) {
            throw new ImportException(name, name + ": " + e.getMessage(), e);
        } finally {
            for (Future<?> f : inflight) {
                f.cancel(true);
            }
        }
    }

    private static void place(RowBatch batch, long fileBytes, PartWrites parts, ImportProgress progress,
                              Queue<RowBatch> spare) {
        int rows = batch.rowCount();
        parts.place(batch, written -> {
            written.clear();
            spare.add(written);
        });
        progress.advanced(rows, fileBytes);
    }

    /** A row group's column chunks as stored in the file. */
    private static long compressedSize(org.apache.parquet.format.RowGroup rg) {
        long bytes = 0;
        for (org.apache.parquet.format.ColumnChunk c : rg.getColumns()) {
            if (c.getMeta_data() != null) {
                bytes += c.getMeta_data().getTotal_compressed_size();
            }
        }
        return bytes;
    }

    /**
     * The memory one row group takes while it is decoded: its column chunks as read and decompressed, and the row
     * batch (each value's width, and a code per string).
     */
    private static long memoryEstimate(org.apache.parquet.format.RowGroup rg, TableSchema schema) {
        long chunks = 0;
        for (org.apache.parquet.format.ColumnChunk c : rg.getColumns()) {
            if (c.getMeta_data() != null) {
                chunks += c.getMeta_data().getTotal_compressed_size() + c.getMeta_data().getTotal_uncompressed_size();
            }
        }
        long rowBytes = 0;
        for (ColumnSchema c : schema.columns()) {
            rowBytes += c.type().kind().byteWidth();
        }
        return chunks + rg.getNum_rows() * rowBytes;
    }

    /** For each table column, the file column of the same name; any column without its partner is an error. */
    private static List<SourceColumn> match(ParquetFile file, TableSchema schema) {
        String name = file.name();
        List<SourceColumn> sources = new ArrayList<>();
        for (int c = 0; c < schema.columns().size(); c++) {
            ColumnSchema target = schema.columns().get(c);
            SourceColumn found = null;
            for (SourceColumn s : file.columns()) {
                if (s.name().equalsIgnoreCase(target.name())) {
                    if (found != null) {
                        throw columnError(name, c, target, "the file has two columns named " + target.name());
                    }
                    found = s;
                }
            }
            if (found == null) {
                throw columnError(name, c, target, "the file has no column of this name (it has "
                        + String.join(", ", file.columns().stream().map(SourceColumn::name).toList()) + ")");
            }
            String mismatch = found.mismatch(target.type());
            if (mismatch != null) {
                throw columnError(name, c, target, mismatch);
            }
            sources.add(found);
        }
        for (SourceColumn s : file.columns()) {
            if (schema.columns().stream().noneMatch(t -> t.name().equalsIgnoreCase(s.name()))) {
                throw new ImportException(name, 0, 0, name + ": the file's column " + s.name()
                        + (s.reason() != null ? " holds " + s.reason() : " holds " + s.describe())
                        + ", and table " + schema.name() + " has no column of this name");
            }
        }
        return sources;
    }

    /** For each table column, the file column named at its position (exactly); other file columns are skipped. */
    private static List<SourceColumn> named(ParquetFile file, TableSchema schema, List<String> sourceNames) {
        List<SourceColumn> sources = new ArrayList<>();
        for (int c = 0; c < schema.columns().size(); c++) {
            ColumnSchema target = schema.columns().get(c);
            String wanted = sourceNames.get(c);
            SourceColumn found = file.columns().stream().filter(s -> s.name().equals(wanted)).findFirst()
                    .orElseThrow(() -> new ImportException(file.name(), 0, 0, file.name() + ": the file has no column "
                            + wanted + " (it has " + String.join(", ", file.columns().stream()
                            .map(SourceColumn::name).toList()) + "); the files of one pattern need the same columns"));
            String mismatch = found.mismatch(target.type());
            if (mismatch != null) {
                throw columnError(file.name(), c, target, mismatch);
            }
            sources.add(found);
        }
        return sources;
    }

    private static ImportException columnError(String file, int c, ColumnSchema target, String message) {
        return new ImportException(file, 0, c + 1, file + ": column " + (c + 1) + " (" + target.name() + "): "
                + message);
    }

    private static RowBatch drain(Future<RowBatch> f, String file, TableSchema schema) {
        try {
            return f.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ImportException(file, file + ": interrupted", e);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RowGroupReader.Failure r) {
                StringBuilder m = new StringBuilder(file).append(": row ").append(r.row + 1).append(": ");
                if (r.column >= 0) {
                    m.append("column ").append(r.column + 1).append(" (")
                            .append(schema.columns().get(r.column).name()).append("): ");
                }
                m.append(r.getMessage());
                throw new ImportException(file, r.row + 1, r.column + 1, m.toString());
            }
            Throwable c = e.getCause();
            throw new ImportException(file, file + ": " + c, c);
        }
    }
}

package io.tessera.storage;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Writes one new version of a table: the previous rows (when appending), then every {@link RowBatch} handed to
 * {@link #write} in order, or written as parts on many threads at once ({@link #reserve}, then {@link #writePart}),
 * into files of a new generation. {@link #commit} finishes the files (sorted dictionaries, validity bitmaps,
 * statistics, checksums; columns in parallel, and the work within a column on all cores) and makes the version
 * current; {@link #close} without a commit deletes what was written, leaving the table exactly as it was.
 */
public final class TableWriter implements AutoCloseable {

    private final Database db;
    private final TableSchema schema;
    private final int baseGeneration;
    private final int generation;
    private final Path tableDir;
    private final ColumnSink[] sinks;
    /**
     * The forcing of the new files to disk, on threads of their own: column files forced while rows are still written,
     * each column's files handed over once final at commit, all awaited before any is renamed into place.
     */
    private final FileSyncs syncs;
    private long rows;
    /** Parts reserved and not yet written: first row to row count. */
    private final Map<Long, Integer> reserved = new ConcurrentHashMap<>();
    /** A reserved part's row count while it is being written (a part that failed keeps it: no commit then). */
    private static final int WRITING = -1;
    private volatile boolean done;
    private boolean createdFolder;
    private boolean holdsWriterLock;

    /**
     * A writer of table {@code schema} (replace or create), or, when {@code appendTo} is given, one that appends
     * to that table as the last committed write left it. Takes the database's writer lock until commit or close.
     */
    TableWriter(Database db, TableSchema schema, String appendTo) {
        this.db = db;
        db.beginWrite();
        holdsWriterLock = true;
        Table existing = null;
        try {
            if (appendTo != null) {
                existing = db.table(appendTo);
                schema = existing.schema();
            }
        } catch (RuntimeException e) {
            releaseWriterLock();
            throw e;
        }
        this.schema = schema;
        this.baseGeneration = existing == null ? -1 : existing.generation();
        this.generation = db.nextGeneration();
        this.tableDir = db.tableDir(schema.name());
        this.sinks = new ColumnSink[schema.columns().size()];
        this.syncs = new FileSyncs("table " + schema.name(), db.durable());
        try {
            createdFolder = !Files.exists(tableDir, LinkOption.NOFOLLOW_LINKS);
            Files.createDirectories(tableDir);
            db.checkInside(tableDir);
            for (int i = 0; i < sinks.length; i++) {
                sinks[i] = new ColumnSink(db, schema.name(), tableDir, generation, schema.columns().get(i), i, syncs);
            }
            if (existing != null) {
                rows = existing.rowCount();
                for (int i = 0; i < sinks.length; i++) {
                    sinks[i].copyFrom(existing.column(i), rows);
                }
            }
        } catch (IOException | RuntimeException e) {
            abort();
            throw e instanceof StorageException se ? se
                    : new StorageException("cannot start writing table " + schema.name() + ": " + e.getMessage(), e);
        }
    }

    private void releaseWriterLock() {
        if (holdsWriterLock) {
            holdsWriterLock = false;
            db.endWrite();
        }
    }

    public TableSchema schema() {
        return schema;
    }

    /** Rows the committed table will have (previous rows included). */
    public synchronized long rowCount() {
        return rows;
    }

    /** Appends a batch whose schema has this table's column types, after the rows written or reserved before. */
    public synchronized void write(RowBatch batch) {
        checkOpen();
        int n = check(batch);
        try {
            for (ColumnSink s : sinks) {
                s.write(batch.column(s.index), n, rows);
            }
        } catch (IOException e) {
            throw new StorageException("cannot write table " + schema.name() + ": " + e.getMessage(), e);
        }
        rows += n;
    }

    /**
     * Reserves the next {@code n} rows for a part that {@link #writePart} writes later, on any thread: parts are
     * written in parallel and appear in the table in the order of their reservations. Returns the part's first row.
     */
    public synchronized long reserve(int n) {
        checkOpen();
        if (n < 0) {
            throw new IllegalArgumentException("a part has at least 0 rows, not " + n);
        }
        long first = rows;
        reserved.put(first, n);
        rows += n;
        return first;
    }

    /**
     * Writes a part into the rows {@link #reserve} gave it ({@code firstRow}, as many as the batch has). Safe to call
     * from several threads at once: each part is encoded and written on the thread that writes it (its strings sorted
     * into a run of their own), and {@link #commit} merges what needs the whole table.
     */
    public void writePart(long firstRow, RowBatch batch) {
        checkOpen();
        int n = check(batch);
        if (!reserved.replace(firstRow, n, WRITING)) {
            throw new IllegalArgumentException("no part of " + n + " rows was reserved at row " + firstRow
                    + " of table " + schema.name());
        }
        try {
            for (ColumnSink s : sinks) {
                s.writePart(batch.column(s.index), n, firstRow);
            }
        } catch (IOException e) {
            throw new StorageException("cannot write table " + schema.name() + ": " + e.getMessage(), e);
        }
        reserved.remove(firstRow);
    }

    /** The batch's row count, after checking that its columns fit the table's. */
    private int check(RowBatch batch) {
        int n = batch.rowCount();
        if (batch.columnCount() != sinks.length) {
            throw new IllegalArgumentException("batch has " + batch.columnCount() + " columns, table " + schema.name()
                    + " has " + sinks.length);
        }
        for (int i = 0; i < sinks.length; i++) {
            ColumnBuilder b = batch.column(i);
            if (b.type().kind() != schema.columns().get(i).type().kind()) {
                throw new IllegalArgumentException("column " + schema.columns().get(i).name() + " is "
                        + schema.columns().get(i).type() + ", the batch has " + b.type());
            }
            if (b.hasNulls() && !schema.columns().get(i).nullable()) {
                throw new IllegalArgumentException("column " + schema.columns().get(i).name() + " is NOT NULL");
            }
        }
        return n;
    }

    /** Finishes the files and makes this version of the table current. */
    public synchronized Table commit() {
        checkOpen();
        if (!reserved.isEmpty()) {
            throw new IllegalStateException(reserved.size() + " reserved parts of table " + schema.name()
                    + " were not written");
        }
        try {
            Manifest.ColumnEntry[] finished = new Manifest.ColumnEntry[sinks.length];
            // each column's files forced as soon as they are final, beside the columns still being finished; all on
            // disk before any is renamed into place. The columns with most to do start first (a large VARCHAR
            // column's merge), and the threads that finish the others then take its ranges.
            long[] work = new long[sinks.length];
            for (int i = 0; i < sinks.length; i++) {
                work[i] = sinks[i].commitWork(rows);
            }
            ClaimedTasks.run(ClaimedTasks.largestFirst(work), i -> finished[i] = sinks[i].finish(rows));
            syncs.await();
            List<Manifest.ColumnEntry> entries = new ArrayList<>(Arrays.asList(finished));
            for (ColumnSink s : sinks) {
                s.renameIntoPlace();
            }
            Database.forceDirectory(tableDir);
            Table t = db.commit(new Manifest.TableEntry(schema, rows, generation, entries), baseGeneration);
            done = true;
            releaseWriterLock();
            return t;
        } catch (RuntimeException e) {
            abort();
            throw e instanceof StorageException se ? se
                    : new StorageException("cannot commit table " + schema.name() + ": " + e.getMessage(), e);
        }
    }

    private void checkOpen() {
        if (done) {
            throw new IllegalStateException("writer of table " + schema.name() + " is already finished");
        }
    }

    /** Without a commit: removes every file this writer made; the table stays as it was. */
    @Override
    public synchronized void close() {
        if (!done) {
            abort();
        }
    }

    private void abort() {
        done = true;
        try {
            // no thread forces a file while it is removed
            syncs.close();
            for (ColumnSink s : sinks) {
                if (s != null) {
                    s.discard();
                }
            }
            if (createdFolder) {
                try {
                    Files.deleteIfExists(tableDir); // only when empty
                } catch (IOException e) {
                    // the folder stays; it holds nothing the manifest names
                }
            }
        } finally {
            releaseWriterLock();
        }
    }
}

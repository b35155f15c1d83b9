package io.tessera.storage;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import java.util.zip.CRC32C;

/**
 * A database directory: {@code manifest.json} plus one folder per table holding one file per column (values,
 * validity, dictionary). Files are memory-mapped for reading. Writes go through {@link TableWriter}: new files
 * under new names, then the manifest is written to a temporary file and renamed over the old one, so a write
 * that stops at any point leaves the previous state readable. One writer at a time per directory.
 */
public final class Database implements AutoCloseable {

    private final Path dir;
    private final Arena arena = Arena.ofShared();
    private Manifest manifest;
    private final Map<String, Table> tables = new LinkedHashMap<>();
    private boolean closed;

    /** Test hook: runs just before the manifest is renamed into place (a test makes it throw to simulate a crash). */
    static volatile Runnable beforeManifestRename = () -> { };

    private Database(Path dir, Manifest manifest) {
        this.dir = dir;
        load(manifest);
    }

    /** Opens an existing database; fails when the directory holds none or a file is missing or truncated. */
    public static Database open(Path dir) {
        Path m = dir.resolve(Manifest.FILE_NAME);
        if (!Files.isRegularFile(m)) {
            throw new StorageException("no Tessera database at " + dir + " (no " + Manifest.FILE_NAME + ")");
        }
        try {
            return new Database(dir, Manifest.parse(Files.readAllBytes(m), m.toString()));
        } catch (IOException e) {
            throw new StorageException("cannot read " + m + ": " + e.getMessage(), e);
        }
    }

    /** Opens the database in {@code dir}, creating an empty one when there is none. */
    public static Database openOrCreate(Path dir) {
        if (Files.isRegularFile(dir.resolve(Manifest.FILE_NAME))) {
            return open(dir);
        }
        try {
            Files.createDirectories(dir);
            try (Stream<Path> s = Files.list(dir)) {
                if (s.anyMatch(p -> !p.getFileName().toString().startsWith("."))) {
                    throw new StorageException("cannot create a database in " + dir
                            + ": the directory is not empty and holds no " + Manifest.FILE_NAME);
                }
            }
        } catch (IOException e) {
            throw new StorageException("cannot create database directory " + dir + ": " + e.getMessage(), e);
        }
        Database db = new Database(dir, new Manifest(List.of()));
        db.writeManifest(db.manifest);
        return db;
    }

    public Path directory() {
        return dir;
    }

    public synchronized List<Table> tables() {
        return List.copyOf(tables.values());
    }

    public synchronized boolean hasTable(String name) {
        return tables.containsKey(name.toLowerCase(Locale.ROOT));
    }

    public synchronized Table table(String name) {
        Table t = tables.get(name.toLowerCase(Locale.ROOT));
        if (t == null) {
            throw new StorageException("no table " + name + " in database " + dir);
        }
        return t;
    }

    /** Creates an empty table; fails when one of that name exists. */
    public Table createTable(TableSchema schema) {
        if (hasTable(schema.name())) {
            throw new StorageException("table " + schema.name() + " already exists in " + dir);
        }
        try (TableWriter w = new TableWriter(this, schema, null)) {
            return w.commit();
        }
    }

    /** A writer that appends rows to an existing table. */
    public TableWriter append(String table) {
        Table t = table(table);
        return new TableWriter(this, t.schema(), t);
    }

    /** A writer whose commit replaces the table's content (or creates the table) with what it was given. */
    public TableWriter replace(TableSchema schema) {
        return new TableWriter(this, schema, null);
    }

    public void dropTable(String name) {
        Table t = table(name);
        synchronized (this) {
            writeManifest(manifest.with(t.name(), null));
            load(manifest.with(t.name(), null));
        }
        deleteTree(dir.resolve(t.name()));
    }

    /** Folder of a table's files. */
    Path tableDir(String table) {
        return dir.resolve(table.toLowerCase(Locale.ROOT));
    }

    synchronized int nextGeneration(String table) {
        Manifest.TableEntry e = manifest.table(table);
        return e == null ? 1 : e.generation() + 1;
    }

    /** Makes a written table version the current one: manifest renamed into place, unreferenced files removed. */
    synchronized Table commit(Manifest.TableEntry entry) {
        Manifest next = manifest.with(entry.schema().name(), entry);
        writeManifest(next);
        load(next);
        removeUnreferenced(entry);
        return tables.get(entry.schema().name().toLowerCase(Locale.ROOT));
    }

    private void removeUnreferenced(Manifest.TableEntry entry) {
        Set<String> keep = new HashSet<>();
        for (Manifest.ColumnEntry c : entry.columns()) {
            keep.add(c.data().path());
            if (c.validity() != null) {
                keep.add(c.validity().path());
            }
            if (c.dictionary() != null) {
                keep.add(c.dictionary().path());
            }
        }
        Path tdir = tableDir(entry.schema().name());
        try (Stream<Path> files = Files.list(tdir)) {
            for (Path p : (Iterable<Path>) files::iterator) {
                String rel = dir.relativize(p).toString();
                if (!keep.contains(rel)) {
                    Files.deleteIfExists(p); // older generations; still mapped readers keep their pages
                }
            }
        } catch (IOException e) {
            // leftover files cost space, never correctness: the manifest names the files in use
        }
    }

    private void writeManifest(Manifest next) {
        Path target = dir.resolve(Manifest.FILE_NAME);
        Path tmp = dir.resolve(Manifest.FILE_NAME + ".tmp");
        try {
            writeDurably(tmp, next.toJson());
            beforeManifestRename.run();
            try {
                Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING);
            }
            forceDirectory(dir);
        } catch (IOException e) {
            throw new StorageException("cannot write " + target + ": " + e.getMessage(), e);
        }
        manifest = next;
    }

    static void writeDurably(Path file, byte[] bytes) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
            ByteBuffer b = ByteBuffer.wrap(bytes);
            while (b.hasRemaining()) {
                ch.write(b);
            }
            ch.force(true);
        }
    }

    static void forceDirectory(Path d) {
        try (FileChannel ch = FileChannel.open(d, StandardOpenOption.READ)) {
            ch.force(true);
        } catch (IOException | UnsupportedOperationException e) {
            // not every file system lets a directory be synced; the rename itself is still atomic
        }
    }

    private void load(Manifest m) {
        Map<String, Table> next = new LinkedHashMap<>();
        for (Manifest.TableEntry t : m.tables()) {
            List<Column> cols = new ArrayList<>();
            for (int i = 0; i < t.columns().size(); i++) {
                Manifest.ColumnEntry c = t.columns().get(i);
                checkPresent(c.data());
                checkPresent(c.validity());
                checkPresent(c.dictionary());
                cols.add(new Column(t.schema().columns().get(i), t.rows(), c.stats(), c.data(), c.validity(),
                        c.dictionary(), this::map));
            }
            next.put(t.schema().name().toLowerCase(Locale.ROOT), new Table(t.schema(), t.rows(), t.generation(), cols));
        }
        manifest = m;
        tables.clear();
        tables.putAll(next);
    }

    private void checkPresent(FileEntry f) {
        if (f == null) {
            return;
        }
        Path p = dir.resolve(f.path());
        long size;
        try {
            size = Files.size(p);
        } catch (NoSuchFileException e) {
            throw new StorageException("damaged database " + dir + ": file " + p + " is missing");
        } catch (IOException e) {
            throw new StorageException("damaged database " + dir + ": cannot read " + p + ": " + e.getMessage(), e);
        }
        if (size != f.bytes()) {
            throw new StorageException("damaged database " + dir + ": file " + p + " has " + size
                    + " bytes, the manifest says " + f.bytes() + (size < f.bytes() ? " (truncated)" : ""));
        }
    }

    /** Maps a file read-only and verifies its CRC32C against the manifest. */
    private MemorySegment map(FileEntry f) {
        Path p = dir.resolve(f.path());
        synchronized (this) {
            if (closed) {
                throw new StorageException("database " + dir + " is closed");
            }
        }
        checkPresent(f);
        if (f.bytes() == 0) {
            return MemorySegment.NULL;
        }
        try (FileChannel ch = FileChannel.open(p, StandardOpenOption.READ)) {
            MemorySegment seg = ch.map(FileChannel.MapMode.READ_ONLY, 0, f.bytes(), arena);
            long crc = crc32c(seg);
            if (crc != f.crc32c()) {
                throw new StorageException("damaged database " + dir + ": checksum mismatch in " + p
                        + " (CRC32C " + Long.toHexString(crc) + ", the manifest says " + Long.toHexString(f.crc32c()) + ")");
            }
            return seg;
        } catch (IOException e) {
            throw new StorageException("cannot map " + p + ": " + e.getMessage(), e);
        }
    }

    static long crc32c(MemorySegment seg) {
        CRC32C crc = new CRC32C();
        long size = seg.byteSize();
        final long chunk = 1L << 30;
        for (long off = 0; off < size; off += chunk) {
            crc.update(seg.asSlice(off, Math.min(chunk, size - off)).asByteBuffer());
        }
        return crc.getValue();
    }

    /** Deletes a directory and everything under it (nothing when it does not exist). */
    public static void deleteTree(Path p) {
        if (!Files.exists(p)) {
            return;
        }
        try (Stream<Path> s = Files.walk(p)) {
            for (Path q : s.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(q);
            }
        } catch (IOException e) {
            throw new StorageException("cannot delete " + p + ": " + e.getMessage(), e);
        }
    }

    /** Unmaps every file. Columns read from this database must not be used afterwards. */
    @Override
    public synchronized void close() {
        if (!closed) {
            closed = true;
            arena.close();
        }
    }
}

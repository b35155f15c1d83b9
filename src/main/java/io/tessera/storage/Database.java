package io.tessera.storage;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import java.util.stream.Stream;

/**
 * A database directory: {@code manifest.json} plus one folder per table holding one file per column (values,
 * validity, dictionary). Files are memory-mapped for reading. Writes go through {@link TableWriter}: new files
 * under new names, then the manifest is written to a temporary file and renamed over the old one, so a write
 * that stops at any point leaves the previous state readable.
 *
 * <p>One writer at a time per directory, in any process: a write takes the writer lock ({@link DatabaseLocks}),
 * waiting for another writer (saying so on standard error) or, after {@code waitForOtherWriters(false)}, failing
 * at once. A write starts from the manifest on disk as it finds it once it holds the lock.
 *
 * <p>Snapshot reads: a {@code Database} reads the state of the manifest it loaded at open (or at its own last
 * write, or {@link #refresh}) and holds a shared lock on each table generation of that state, so no writer
 * deletes those files while it is open. A writer retires the generation it replaces and deletes its files (only
 * the files the manifest named) once no reader holds it; otherwise a later writer does.
 *
 * <p>Every file is opened only after checking that its real path lies inside the database's real path, so
 * neither a manifest nor a symbolic link can make Tessera read, write or delete a file elsewhere. A table whose
 * files are missing or damaged fails alone, when it is read, naming the file; the other tables stay usable.
 */
public final class Database implements AutoCloseable {

    private final Path dir;
    private final Path realDir;
    // whether writes are forced to disk before they are made visible (not for a statement's temporary tables)
    private final boolean durable;
    private final DatabaseLocks locks;
    private final DatabaseFiles files;
    private final Arena arena = Arena.ofShared();
    private Manifest manifest;
    private byte[] loadedBytes; // the manifest file as last loaded from disk
    private Manifest tablesFrom; // the manifest the tables were made from
    private final Map<String, Table> tables = new LinkedHashMap<>();
    private Set<Path> held = new HashSet<>(); // generation lock files this database holds shared
    private boolean closed;
    private int reservedGeneration;

    private final Object writeMutex = new Object();
    private int writeHolds; // guarded by writeMutex
    private DatabaseLocks.WriterLock writerLock; // guarded by writeMutex
    private volatile boolean waitForWriters = true;
    private volatile Consumer<String> waitNotice = line -> {
        System.err.println(line);
        System.err.flush();
    };

    /** Test hook: runs just before the manifest is renamed into place (a test makes it throw to simulate a crash). */
    static volatile Runnable beforeManifestRename = () -> { };

    private Database(Path dir) {
        this(dir, true);
    }

    private Database(Path dir, boolean durable) {
        this.dir = dir;
        this.durable = durable;
        try {
            this.realDir = dir.toRealPath();
        } catch (IOException e) {
            throw new StorageException("cannot open database directory " + dir + ": " + e.getMessage(), e);
        }
        this.locks = DatabaseLocks.of(realDir);
        this.files = new DatabaseFiles(dir, realDir);
    }

    /** Whether {@code dir} holds a database (its manifest). */
    public static boolean exists(Path dir) {
        return Files.isRegularFile(dir.resolve(Manifest.FILE_NAME));
    }

    /** Opens an existing database; fails when the directory holds none or its manifest is damaged. */
    public static Database open(Path dir) {
        Path m = dir.resolve(Manifest.FILE_NAME);
        if (!Files.isRegularFile(m)) {
            throw new StorageException("no Tessera database at " + dir + " (no " + Manifest.FILE_NAME + ")");
        }
        Database db = new Database(dir);
        try {
            db.loadLatest();
        } catch (RuntimeException e) {
            db.close();
            throw e;
        }
        return db;
    }

    /** Opens the database in {@code dir}, creating an empty one when there is none. */
    public static Database openOrCreate(Path dir) {
        return openOrCreate(dir, true);
    }

    /**
     * Opens the database in {@code dir}, creating an empty one when there is none; {@code waitForOtherWriters}
     * as {@link #waitForOtherWriters} (creating the database is a write).
     */
    public static Database openOrCreate(Path dir, boolean waitForOtherWriters) {
        if (Files.isRegularFile(dir.resolve(Manifest.FILE_NAME))) {
            return open(dir).waitForOtherWriters(waitForOtherWriters);
        }
        return create(dir, waitForOtherWriters, true);
    }

    /**
     * Creates an empty database in {@code dir} (which holds none) whose writes are never forced to disk: a
     * statement's temporary tables, deleted when it ends, which no crash needs to keep. Writes stay atomic to
     * readers (new files, then the manifest renamed into place); only waiting for the disk is left out.
     */
    public static Database createTemporary(Path dir) {
        if (Files.isRegularFile(dir.resolve(Manifest.FILE_NAME))) {
            throw new StorageException("cannot make a temporary database in " + dir + ": it holds a database");
        }
        return create(dir, true, false);
    }

    private static Database create(Path dir, boolean waitForOtherWriters, boolean durable) {
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new StorageException("cannot create database directory " + dir + ": " + e.getMessage(), e);
        }
        Database db = new Database(dir, durable).waitForOtherWriters(waitForOtherWriters);
        try (WriteLock w = db.lockForWriting()) {
            synchronized (db) {
                if (db.manifest == null) {
                    try (Stream<Path> s = Files.list(dir)) {
                        if (s.anyMatch(p -> !p.getFileName().toString().startsWith("."))) {
                            throw new StorageException("cannot create a database in " + dir
                                    + ": the directory is not empty and holds no " + Manifest.FILE_NAME);
                        }
                    } catch (IOException e) {
                        throw new StorageException("cannot read directory " + dir + ": " + e.getMessage(), e);
                    }
                    Manifest empty = new Manifest(List.of());
                    db.writeManifest(empty);
                    db.load(empty);
                }
            }
        } catch (RuntimeException e) {
            db.close();
            throw e;
        }
        return db;
    }

    public Path directory() {
        return dir;
    }

    /**
     * Whether a write waits for another writer of this database (the default, saying so on standard error) or
     * fails at once naming it. Returns this database.
     */
    public Database waitForOtherWriters(boolean wait) {
        this.waitForWriters = wait;
        return this;
    }

    /** Where the line saying that a write waits for another writer goes (standard error by default). */
    void onWaitForWriter(Consumer<String> notice) {
        this.waitNotice = notice;
    }

    /** The writer lock of the database, held until closed; writes of this database inside it do not wait again. */
    public final class WriteLock implements AutoCloseable {
        private boolean closed;

        private WriteLock() {
        }

        @Override
        public void close() {
            if (!closed) {
                closed = true;
                endWrite();
            }
        }
    }

    /**
     * Takes the writer lock for several writes in a row (each write takes it by itself otherwise); this database
     * then shows the latest committed state.
     */
    public WriteLock lockForWriting() {
        beginWrite();
        return new WriteLock();
    }

    void beginWrite() {
        synchronized (writeMutex) {
            if (writeHolds == 0) {
                synchronized (this) {
                    checkOpen();
                }
                writerLock = locks.lockWriter(dir, waitForWriters, waitNotice);
                try {
                    if (Files.exists(dir.resolve(Manifest.FILE_NAME), LinkOption.NOFOLLOW_LINKS)) {
                        loadLatest(); // a write starts from what the last writer committed
                    }
                } catch (RuntimeException e) {
                    writerLock.close();
                    writerLock = null;
                    throw e;
                }
            }
            writeHolds++;
        }
    }

    void endWrite() {
        synchronized (writeMutex) {
            if (writeHolds > 0 && --writeHolds == 0) {
                writerLock.close();
                writerLock = null;
            }
        }
    }

    /**
     * Switches this database to the latest committed state. Tables and columns obtained before are no longer
     * protected from a writer's clean-up afterwards: call it only where nothing still reads them.
     */
    public void refresh() {
        synchronized (writeMutex) {
            if (writeHolds == 0) {
                loadLatest();
            }
        }
    }

    /**
     * The committed state this database reads, as an object that stays the same exactly while that state does (a
     * write, or a refresh that finds another, gives a new one): what a kept plan was made for.
     */
    public synchronized Object state() {
        return manifest == null ? this : manifest;
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

    /** The views of the state this database reads, in the order they were made. */
    public synchronized List<View> views() {
        return manifest == null ? List.of() : manifest.views();
    }

    public synchronized View view(String name) {
        return manifest == null ? null : manifest.view(name);
    }

    /**
     * Stores a view ({@code replace}: in place of the view of that name); fails when a table has its name, or a
     * view does and {@code replace} is false.
     */
    public void createView(View view, boolean replace) {
        changeManifest(m -> {
            if (hasTable(view.name())) {
                throw new StorageException("a table named " + view.name() + " exists in " + dir);
            }
            if (!replace && m.view(view.name()) != null) {
                throw new StorageException("view " + view.name() + " already exists in " + dir);
            }
            return m.withView(view.name(), view);
        });
    }

    /** Removes a view; fails when there is none of that name. */
    public void dropView(String name) {
        changeManifest(m -> {
            if (m.view(name) == null) {
                throw new StorageException("no view " + name + " in database " + dir);
            }
            return m.withView(name, null);
        });
    }

    /** The macros of the state this database reads (CREATE MACRO), in the order they were made. */
    public synchronized List<Macro> macros() {
        return manifest == null ? List.of() : manifest.macros();
    }

    /**
     * Stores a macro ({@code replace}: in place of the macro of that name); fails when a macro has its name and
     * {@code replace} is false. Macros have names of their own, apart from tables' and views'.
     */
    public void createMacro(Macro macro, boolean replace) {
        changeManifest(m -> {
            if (!replace && m.macro(macro.name()) != null) {
                throw new StorageException("macro " + macro.name() + " already exists in " + dir);
            }
            return m.withMacro(macro.name(), macro);
        });
    }

    /** Removes a macro; fails when there is none of that name. */
    public void dropMacro(String name) {
        changeManifest(m -> {
            if (m.macro(name) == null) {
                throw new StorageException("no macro " + name + " in database " + dir);
            }
            return m.withMacro(name, null);
        });
    }

    /** The sequences of the state this database reads, each with its state then. */
    public synchronized List<Sequence> sequences() {
        return manifest == null ? List.of() : manifest.sequences();
    }

    public synchronized Sequence sequence(String name) {
        return manifest == null ? null : manifest.sequence(name);
    }

    /**
     * Stores a new sequence ({@code replace}: in place of the sequence of that name, its state lost); fails when a
     * sequence has its name and {@code replace} is false.
     */
    public void createSequence(Sequence sequence, boolean replace) {
        changeManifest(m -> {
            if (!replace && m.sequence(sequence.name()) != null) {
                throw new StorageException("Catalog Error: Sequence with name \"" + sequence.name()
                        + "\" already exists!");
            }
            return m.withSequence(sequence.name(), sequence);
        });
    }

    /** Removes a sequence; fails when there is none of that name. */
    public void dropSequence(String name) {
        changeManifest(m -> {
            if (m.sequence(name) == null) {
                throw new StorageException(SequenceCounters.missing(name));
            }
            return m.withSequence(name, null);
        });
    }

    /**
     * Keeps the state a statement left its sequences in ({@code changed}: each an existing sequence's); the caller
     * holds the writer lock from before the statement read their state ({@link #lockForWriting}), so no other
     * writer handed out values in between. A sequence dropped meanwhile (by the statement itself) stays dropped.
     */
    public void keepSequences(List<Sequence> changed) {
        if (changed.isEmpty()) {
            return;
        }
        changeManifest(m -> {
            Manifest next = m;
            for (Sequence q : changed) {
                if (next.sequence(q.name()) != null) {
                    next = next.withSequence(q.name(), q);
                }
            }
            return next;
        });
    }

    /** Creates an empty table; fails when one of that name exists. */
    public Table createTable(TableSchema schema) {
        beginWrite();
        try {
            if (hasTable(schema.name())) {
                throw new StorageException("table " + schema.name() + " already exists in " + dir);
            }
            if (view(schema.name()) != null) {
                throw new StorageException("a view named " + schema.name() + " exists in " + dir);
            }
            try (TableWriter w = new TableWriter(this, schema, null)) {
                return w.commit();
            }
        } finally {
            endWrite();
        }
    }

    /** A writer that appends rows to an existing table (as the last committed write left it). */
    public TableWriter append(String table) {
        return new TableWriter(this, null, table);
    }

    /** A writer whose commit replaces the table's content (or creates the table) with what it was given. */
    public TableWriter replace(TableSchema schema) {
        return new TableWriter(this, schema, null);
    }

    /** Drops a table: its files are deleted once no reader holds them. */
    public void dropTable(String name) {
        changeManifest(m -> {
            Manifest.TableEntry cur = existing(m, name);
            return m.with(cur.schema().name(), null).retiring(cur);
        });
    }

    /**
     * Writes the manifest that {@code change} makes of the current one (the change's commit) under the writer lock,
     * then deletes the files of the versions it retired that no reader holds.
     */
    private void changeManifest(java.util.function.UnaryOperator<Manifest> change) {
        beginWrite();
        try {
            synchronized (this) {
                Manifest next = change.apply(manifest);
                writeManifest(next);
                load(next);
                collectRetired();
            }
        } finally {
            endWrite();
        }
    }

    /** Table {@code name}'s entry in {@code m}; fails when there is none. */
    private Manifest.TableEntry existing(Manifest m, String name) {
        Manifest.TableEntry cur = m.table(name);
        if (cur == null) {
            throw new StorageException("no table " + name + " in database " + dir);
        }
        return cur;
    }

    /**
     * ALTER TABLE without rewriting data: a new version of {@code table} whose column {@code i} is the stored column
     * {@code from[i]} under {@code schema}'s name, nullability and keys (same type), its files kept; the files of
     * the columns left out are deleted once no reader holds the version before. One manifest write commits it.
     */
    public Table alterColumns(String table, TableSchema schema, int[] from) {
        changeManifest(m -> m.withColumnsOf(existing(m, table), schema, from, nextGeneration()));
        synchronized (this) {
            return tables.get(schema.name().toLowerCase(Locale.ROOT));
        }
    }

    /**
     * ALTER TABLE ... RENAME TO: the table under {@code newName}, its data not rewritten. Where the name's folder
     * changes, each file is linked (or, where the file system cannot link, copied) into the new folder under the new
     * version's name before the manifest is written: a crash before that write leaves the old table whole (and
     * files no manifest names), after it the new one; the old folder's files go once no reader holds them.
     */
    public Table renameTable(String table, String newName) {
        changeManifest(m -> {
            Manifest.TableEntry cur = existing(m, table);
            boolean sameName = cur.schema().name().equalsIgnoreCase(newName);
            if (!sameName && (m.table(newName) != null || m.view(newName) != null)) {
                throw new StorageException("a table or view named " + newName + " exists in " + dir);
            }
            // a foreign key of the table to itself follows the new name
            List<ForeignKey> foreignKeys = cur.schema().foreignKeys().stream().map(f -> f.references(table)
                    ? new ForeignKey(f.columns(), newName, f.referenced()) : f).toList();
            TableSchema schema = new TableSchema(newName, cur.schema().columns(), cur.schema().keys(),
                    cur.schema().checks(), foreignKeys, cur.schema().indexes());
            int generation = nextGeneration();
            List<Manifest.ColumnEntry> columns = sameName ? cur.columns()
                    : RenamedFiles.link(this, cur, newName, generation);
            Manifest.TableEntry next = new Manifest.TableEntry(schema, cur.rows(), generation, columns);
            return m.with(cur.schema().name(), null).with(newName, next)
                    .retiring(cur, sameName ? List.of() : Manifest.files(cur));
        });
        synchronized (this) {
            return tables.get(newName.toLowerCase(Locale.ROOT));
        }
    }

    /** Folder of a table's files. */
    Path tableDir(String table) {
        return dir.resolve(table.toLowerCase(Locale.ROOT));
    }

    /** The lock file readers of one table generation hold shared. */
    private Path generationLock(String table, int generation) {
        return tableDir(table).resolve("g" + generation + ".lock");
    }

    /** A new generation number, never used before in this database. */
    synchronized int nextGeneration() {
        reservedGeneration = Math.max(reservedGeneration, manifest == null ? 0 : manifest.lastGeneration()) + 1;
        return reservedGeneration;
    }

    /**
     * Makes a written table version the current one: manifest renamed into place, the replaced version retired
     * and its files deleted once no reader holds it. {@code baseGeneration}: the generation an append started
     * from (it must still be current), or -1 for a replace.
     */
    Table commit(Manifest.TableEntry entry, int baseGeneration) {
        synchronized (writeMutex) {
            if (writeHolds == 0) {
                throw new IllegalStateException("commit without the writer lock of " + dir);
            }
        }
        synchronized (this) {
            return commitLocked(entry, baseGeneration);
        }
    }

    private Table commitLocked(Manifest.TableEntry entry, int baseGeneration) {
        String name = entry.schema().name();
        Manifest.TableEntry cur = manifest.table(name);
        if (baseGeneration >= 0 && (cur == null || cur.generation() != baseGeneration)) {
            throw new StorageException("table " + name + " of " + dir + " changed while rows were being appended;"
                    + " nothing was committed");
        }
        Manifest next = manifest.with(name, entry).retiring(cur);
        writeManifest(next);
        load(next);
        collectRetired();
        return tables.get(name.toLowerCase(Locale.ROOT));
    }

    /** Deletes the files of every retired generation no reader holds, and forgets those generations. */
    private void collectRetired() {
        List<Manifest.Retired> done = new ArrayList<>();
        for (Manifest.Retired r : manifest.retired()) {
            try {
                if (collect(r)) {
                    done.add(r);
                }
            } catch (IOException | StorageException e) {
                // left in place for a later writer: leftover files cost space, never correctness
            }
        }
        if (!done.isEmpty()) {
            writeManifest(manifest.withoutRetired(done));
        }
    }

    private boolean collect(Manifest.Retired r) throws IOException {
        Path folder = tableDir(r.table());
        if (!Files.exists(folder, LinkOption.NOFOLLOW_LINKS)) {
            return true;
        }
        files.inside(folder);
        boolean done;
        try {
            done = locks.collect(generationLock(r.table(), r.generation()), () -> {
                for (String f : r.files()) {
                    Files.deleteIfExists(dir.resolve(f)); // a symbolic link itself, never what it points to
                }
            });
        } catch (NoSuchFileException e) {
            return !Files.exists(folder, LinkOption.NOFOLLOW_LINKS);
        }
        if (done && manifest.table(r.table()) == null) {
            try {
                Files.deleteIfExists(folder); // only when empty: files the manifest never named stay
            } catch (DirectoryNotEmptyException e) {
                // a reader's lock file, or a file Tessera did not write
            }
        }
        return done;
    }

    private void writeManifest(Manifest next) {
        Path target = dir.resolve(Manifest.FILE_NAME);
        Path tmp = dir.resolve(Manifest.FILE_NAME + ".tmp");
        try {
            write(tmp, next.toJson(), durable);
            beforeManifestRename.run();
            try {
                Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING);
            }
            if (durable) {
                forceDirectory(dir);
            }
            loadedBytes = null;
        } catch (IOException e) {
            throw new StorageException("cannot write " + target + ": " + e.getMessage(), e);
        }
        manifest = next;
    }

    /** Writes {@code bytes} to a new {@code file}; {@code force}: on disk when this returns. */
    static void write(Path file, byte[] bytes, boolean force) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING, LinkOption.NOFOLLOW_LINKS)) {
            ByteBuffer b = ByteBuffer.wrap(bytes);
            while (b.hasRemaining()) {
                ch.write(b);
            }
            if (force) {
                ch.force(true);
            }
        }
    }

    /** Whether writes are forced to disk before they are made visible ({@link #createTemporary}: not). */
    boolean durable() {
        return durable;
    }

    static void forceDirectory(Path d) {
        try (FileChannel ch = FileChannel.open(d, StandardOpenOption.READ)) {
            ch.force(true);
        } catch (IOException | UnsupportedOperationException e) {
            // not every file system lets a directory be synced; the rename itself is still atomic
        }
    }

    private byte[] readManifest() {
        Path m = dir.resolve(Manifest.FILE_NAME);
        try {
            files.inside(m);
            return Files.readAllBytes(m);
        } catch (NoSuchFileException e) {
            throw new StorageException("no Tessera database at " + dir + " (no " + Manifest.FILE_NAME + ")");
        } catch (IOException e) {
            throw new StorageException("cannot read " + m + ": " + e.getMessage(), e);
        }
    }

    /**
     * Loads the manifest on disk. Files found missing while a writer replaced the manifest meanwhile mean that
     * writer collected the generation just read: read again. Files missing from an unchanged manifest are damage.
     */
    private synchronized void loadLatest() {
        checkOpen();
        String name = dir.resolve(Manifest.FILE_NAME).toString();
        for (int attempt = 0; ; attempt++) {
            byte[] bytes = readManifest();
            if (Arrays.equals(bytes, loadedBytes)) {
                return;
            }
            loadedBytes = bytes;
            boolean complete = load(Manifest.parse(bytes, name));
            if (complete || attempt >= 100 || Arrays.equals(bytes, readManifest())) {
                return;
            }
        }
    }

    /**
     * Makes {@code m} this database's state, holding the lock of each of its table generations (and releasing
     * those of the state before). Returns false when some table's files are missing or damaged: that table
     * stays listed and fails when read, naming its file.
     */
    private boolean load(Manifest m) {
        Map<String, Table> next = new LinkedHashMap<>();
        Set<Path> nextHeld = new HashSet<>();
        boolean complete = true;
        try {
            for (Manifest.TableEntry t : m.tables()) {
                try {
                    Path folder = tableDir(t.schema().name());
                    if (Files.exists(folder, LinkOption.NOFOLLOW_LINKS)) {
                        files.inside(folder);
                        Path lock = generationLock(t.schema().name(), t.generation());
                        if (nextHeld.add(lock) && !held.contains(lock)) {
                            locks.hold(lock);
                            held.add(lock);
                        }
                    }
                    for (Manifest.ColumnEntry c : t.columns()) {
                        files.checkPresent(c.data());
                        files.checkPresent(c.validity());
                        files.checkPresent(c.dictionary());
                    }
                } catch (StorageException | IOException e) {
                    complete = false; // this table fails alone, when read
                }
                String key = t.schema().name().toLowerCase(Locale.ROOT);
                if (tablesFrom != null && t.equals(tablesFrom.table(key)) && tables.containsKey(key)) {
                    next.put(key, tables.get(key)); // the same generation: keep what is mapped already
                    continue;
                }
                List<Column> cols = new ArrayList<>();
                for (int i = 0; i < t.columns().size(); i++) {
                    Manifest.ColumnEntry c = t.columns().get(i);
                    cols.add(new Column(t.schema().columns().get(i), t.rows(), c.stats(), c.data(), c.validity(),
                            c.dictionary(), this::map));
                }
                next.put(t.schema().name().toLowerCase(Locale.ROOT),
                        new Table(t.schema(), t.rows(), t.generation(), cols));
            }
        } finally {
            for (Path p : held) {
                if (!nextHeld.contains(p)) {
                    locks.release(p);
                }
            }
            held.retainAll(nextHeld);
        }
        manifest = m;
        tablesFrom = m;
        tables.clear();
        tables.putAll(next);
        return complete;
    }

    /** The real path of a file the manifest names, checked to lie inside the database. */
    Path resolve(FileEntry f) {
        return files.resolve(f);
    }

    /** Checks that a folder the database writes into lies inside it. */
    void checkInside(Path folder) {
        files.checkInside(folder);
    }

    /** Maps a file read-only and verifies its CRC32C against the manifest. */
    private MemorySegment map(FileEntry f) {
        synchronized (this) {
            checkOpen();
        }
        return files.map(f, arena);
    }

    private void checkOpen() {
        if (closed) {
            throw new StorageException("database " + dir + " is closed");
        }
    }

    /** The CRC-32C of a file's bytes, in pieces on all cores where it is large. */
    static long crc32c(MemorySegment seg) {
        return Crc32cParts.of(seg);
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
    public void close() {
        synchronized (writeMutex) {
            if (writeHolds > 0) {
                writeHolds = 0;
                writerLock.close();
                writerLock = null;
            }
        }
        synchronized (this) {
            if (!closed) {
                closed = true;
                for (Path p : held) {
                    locks.release(p);
                }
                held.clear();
                arena.close();
            }
        }
    }
}

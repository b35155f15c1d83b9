package io.tessera.storage;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.function.Consumer;

/**
 * The locks of one database directory, shared by every {@link Database} of this JVM that opens it (operating
 * system file locks belong to the whole process, so the JVM needs its own bookkeeping on top of them).
 *
 * <p>Writer lock: {@value #WRITER_LOCK} in the database directory, locked exclusively by the one writer, which
 * writes its process id into it for whoever waits; within the JVM a semaphore orders the writers first.
 *
 * <p>Generation locks: {@code <table>/g<N>.lock}. A reader holds a shared lock on the lock file of every table
 * generation it may read; a writer deletes a retired generation's files only while it holds that lock
 * exclusively, and deletes the lock file with them. A reader checks that the files are still there once it
 * holds its lock, so a generation is either protected or visibly gone.
 */
final class DatabaseLocks {

    static final String WRITER_LOCK = ".writer.lock";

    private static final Map<Path, DatabaseLocks> BY_DIRECTORY = new ConcurrentHashMap<>();

    private final Path dir;
    private final Semaphore writers = new Semaphore(1, true);
    private final Map<Path, Held> generations = new HashMap<>(); // guarded by this

    private DatabaseLocks(Path realDir) {
        this.dir = realDir;
    }

    static DatabaseLocks of(Path realDir) {
        return BY_DIRECTORY.computeIfAbsent(realDir, DatabaseLocks::new);
    }

    /** The writer lock while held; {@link #close} releases it. */
    final class WriterLock implements AutoCloseable {
        private final FileChannel ch;
        private final FileLock lock;
        private boolean released;

        private WriterLock(FileChannel ch, FileLock lock) {
            this.ch = ch;
            this.lock = lock;
        }

        @Override
        public synchronized void close() {
            if (released) {
                return;
            }
            released = true;
            try {
                lock.release();
                ch.close();
            } catch (IOException e) {
                // closing the channel releases the lock in any case
            } finally {
                writers.release();
            }
        }
    }

    /**
     * Takes the writer lock of the database. Another writer (in this or another process) makes it wait, saying so
     * through {@code onWait}, or fail at once when {@code wait} is false.
     */
    WriterLock lockWriter(Path shownDir, boolean wait, Consumer<String> onWait) {
        long self = ProcessHandle.current().pid();
        if (!writers.tryAcquire()) {
            if (!wait) {
                throw busy(shownDir, self);
            }
            onWait.accept(waiting(shownDir, self));
            try {
                writers.acquire();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new StorageException("interrupted while waiting to write " + shownDir, e);
            }
        }
        Path file = dir.resolve(WRITER_LOCK);
        FileChannel ch = null;
        try {
            ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE,
                    LinkOption.NOFOLLOW_LINKS);
            FileLock lock = ch.tryLock();
            if (lock == null) {
                String holder = readPid(ch);
                if (!wait) {
                    throw busy(shownDir, holder);
                }
                onWait.accept(waiting(shownDir, holder));
                lock = ch.lock();
            }
            ch.truncate(0);
            ch.write(ByteBuffer.wrap((self + "\n").getBytes(StandardCharsets.US_ASCII)), 0);
            return new WriterLock(ch, lock);
        } catch (IOException | RuntimeException e) {
            try {
                if (ch != null) {
                    ch.close();
                }
            } catch (IOException ignored) {
                // already failing
            }
            writers.release();
            if (e instanceof StorageException se) {
                throw se;
            }
            throw new StorageException("cannot lock " + file + " for writing: " + e.getMessage(), e);
        }
    }

    private static StorageException busy(Path shownDir, Object pid) {
        return new StorageException("another writer (pid " + pid + ") is writing database " + shownDir
                + "; not waiting for it");
    }

    private static String waiting(Path shownDir, Object pid) {
        return "tessera: waiting for another writer of " + shownDir + " (pid " + pid + ") ...";
    }

    private static String readPid(FileChannel ch) {
        try {
            ByteBuffer b = ByteBuffer.allocate(32);
            ch.read(b, 0);
            String s = new String(b.array(), 0, b.position(), StandardCharsets.US_ASCII).strip();
            return s.matches("[0-9]{1,19}") ? s : "unknown";
        } catch (IOException e) {
            return "unknown";
        }
    }

    /** One generation lock file this JVM holds shared, with how many snapshots of this JVM need it. */
    private static final class Held {
        final FileChannel ch; // null where the lock file could not be opened (a read-only database)
        final FileLock lock;
        int refs;

        Held(FileChannel ch, FileLock lock) {
            this.ch = ch;
            this.lock = lock;
        }
    }

    /** Holds the generation lock file {@code lockFile} shared until {@link #release} is called as often. */
    synchronized void hold(Path lockFile) {
        Held h = generations.get(lockFile);
        if (h == null) {
            h = open(lockFile);
            generations.put(lockFile, h);
        }
        h.refs++;
    }

    private static Held open(Path lockFile) {
        FileChannel ch;
        try {
            ch = FileChannel.open(lockFile, StandardOpenOption.CREATE, StandardOpenOption.READ,
                    StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS);
        } catch (AccessDeniedException | UnsupportedOperationException | NoSuchFileException e) {
            // a database this process cannot write: no writer of this user can delete its files either
            try {
                ch = FileChannel.open(lockFile, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS);
            } catch (IOException e2) {
                return new Held(null, null);
            }
        } catch (IOException e) {
            if (!Files.isWritable(lockFile.getParent())) {
                return new Held(null, null);
            }
            throw new StorageException("cannot open " + lockFile + ": " + e.getMessage(), e);
        }
        try {
            return new Held(ch, ch.lock(0, Long.MAX_VALUE, true));
        } catch (IOException e) {
            try {
                ch.close();
            } catch (IOException ignored) {
                // already failing
            }
            throw new StorageException("cannot lock " + lockFile + ": " + e.getMessage(), e);
        }
    }

    synchronized void release(Path lockFile) {
        Held h = generations.get(lockFile);
        if (h == null || --h.refs > 0) {
            return;
        }
        generations.remove(lockFile);
        if (h.ch != null) {
            try {
                h.ch.close(); // releases the lock
            } catch (IOException e) {
                // the lock goes with the process at the latest
            }
        }
    }

    /** What deletes a retired generation's files. */
    interface Deleter {
        void delete() throws IOException;
    }

    /**
     * Runs {@code deleter} when no reader of any process holds {@code lockFile}, then deletes the lock file, all
     * while holding it exclusively; returns false (leaving everything in place) while a reader holds it.
     */
    synchronized boolean collect(Path lockFile, Deleter deleter) throws IOException {
        if (generations.containsKey(lockFile)) {
            return false;
        }
        try (FileChannel ch = FileChannel.open(lockFile, StandardOpenOption.CREATE, StandardOpenOption.READ,
                StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS)) {
            FileLock lock;
            try {
                lock = ch.tryLock();
            } catch (OverlappingFileLockException e) {
                return false;
            }
            if (lock == null) {
                return false;
            }
            deleter.delete();
            Files.deleteIfExists(lockFile);
            return true;
        }
    }
}

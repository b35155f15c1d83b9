package io.tessera.storage;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The forcing of a commit's files to disk, on threads of their own: a column whose file is final hands its sync over
 * and the commit goes on with the columns still being finished (the dictionary merge of a large VARCHAR column),
 * instead of a core waiting for the disk. {@link #await} returns once every file handed over is on disk; the commit
 * calls it before it renames a file into place, so nothing the manifest names is ever left unsynced.
 */
final class FileSyncs implements AutoCloseable {

    /** Forces one file (and releases what it held); may throw. */
    @FunctionalInterface
    interface Sync {
        void run() throws IOException;
    }

    /** Threads forcing files at once: the disk's queue, not the cores, bounds them. */
    private static final int THREADS = 4;
    /**
     * The process's sync threads, shared by every commit (each awaits only its own files), started as needed and
     * ended after a while idle, so that a commit of a few rows starts no thread.
     */
    private static final ThreadPoolExecutor POOL = pool();
    /** Tests: runs before each sync, on its thread. */
    static volatile Runnable beforeSync = () -> { };

    private final String what;
    private final boolean durable;
    private final List<Future<?>> pending = new ArrayList<>();

    /** @param what names the files in messages (e.g. "table t") */
    FileSyncs(String what) {
        this(what, true);
    }

    /**
     * @param durable whether files are forced to disk at all: not for a database of a statement's temporary
     *                tables, which no crash needs to keep (files are then only closed)
     */
    FileSyncs(String what, boolean durable) {
        this.what = what;
        this.durable = durable;
    }

    /** Whether the files handed over are forced to disk (else they are only closed). */
    boolean durable() {
        return durable;
    }

    private static ThreadPoolExecutor pool() {
        AtomicInteger n = new AtomicInteger();
        ThreadPoolExecutor p = new ThreadPoolExecutor(THREADS, THREADS, 30, TimeUnit.SECONDS,
                new LinkedBlockingQueue<>(), r -> {
                    Thread t = new Thread(r, "tessera-sync-" + n.incrementAndGet());
                    t.setDaemon(true);
                    return t;
                });
        p.allowCoreThreadTimeOut(true);
        return p;
    }

    /** Hands {@code sync} to a sync thread; the future ends when it has run. */
    synchronized Future<?> submit(Sync sync) {
        Future<?> f = POOL.submit(() -> {
            beforeSync.run();
            sync.run();
            return null;
        });
        pending.add(f);
        return f;
    }

    /**
     * Hands over a written file mapped through {@code arena}: the sync thread forces {@code mapped}'s pages (none
     * where it is null: nothing was mapped) and the file, then closes the file and the mapping ({@code arena} null:
     * none). Where files are not forced they are closed at once.
     */
    void submitForceAndClose(MemorySegment mapped, FileChannel ch, Arena arena) {
        submitForceAndClose(mapped, ch, arena, List.of());
    }

    /**
     * As {@link #submitForceAndClose(MemorySegment, FileChannel, Arena)}, after the syncs {@code first} (handed over
     * before it, forcing parts of {@code mapped}) have ended: the mapping is closed only once no thread forces it.
     * Waiting for them cannot hold the pool up: its queue is first in, first out, so they have all started.
     */
    void submitForceAndClose(MemorySegment mapped, FileChannel ch, Arena arena, List<Future<?>> first) {
        if (!durable) {
            awaitQuietly(first);
            try {
                ch.close();
            } catch (IOException e) {
                throw new StorageException("cannot close a file of " + what + ": " + e.getMessage(), e);
            } finally {
                if (arena != null) {
                    arena.close();
                }
            }
            return;
        }
        submit(() -> {
            try {
                awaitQuietly(first); // each one's failure is await's to report; what it left is forced below
                if (mapped != null) {
                    mapped.force();
                }
                ch.force(true);
            } finally {
                try {
                    ch.close();
                } finally {
                    if (arena != null) {
                        arena.close();
                    }
                }
            }
        });
    }

    /** Hands over the writing of {@code bytes} to a new {@code file}, forced to disk where this forces files. */
    void submitWrite(Path file, byte[] bytes) {
        submit(() -> Database.write(file, bytes, durable));
    }

    /** Waits until each of {@code syncs} has ended, failed or not (a failure is {@link #await}'s to report). */
    static void awaitQuietly(List<Future<?>> syncs) {
        boolean interrupted = false;
        for (Future<?> f : List.copyOf(syncs)) {
            while (true) {
                try {
                    f.get();
                    break;
                } catch (InterruptedException e) {
                    interrupted = true; // the mapping may be closed only once no thread forces it
                } catch (ExecutionException | CancellationException e) {
                    break;
                }
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /** Waits until every sync handed over has run; throws the first failure after all have ended. */
    void await() {
        StorageException failure = null;
        for (Future<?> f : drain()) {
            try {
                f.get();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                if (failure == null) {
                    failure = new StorageException("interrupted while forcing the files of " + what + " to disk", e);
                }
            } catch (ExecutionException | CancellationException e) {
                Throwable c = e.getCause() != null ? e.getCause() : e;
                if (failure == null) {
                    failure = c instanceof StorageException se ? se
                            : new StorageException("cannot force the files of " + what + " to disk: " + c.getMessage(), c);
                } else {
                    failure.addSuppressed(c);
                }
            }
        }
        if (failure != null) {
            throw failure;
        }
    }

    private synchronized List<Future<?>> drain() {
        List<Future<?>> all = new ArrayList<>(pending);
        pending.clear();
        return all;
    }

    /** Waits for the syncs still running: a failing commit removes the files only after no thread forces them. */
    @Override
    public void close() {
        awaitQuietly(drain());
    }
}

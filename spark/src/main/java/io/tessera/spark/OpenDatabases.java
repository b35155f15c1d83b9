package io.tessera.spark;

import io.tessera.Tessera;
import io.tessera.exec.Device;
import io.tessera.storage.Database;
import io.tessera.storage.Table;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

/**
 * The databases this JVM (an executor, or a driver in local mode) has open, one per directory and device, shared by
 * the tasks that read them: a database is opened (and its columns mapped and checked) once, not once per task. An
 * open database is a snapshot; when a task needs a newer write of its table than the open one holds, a new snapshot
 * is opened for it and the old one is closed once its last task is done.
 */
final class OpenDatabases {

    private static final Map<String, Handle> OPEN = new HashMap<>(); // guarded by itself

    private OpenDatabases() {
    }

    /** One task's use of an open database; closing it ends the use. */
    static final class Handle implements AutoCloseable {
        private final Tessera tessera;
        private int users; // guarded by OPEN
        private boolean retired; // guarded by OPEN: replaced by a newer snapshot

        private Handle(Tessera tessera) {
            this.tessera = tessera;
        }

        Tessera tessera() {
            return tessera;
        }

        @Override
        public void close() {
            synchronized (OPEN) {
                if (--users == 0 && retired) {
                    tessera.close();
                }
            }
        }
    }

    /**
     * The open database at {@code directory} whose table {@code table} is at {@code generation} (-1: the latest
     * committed write), opening a new snapshot when the open one holds another write.
     */
    static Handle acquire(String directory, Device device, String table, int generation) {
        Path dir = existing(directory);
        int wanted = generation >= 0 ? generation : current(directory, db -> TesseraTable.table(db, directory, table))
                .generation();
        String key = dir.toAbsolutePath().normalize() + "\u0000" + device;
        synchronized (OPEN) {
            Handle h = OPEN.get(key);
            if (h != null && generationOf(h.tessera, table) != wanted) {
                h.retired = true;
                if (h.users == 0) {
                    h.tessera.close();
                }
                OPEN.remove(key);
                h = null;
            }
            if (h == null) {
                h = new Handle(Tessera.open(dir, device));
                OPEN.put(key, h);
            }
            h.users++;
            return h;
        }
    }

    /** Closes the open databases no task reads now (their memory maps and file handles go back). */
    static void closeUnused() {
        synchronized (OPEN) {
            OPEN.values().removeIf(h -> {
                if (h.users == 0) {
                    h.tessera.close();
                    return true;
                }
                return false;
            });
        }
    }

    private static int generationOf(Tessera t, String table) {
        String name = table.toLowerCase(Locale.ROOT);
        return t.database().hasTable(name) ? t.database().table(name).generation() : -1;
    }

    /** Reads the latest committed state of a database (its manifest; no column is mapped) and closes it again. */
    static <T> T current(String directory, Function<Database, T> read) {
        try (Database db = Database.open(existing(directory))) {
            return read.apply(db);
        }
    }

    private static Path existing(String directory) {
        Path dir = Path.of(directory);
        if (!Files.isDirectory(dir)) {
            throw new IllegalStateException("no Tessera database directory " + directory + " on this machine ("
                    + hostName() + ")");
        }
        return dir;
    }

    static String hostName() {
        try {
            return java.net.InetAddress.getLocalHost().getHostName();
        } catch (java.io.IOException e) {
            return "unknown host";
        }
    }

    /** The table's row count and generation as last committed. */
    record TableState(long rows, int generation) {
        static TableState of(Table t) {
            return new TableState(t.rowCount(), t.generation());
        }
    }
}

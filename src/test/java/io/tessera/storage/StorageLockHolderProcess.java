package io.tessera.storage;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * A second process that holds the writer lock of database {@code DIR} until file {@code RELEASE} exists:
 * {@code DIR READY RELEASE}; it creates {@code READY} once it holds the lock. Never told, it lets go after
 * {@link StorageConcurrentWritersTest#GUARD_MINUTES} and exits 2, so that a test that waits for the lock fails
 * rather than hangs.
 */
public final class StorageLockHolderProcess {

    private StorageLockHolderProcess() {
    }

    public static void main(String[] args) throws Exception {
        Path release = Path.of(args[2]);
        try (Database db = Database.open(Path.of(args[0])); Database.WriteLock l = db.lockForWriting()) {
            Files.createFile(Path.of(args[1]));
            long guard = System.nanoTime() + TimeUnit.MINUTES.toNanos(StorageConcurrentWritersTest.GUARD_MINUTES);
            while (!Files.exists(release) && System.nanoTime() < guard) {
                Thread.sleep(5);
            }
        }
        System.exit(Files.exists(release) ? 0 : 2);
    }
}

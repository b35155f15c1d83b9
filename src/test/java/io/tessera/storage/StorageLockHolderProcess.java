package io.tessera.storage;

import java.nio.file.Files;
import java.nio.file.Path;

/** A second process that holds the writer lock of database {@code DIR} for {@code MS} ms: {@code DIR MS READY}. */
public final class StorageLockHolderProcess {

    private StorageLockHolderProcess() {
    }

    public static void main(String[] args) throws Exception {
        try (Database db = Database.open(Path.of(args[0])); Database.WriteLock l = db.lockForWriting()) {
            Files.createFile(Path.of(args[2]));
            Thread.sleep(Long.parseLong(args[1]));
        }
        System.exit(0);
    }
}

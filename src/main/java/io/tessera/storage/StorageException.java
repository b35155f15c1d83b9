package io.tessera.storage;

/** A database directory that cannot be read or written: names the file where it can. */
public class StorageException extends RuntimeException {
    public StorageException(String message) {
        super(message);
    }

    public StorageException(String message, Throwable cause) {
        super(message, cause);
    }
}

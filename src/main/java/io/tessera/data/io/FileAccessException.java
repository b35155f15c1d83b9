package io.tessera.data.io;

/** A file SQL named that {@link AllowedDirectories} would not open; the message names it and says why. */
public final class FileAccessException extends RuntimeException {

    public FileAccessException(String message) {
        super(message);
    }
}

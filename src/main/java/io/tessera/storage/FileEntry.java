package io.tessera.storage;

/** A file of the database as the manifest records it: path relative to the database directory, size, CRC32C. */
public record FileEntry(String path, long bytes, long crc32c) {
}

package io.tessera.storage;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The files of one database as the manifest names them: each checked to lie inside the database's folder (no
 * symbolic link leads out), to be present with the size the manifest gives, and, mapped, to have its checksum.
 */
final class DatabaseFiles {

    private final Path dir;
    private final Path realDir;

    DatabaseFiles(Path dir, Path realDir) {
        this.dir = dir;
        this.realDir = realDir;
    }

    /**
     * The real path of {@code p}, refused when it leads out of the database (through a symbolic link of a
     * table folder or a file).
     */
    Path inside(Path p) throws IOException {
        Path real = p.toRealPath();
        if (!real.startsWith(realDir)) {
            throw new StorageException("refusing " + p + ": it leads out of the database " + dir + " (to " + real
                    + ") through a symbolic link");
        }
        return real;
    }

    /** The real path of a file the manifest names, checked to lie inside the database. */
    Path resolve(FileEntry f) {
        Path p = dir.resolve(f.path());
        try {
            return inside(p);
        } catch (NoSuchFileException e) {
            throw new StorageException("damaged database " + dir + ": file " + p + " is missing");
        } catch (IOException e) {
            throw new StorageException("damaged database " + dir + ": cannot read " + p + ": " + e.getMessage(), e);
        }
    }

    /** Checks that a folder the database writes into lies inside it. */
    void checkInside(Path folder) {
        try {
            inside(folder);
        } catch (IOException e) {
            throw new StorageException("cannot use " + folder + ": " + e.getMessage(), e);
        }
    }

    /** The real path of a file the manifest names, present with the size it gives (null for none). */
    Path checkPresent(FileEntry f) {
        if (f == null) {
            return null;
        }
        Path p = dir.resolve(f.path());
        Path real = resolve(f);
        long size;
        try {
            size = Files.size(real);
        } catch (NoSuchFileException e) {
            throw new StorageException("damaged database " + dir + ": file " + p + " is missing");
        } catch (IOException e) {
            throw new StorageException("damaged database " + dir + ": cannot read " + p + ": " + e.getMessage(), e);
        }
        if (size != f.bytes()) {
            throw new StorageException("damaged database " + dir + ": file " + p + " has " + size
                    + " bytes, the manifest says " + f.bytes() + (size < f.bytes() ? " (truncated)" : ""));
        }
        return real;
    }

    /** Maps a file read-only and verifies its CRC32C against the manifest. */
    MemorySegment map(FileEntry f, Arena arena) {
        Path p = dir.resolve(f.path());
        Path real = checkPresent(f);
        if (f.bytes() == 0) {
            return MemorySegment.NULL;
        }
        try (FileChannel ch = FileChannel.open(real, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS)) {
            MemorySegment seg = ch.map(FileChannel.MapMode.READ_ONLY, 0, f.bytes(), arena);
            long crc = Database.crc32c(seg);
            if (crc != f.crc32c()) {
                throw new StorageException("damaged database " + dir + ": checksum mismatch in " + p
                        + " (CRC32C " + Long.toHexString(crc) + ", the manifest says " + Long.toHexString(f.crc32c()) + ")");
            }
            return seg;
        } catch (IOException e) {
            throw new StorageException("cannot map " + p + ": " + e.getMessage(), e);
        }
    }
}

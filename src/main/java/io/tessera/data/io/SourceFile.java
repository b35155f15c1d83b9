package io.tessera.data.io;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * A file an importer reads: its name as the user wrote it (for messages and the format from its ending) and how to
 * get its bytes. A file named on the command line is opened by its path when it is read; a file named in SQL is
 * opened beforehand by {@link AllowedDirectories}, and the importer reads that open file, never the name again.
 */
public interface SourceFile {

    /** The file as the user named it. */
    String name();

    /** The file's bytes; the caller closes the channel. A channel opened beforehand is handed out once. */
    FileChannel open() throws IOException;

    /** The file's size in bytes, for progress; 0 where it cannot be told (the read then reports what it finds). */
    long size();

    /** The sizes of {@code files} added up (see {@link #size}). */
    static long totalSize(java.util.List<SourceFile> files) {
        long total = 0;
        for (SourceFile f : files) {
            total += f.size();
        }
        return total;
    }

    /** A file opened by its path when it is read. */
    static SourceFile of(Path path) {
        return new SourceFile() {
            @Override
            public String name() {
                return path.toString();
            }

            @Override
            public long size() {
                try {
                    return java.nio.file.Files.size(path);
                } catch (IOException e) {
                    return 0; // the read says what is wrong
                }
            }

            @Override
            public FileChannel open() throws IOException {
                return FileChannel.open(path, StandardOpenOption.READ);
            }
        };
    }

    /** A file already open (checked where it was opened). */
    static SourceFile opened(String name, FileChannel channel) {
        return new SourceFile() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public long size() {
                try {
                    return channel.size();
                } catch (IOException e) {
                    return 0;
                }
            }

            @Override
            public FileChannel open() {
                return channel;
            }
        };
    }
}

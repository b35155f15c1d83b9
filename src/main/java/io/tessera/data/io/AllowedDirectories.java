package io.tessera.data.io;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.nio.file.SecureDirectoryStream;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributeView;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The directories whose files SQL text may read or write ({@code COPY}, a file in FROM), and the only way such a file
 * is opened. A statement's text can come from anyone an application lets write SQL, so a file is opened only below
 * an allowed directory, and opened before anything about it is believed: the allowed directory is opened, then each
 * further component of the path is opened relative to the directory opened before it with {@code O_NOFOLLOW}
 * ({@link SecureDirectoryStream} with {@link LinkOption#NOFOLLOW_LINKS}: {@code openat} on Linux). A symbolic link
 * anywhere below the allowed directory is refused, and a directory swapped for a link while the file is opened
 * cannot lead out: the walk holds each directory it went through open, not its name. The importers then read the
 * open channel, never the name again. docs/SECURITY.md states the promise and its limits.
 */
public final class AllowedDirectories {

    private static final LinkOption NOFOLLOW = LinkOption.NOFOLLOW_LINKS;

    private final List<Path> directories;
    /** Whether these directories are the ones SQL may write files into (COPY ... TO), for messages. */
    private final boolean forWriting;

    /** Directories SQL may read files from. */
    public AllowedDirectories(List<Path> directories) {
        this(directories, false);
    }

    /** Directories SQL may read files from, or ({@code forWriting}) write files into. */
    public AllowedDirectories(List<Path> directories, boolean forWriting) {
        this.directories = List.copyOf(directories);
        this.forWriting = forWriting;
    }

    private String verb() {
        return forWriting ? "write" : "read";
    }

    private String howToAllow() {
        return forWriting
                ? "start tessera sql with --allow-write DIR to allow another (Tessera.allowCopyTo where Tessera is embedded)"
                : "start tessera sql with --allow-read DIR to allow another (Tessera.allowCopyFrom where Tessera is embedded)";
    }

    public List<Path> directories() {
        return directories;
    }

    /**
     * Opens a regular file below an allowed directory for reading.
     *
     * @param what the statement, for messages ({@code COPY}, {@code FROM})
     * @throws FileAccessException naming the file as written and why it was refused
     */
    public SourceFile openForRead(String name, String what) {
        Located at = locate(name, what);
        try (SecureDirectoryStream<Path> parent = parentOf(at, name, what)) {
            return SourceFile.opened(name, openFile(parent, at.last(), name, what,
                    Set.of(StandardOpenOption.READ, NOFOLLOW)));
        } catch (IOException e) {
            throw new FileAccessException(what + ": cannot read '" + printable(name) + "': " + e.getMessage());
        }
    }

    /**
     * Opens every regular file below an allowed directory whose name matches the glob of the path's last component
     * ({@code dir/*.parquet}), in the order of their names. No match is an error naming the pattern.
     */
    public List<SourceFile> openMatching(String pattern, String what) {
        if (!hasWildcard(pattern)) {
            return List.of(openForRead(pattern, what));
        }
        Located at = locate(pattern, what);
        PathMatcher matcher;
        try {
            matcher = at.root().getFileSystem().getPathMatcher("glob:" + at.last());
        } catch (IllegalArgumentException e) {
            throw new FileAccessException(what + ": '" + printable(pattern) + "' is not a file pattern: "
                    + e.getMessage());
        }
        String prefix = pattern.substring(0, pattern.length() - at.last().length());
        List<SourceFile> files = new ArrayList<>();
        try (SecureDirectoryStream<Path> parent = parentOf(at, pattern, what)) {
            List<String> names = new ArrayList<>();
            for (Path entry : parent) {
                Path file = entry.getFileName();
                if (file != null && matcher.matches(file)) {
                    BasicFileAttributes a = parent.getFileAttributeView(file, BasicFileAttributeView.class, NOFOLLOW)
                            .readAttributes();
                    if (a.isRegularFile()) {
                        names.add(file.toString());
                    }
                }
            }
            names.sort(null);
            try {
                for (String n : names) {
                    files.add(SourceFile.opened(prefix + n, openFile(parent, n, prefix + n, what,
                            Set.of(StandardOpenOption.READ, NOFOLLOW))));
                }
            } catch (RuntimeException | IOException e) {
                for (SourceFile f : files) {
                    f.open().close();
                }
                throw e;
            }
        } catch (IOException e) {
            throw new FileAccessException(what + ": cannot read '" + printable(pattern) + "': " + e.getMessage());
        }
        if (files.isEmpty()) {
            throw new FileAccessException(what + ": no file matches '" + printable(pattern) + "'");
        }
        return files;
    }

    /**
     * Opens a file below an allowed directory for writing, created if absent and emptied if present, without
     * following a link at any component (a link where the file should be is refused, not written through).
     */
    public FileChannel openForWrite(String name, String what) {
        Located at = locate(name, what);
        try (SecureDirectoryStream<Path> parent = parentOf(at, name, what)) {
            return openFile(parent, at.last(), name, what, Set.of(StandardOpenOption.WRITE,
                    StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING, NOFOLLOW));
        } catch (IOException e) {
            throw new FileAccessException(what + ": cannot write '" + printable(name) + "': " + e.getMessage());
        }
    }

    /**
     * Makes a directory below an allowed directory for writing into (EXPORT DATABASE's), or finds one there, reached
     * through no link. The directory is made by its name after its parent was reached without a link; the files
     * written into it later are opened through no link again ({@link #openForWrite}), so a directory replaced by a
     * link meanwhile is refused then.
     */
    public void makeDirectory(String name, String what) {
        Located at = locate(name, what);
        try (SecureDirectoryStream<Path> parent = parentOf(at, name, what)) {
            Path last = Path.of(at.last());
            try {
                BasicFileAttributes a = parent.getFileAttributeView(last, BasicFileAttributeView.class, NOFOLLOW)
                        .readAttributes();
                if (a.isSymbolicLink()) {
                    throw linkRefused(at.last(), name, what);
                }
                if (!a.isDirectory()) {
                    throw new FileAccessException(what + ": refusing to write into '" + printable(name)
                            + "': not a directory");
                }
                return;
            } catch (NoSuchFileException e) {
                // made below
            }
            Path dir = at.root();
            for (String component : at.below()) {
                dir = dir.resolve(component);
            }
            Files.createDirectory(dir);
        } catch (IOException e) {
            throw new FileAccessException(what + ": cannot make the directory '" + printable(name) + "': "
                    + e.getMessage());
        }
    }

    /** Whether the last component of a name holds a glob wildcard. */
    public static boolean hasWildcard(String name) {
        String last = name.substring(name.lastIndexOf('/') + 1);
        return last.indexOf('*') >= 0 || last.indexOf('?') >= 0 || last.indexOf('[') >= 0 || last.indexOf('{') >= 0;
    }

    /** An allowed directory (as configured, or its real path) and the components of the file's path below it. */
    private record Located(Path root, List<String> below) {
        String last() {
            return below.getLast();
        }
    }

    /** The allowed directory the name lies under, by the name's text alone: nothing is opened yet. */
    private Located locate(String name, String what) {
        if (directories.isEmpty()) {
            throw new FileAccessException(forWriting
                    ? what + " writes no file here: the application allowed no directory to write into"
                            + " (Tessera.allowCopyTo; tessera sql allows its current directory and --allow-write DIR)"
                    : what + " reads no file here: the application allowed no directory to read"
                            + " from (Tessera.allowCopyFrom; tessera sql allows its current directory and --allow-read DIR)");
        }
        Path file;
        try {
            file = Path.of(name).toAbsolutePath().normalize();
        } catch (InvalidPathException e) {
            throw new FileAccessException(what + ": '" + printable(name) + "' is not a file name");
        }
        for (Path dir : directories) {
            for (Path root : forms(dir)) {
                if (file.startsWith(root)) {
                    List<String> below = new ArrayList<>();
                    for (Path p : root.relativize(file)) {
                        if (!p.toString().isEmpty()) {
                            below.add(p.toString());
                        }
                    }
                    if (below.isEmpty()) {
                        throw new FileAccessException(what + ": refusing to " + verb() + " '" + printable(name)
                                + "': not a regular file");
                    }
                    return new Located(root, below);
                }
            }
        }
        throw new FileAccessException(what + ": refusing to " + verb() + " '" + printable(name) + "': it is not under"
                + " a directory SQL may " + verb() + " (" + String.join(", ", directories.stream()
                .map(d -> printable(d.toAbsolutePath().normalize().toString())).toList())
                + "); " + howToAllow());
    }

    /** An allowed directory as the application named it (absolute) and as its real path. */
    private static List<Path> forms(Path dir) {
        List<Path> forms = new ArrayList<>();
        forms.add(dir.toAbsolutePath().normalize());
        try {
            Path real = dir.toRealPath();
            if (!real.equals(forms.getFirst())) {
                forms.add(real);
            }
        } catch (IOException e) {
            // an allowed directory that is not there allows nothing; opening it below says so
        }
        return forms;
    }

    /**
     * The directory holding the file, reached from the allowed directory one component at a time, each opened
     * relative to the one before without following a link.
     */
    private static SecureDirectoryStream<Path> parentOf(Located at, String name, String what) throws IOException {
        DirectoryStream<Path> opened;
        try {
            opened = Files.newDirectoryStream(at.root());
        } catch (NoSuchFileException e) {
            throw new FileAccessException(what + ": no such file '" + printable(name) + "' (the allowed directory "
                    + at.root() + " is not there)");
        }
        if (!(opened instanceof SecureDirectoryStream<Path> dir)) {
            opened.close();
            throw new FileAccessException(what + ": cannot read '" + printable(name) + "': this platform cannot open"
                    + " a file without following links (no SecureDirectoryStream), so SQL reads no file here");
        }
        SecureDirectoryStream<Path> current = dir;
        try {
            for (int i = 0; i < at.below().size() - 1; i++) {
                String component = at.below().get(i);
                SecureDirectoryStream<Path> next;
                try {
                    next = current.newDirectoryStream(Path.of(component), NOFOLLOW);
                } catch (NoSuchFileException e) {
                    throw new FileAccessException(what + ": no such directory '" + printable(component)
                            + "' in the path of '" + printable(name) + "'");
                } catch (IOException e) {
                    throw refusal(current, component, name, what, e);
                }
                current.close();
                current = next;
            }
            return current;
        } catch (IOException | RuntimeException e) {
            current.close();
            throw e;
        }
    }

    private static FileChannel openFile(SecureDirectoryStream<Path> parent, String last, String name, String what,
                                        Set<OpenOption> options) throws IOException {
        Path file = Path.of(last);
        boolean writing = options.contains(StandardOpenOption.WRITE);
        // refuses a FIFO or device before opening it (opening a FIFO would wait for a writer)
        try {
            BasicFileAttributes a = parent.getFileAttributeView(file, BasicFileAttributeView.class, NOFOLLOW)
                    .readAttributes();
            if (a.isSymbolicLink()) {
                throw linkRefused(last, name, what);
            }
            if (!a.isRegularFile()) {
                throw new FileAccessException(what + ": refusing to " + (writing ? "write" : "read") + " '"
                        + printable(name) + "': not a regular file");
            }
        } catch (NoSuchFileException e) {
            if (!writing) {
                throw new FileAccessException(what + ": no such file '" + printable(name) + "'");
            }
        }
        SeekableByteChannel ch;
        try {
            ch = parent.newByteChannel(file, options);
        } catch (NoSuchFileException e) {
            throw new FileAccessException(what + ": no such file '" + printable(name) + "'");
        } catch (IOException e) {
            throw refusal(parent, last, name, what, e);
        }
        if (ch instanceof FileChannel f) {
            return f;
        }
        ch.close();
        throw new FileAccessException(what + ": cannot read '" + printable(name) + "': not a file channel");
    }

    /** Why opening a component failed: a link (replaced since it was looked at, or found now), or the error. */
    private static RuntimeException refusal(SecureDirectoryStream<Path> dir, String component, String name,
                                            String what, IOException e) {
        try {
            BasicFileAttributes a = dir.getFileAttributeView(Path.of(component), BasicFileAttributeView.class,
                    NOFOLLOW).readAttributes();
            if (a.isSymbolicLink()) {
                return linkRefused(component, name, what);
            }
        } catch (IOException ignored) {
            // gone again: the first error says what happened
        }
        if (e instanceof NoSuchFileException) {
            return new FileAccessException(what + ": no such file '" + printable(name) + "'");
        }
        String reason = e instanceof FileSystemException f && f.getReason() != null ? f.getReason() : e.getMessage();
        if (reason != null && reason.contains("symbolic links")) {
            return linkRefused(component, name, what); // ELOOP: a link met where none may be
        }
        return new FileAccessException(what + ": cannot open '" + printable(name) + "': " + reason);
    }

    private static FileAccessException linkRefused(String component, String name, String what) {
        return new FileAccessException(what + ": refusing to open '" + printable(name) + "': '" + printable(component)
                + "' is a symbolic link, and no link is followed below a directory SQL may read");
    }

    /** A name as an error shows it: control characters escaped, at most 200 characters. */
    public static String printable(String s) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < s.length() && b.length() < 200; i++) {
            char c = s.charAt(i);
            if (c < 0x20 || c == 0x7f) {
                b.append(String.format("\\u%04x", (int) c));
            } else {
                b.append(c);
            }
        }
        return b.toString();
    }
}

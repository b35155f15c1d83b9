package io.tessera.storage;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The files of a table renamed into another folder ({@link Database#renameTable}): each linked (a copy where the file
 * system cannot link) into the new name's folder under the new version's name, before the manifest that names them
 * is written.
 */
final class RenamedFiles {

    /**
     * A file is column.gN.kind, N the version that wrote it (an ALTER that changed the manifest alone keeps the files
     * of an earlier version): named after the new version, no name of an earlier one is reused.
     */
    private static final Pattern VERSION = Pattern.compile("\\.g[0-9]+\\.");

    private RenamedFiles() {
    }

    /** The files of {@code cur} linked (or copied) into table {@code newName}'s folder as files of {@code generation}. */
    static List<Manifest.ColumnEntry> link(Database db, Manifest.TableEntry cur, String newName, int generation) {
        Path folder = db.tableDir(newName);
        List<Path> made = new ArrayList<>();
        boolean createdFolder = !Files.exists(folder, LinkOption.NOFOLLOW_LINKS);
        try {
            Files.createDirectories(folder);
            db.checkInside(folder);
            String prefix = newName.toLowerCase(Locale.ROOT) + "/";
            String to = ".g" + generation + ".";
            Set<String> names = new HashSet<>();
            List<Manifest.ColumnEntry> out = new ArrayList<>();
            for (Manifest.ColumnEntry c : cur.columns()) {
                FileEntry[] files = {c.data(), c.validity(), c.dictionary()};
                for (int i = 0; i < files.length; i++) {
                    FileEntry f = files[i];
                    if (f == null) {
                        continue;
                    }
                    String name = f.path().substring(f.path().indexOf('/') + 1);
                    Matcher m = VERSION.matcher(name);
                    String path = prefix + (m.find() ? m.replaceFirst(to) : name + ".g" + generation);
                    if (!names.add(path)) {
                        throw new StorageException("two files of table " + cur.schema().name() + " would be " + path);
                    }
                    Path target = db.directory().resolve(path);
                    Path source = db.resolve(f);
                    // a file of a generation past the manifest's last one is no manifest's: one a write that
                    // stopped before its manifest left behind
                    Files.deleteIfExists(target);
                    try {
                        Files.createLink(target, source);
                    } catch (java.nio.file.FileAlreadyExistsException e) {
                        throw e;
                    } catch (UnsupportedOperationException | java.nio.file.FileSystemException e) {
                        Files.copy(source, target, LinkOption.NOFOLLOW_LINKS);
                        if (db.durable()) {
                            try (FileChannel ch = FileChannel.open(target, StandardOpenOption.WRITE)) {
                                ch.force(true);
                            }
                        }
                    }
                    made.add(target);
                    files[i] = new FileEntry(path, f.bytes(), f.crc32c());
                }
                out.add(new Manifest.ColumnEntry(files[0], files[1], files[2], c.stats()));
            }
            if (db.durable()) {
                Database.forceDirectory(folder);
            }
            return out;
        } catch (IOException | RuntimeException e) {
            for (Path p : made) {
                try {
                    Files.deleteIfExists(p);
                } catch (IOException ignored) {
                    // a file no manifest names: space, never correctness
                }
            }
            if (createdFolder) {
                try {
                    Files.deleteIfExists(folder); // only when empty
                } catch (IOException ignored) {
                    // the folder stays; it holds nothing the manifest names
                }
            }
            throw e instanceof StorageException se ? se
                    : new StorageException("cannot rename table " + cur.schema().name() + " to " + newName + ": "
                    + e.getMessage(), e);
        }
    }
}

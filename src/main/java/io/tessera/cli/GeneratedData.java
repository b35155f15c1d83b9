package io.tessera.cli;

import io.tessera.storage.Database;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.stream.Stream;

/**
 * Generated benchmark data appears whole or not at all: it is generated into the sibling directory
 * {@code NAME.partial} and renamed to {@code NAME} once complete. A run stopped while generating (Ctrl-C, a kill,
 * out of memory) leaves no directory that a later run would take for complete data; the {@code .partial} it may
 * leave is removed by the next run before it starts.
 */
final class GeneratedData {

    interface Generator {
        void generate(Database db);
    }

    private GeneratedData() {
    }

    /** The temporary sibling a generation of {@code dir} writes into. */
    static Path partial(Path dir) {
        Path abs = dir.toAbsolutePath().normalize();
        return abs.resolveSibling(abs.getFileName() + ".partial");
    }

    /** Whether {@code dir} does not exist or is an empty directory: generation may create it whole. */
    static boolean absentOrEmpty(Path dir) {
        if (!Files.exists(dir)) {
            return true;
        }
        if (!Files.isDirectory(dir)) {
            return false;
        }
        try (Stream<Path> s = Files.list(dir)) {
            return s.findAny().isEmpty();
        } catch (IOException e) {
            return false;
        }
    }

    /**
     * Generates into {@link #partial}{@code (dir)} and renames it to {@code dir}, which must be absent or empty, or
     * hold only data of ours that {@code replace} allows to remove (an incomplete earlier generation). On failure
     * the partial directory is removed and the exception (or error) goes on.
     */
    static void generate(Path dir, Generator g, boolean replace) {
        Path partial = partial(dir);
        Database.deleteTree(partial); // what a stopped run left
        try {
            try (Database d = Database.openOrCreate(partial)) {
                g.generate(d);
            }
            if (replace) {
                Database.deleteTree(dir);
            } else if (Files.isDirectory(dir)) {
                Files.delete(dir); // empty: checked by the caller
            }
            Files.move(partial, dir, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            Database.deleteTree(partial);
            throw new UncheckedIOException("cannot move the generated data to " + dir + ": " + e.getMessage(), e);
        } catch (RuntimeException | Error e) {
            Database.deleteTree(partial);
            throw e;
        }
    }

    /** For the selftest: generates {@code dir} unless it holds a database already, saying so on {@code out}. */
    static void generateOnce(Path dir, Generator g, PrintStream out) {
        if (Files.isRegularFile(dir.resolve("manifest.json"))) {
            return;
        }
        out.println("generating " + dir + " ...");
        // no manifest: not a database, at most what an older version left half-written in our data directory
        generate(dir, g, true);
    }
}

package io.tessera.cli;


import io.tessera.profile.CacheDirectory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Where Tessera writes outside a database (the README's "Files Tessera writes" lists them): generated benchmark
 * data under {@code ./tessera-data/} unless {@code --data-dir} says otherwise, the shell's history in
 * {@code ~/.tessera_history}, and the terminal library's native helper in {@code native} of Tessera's cache
 * directory ({@code $XDG_CACHE_HOME/tessera}, default {@code ~/.cache/tessera}) rather than in {@code /tmp}.
 */
final class UserFiles {

    /** The default of {@code --data-dir}: {@code tessera-data} in the current directory. */
    static final String DEFAULT_DATA_DIR = "tessera-data";

    private UserFiles() {
    }

    /** Where JLine's native library goes: {@code native} in Tessera's cache directory ({@link CacheDirectory}). */
    static Path terminalLibraryDir() {
        return CacheDirectory.root().resolve("native");
    }

    /**
     * Points JLine's native library extraction (property {@code jline.tmpdir} of JLine 3.30; it would use
     * {@code java.io.tmpdir} otherwise) at {@link #terminalLibraryDir()}, unless set already. Called before any terminal is
     * built; where the cache cannot be made, JLine keeps its default.
     */
    static void placeTerminalLibrary() {
        if (System.getProperty("jline.tmpdir") != null) {
            return;
        }
        Path dir = terminalLibraryDir();
        try {
            Files.createDirectories(dir);
            System.setProperty("jline.tmpdir", dir.toString());
        } catch (IOException | SecurityException e) {
            // no cache directory: JLine extracts into java.io.tmpdir as before
        }
    }
}

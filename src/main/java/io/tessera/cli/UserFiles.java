package io.tessera.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Where Tessera writes outside a database (the README's "Files Tessera writes" lists them): generated benchmark
 * data under {@code ./tessera-data/} unless {@code --data-dir} says otherwise, the shell's history in
 * {@code ~/.tessera_history}, and the terminal library's native helper in the per-user cache
 * {@code $XDG_CACHE_HOME/tessera} (default {@code ~/.cache/tessera}) rather than in {@code /tmp}.
 */
final class UserFiles {

    /** The default of {@code --data-dir}: {@code tessera-data} in the current directory. */
    static final String DEFAULT_DATA_DIR = "tessera-data";

    private UserFiles() {
    }

    /** The per-user cache: {@code $XDG_CACHE_HOME/tessera}, else {@code ~/.cache/tessera}. */
    static Path cacheDir() {
        String xdg = System.getenv("XDG_CACHE_HOME");
        Path base = xdg != null && !xdg.isBlank() && Path.of(xdg).isAbsolute() ? Path.of(xdg)
                : Path.of(System.getProperty("user.home"), ".cache");
        return base.resolve("tessera");
    }

    /**
     * Points JLine's native library extraction (property {@code jline.tmpdir} of JLine 3.30; it would use
     * {@code java.io.tmpdir} otherwise) at the cache directory, unless set already. Called before any terminal is
     * built; where the cache cannot be made, JLine keeps its default.
     */
    static void placeTerminalLibrary() {
        if (System.getProperty("jline.tmpdir") != null) {
            return;
        }
        Path dir = cacheDir();
        try {
            Files.createDirectories(dir);
            System.setProperty("jline.tmpdir", dir.toString());
        } catch (IOException | SecurityException e) {
            // no cache directory: JLine extracts into java.io.tmpdir as before
        }
    }
}

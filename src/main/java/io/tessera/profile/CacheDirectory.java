package io.tessera.profile;

import java.nio.file.Path;
import java.util.Map;

/**
 * Tessera's cache directory (compiled kernels, measured device bandwidth): the system property
 * tessera.cache.dir, else $TESSERA_CACHE_DIR, else $XDG_CACHE_HOME/tessera, else ~/.cache/tessera.
 */
public final class CacheDirectory {
    public static final String PROPERTY = "tessera.cache.dir";

    private CacheDirectory() {
    }

    /** The cache directory of this process (not created). */
    public static Path root() {
        return resolve(System.getProperty(PROPERTY), System.getenv(), System.getProperty("user.home"));
    }

    /** The rule itself, for tests. */
    static Path resolve(String property, Map<String, String> env, String userHome) {
        if (property != null && !property.isBlank()) {
            return Path.of(property);
        }
        String own = env.get("TESSERA_CACHE_DIR");
        if (own != null && !own.isBlank()) {
            return Path.of(own);
        }
        String xdg = env.get("XDG_CACHE_HOME");
        if (xdg != null && !xdg.isBlank() && Path.of(xdg).isAbsolute()) {
            return Path.of(xdg, "tessera");
        }
        return Path.of(userHome, ".cache", "tessera");
    }
}

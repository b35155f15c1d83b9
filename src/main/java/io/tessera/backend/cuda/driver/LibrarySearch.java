package io.tessera.backend.cuda.driver;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.SymbolLookup;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Where the CUDA libraries are looked for, in order, and the loading itself. A candidate without a
 * slash is a name for the dynamic loader (LD_LIBRARY_PATH, ld.so.cache); one with a slash is a file.
 */
@SuppressWarnings("restricted")  // the foreign function API's native access, enabled by the launcher
public final class LibrarySearch {
    /** System property naming the driver library file to use instead of the search. */
    static final String DRIVER_PROPERTY = "tessera.cuda.driver";
    /** System property naming the NVRTC library file to use instead of the search. */
    public static final String NVRTC_PROPERTY = "tessera.cuda.nvrtc";

    private static final Pattern CUDA_DIR_VERSION = Pattern.compile("cuda-(\\d+)(?:\\.(\\d+))?");

    private LibrarySearch() {
    }

    /** A library found: its symbols and the candidate it was loaded from. */
    public record Loaded(SymbolLookup symbols, String from) {
    }

    /** The driver's candidates: an explicit file if given, else libcuda.so.1 through the loader, then the usual files. */
    static List<String> driverCandidates(String override) {
        if (override != null && !override.isBlank()) {
            return List.of(override);
        }
        return List.of("libcuda.so.1", "/usr/lib/x86_64-linux-gnu/libcuda.so.1", "/usr/lib64/libcuda.so.1",
                "/usr/lib/wsl/lib/libcuda.so.1");
    }

    /**
     * NVRTC's candidates, in order: an explicit file; the loader's names (libnvrtc.so, .so.13, .so.12);
     * then under $CUDA_HOME, $CUDA_PATH, /usr/local/cuda and /usr/local/cuda-X.Y (newest first), each
     * in lib64, lib and targets/x86_64-linux/lib, and last /usr/lib/x86_64-linux-gnu: libnvrtc.so,
     * every versioned libnvrtc.so.N found there (newest first), .so.13 and .so.12.
     *
     * @param env         the environment (CUDA_HOME, CUDA_PATH)
     * @param cudaDirs    the /usr/local/cuda-* directories that exist, in any order
     * @param listing     the file names in a directory (empty when it does not exist)
     */
    static List<String> nvrtcCandidates(String override, Map<String, String> env, List<Path> cudaDirs,
                                        java.util.function.Function<Path, List<String>> listing) {
        if (override != null && !override.isBlank()) {
            return List.of(override);
        }
        Set<String> out = new LinkedHashSet<>();
        out.add("libnvrtc.so");
        out.add("libnvrtc.so.13");
        out.add("libnvrtc.so.12");
        List<Path> roots = new ArrayList<>();
        for (String var : List.of("CUDA_HOME", "CUDA_PATH")) {
            String v = env.get(var);
            if (v != null && !v.isBlank()) {
                roots.add(Path.of(v));
            }
        }
        roots.add(Path.of("/usr/local/cuda"));
        cudaDirs.stream().sorted(Comparator.comparing(LibrarySearch::cudaDirVersion).reversed()).forEach(roots::add);
        List<Path> dirs = new ArrayList<>();
        for (Path r : roots) {
            // lib64 in the runfile layout; lib (and the targets tree) in the packaged layouts
            dirs.add(r.resolve("lib64"));
            dirs.add(r.resolve("lib"));
            dirs.add(r.resolve("targets/x86_64-linux/lib"));
        }
        dirs.add(Path.of("/usr/lib/x86_64-linux-gnu"));
        for (Path dir : dirs) {
            out.add(dir.resolve("libnvrtc.so").toString());
            listing.apply(dir).stream()
                    .filter(n -> n.matches("libnvrtc\\.so\\.\\d+(\\.\\d+)*"))
                    .sorted(Comparator.comparing(LibrarySearch::soVersion).reversed())
                    .forEach(n -> out.add(dir.resolve(n).toString()));
            out.add(dir.resolve("libnvrtc.so.13").toString());
            out.add(dir.resolve("libnvrtc.so.12").toString());
        }
        return List.copyOf(out);
    }

    /** NVRTC's candidates on this machine. */
    public static List<String> nvrtcCandidates() {
        List<Path> cudaDirs = new ArrayList<>();
        try (Stream<Path> s = Files.list(Path.of("/usr/local"))) {
            s.filter(p -> p.getFileName().toString().startsWith("cuda-")).forEach(cudaDirs::add);
        } catch (IOException | RuntimeException e) {
            // no /usr/local: nothing to add
        }
        return nvrtcCandidates(System.getProperty(NVRTC_PROPERTY), System.getenv(), cudaDirs, LibrarySearch::list);
    }

    private static List<String> list(Path dir) {
        try (Stream<Path> s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString()).toList();
        } catch (IOException | RuntimeException e) {
            return List.of();
        }
    }

    /** Sort key of /usr/local/cuda-X.Y: X * 1000 + Y. */
    static int cudaDirVersion(Path dir) {
        Matcher m = CUDA_DIR_VERSION.matcher(dir.getFileName().toString());
        if (!m.matches()) {
            return -1;
        }
        return Integer.parseInt(m.group(1)) * 1000 + (m.group(2) == null ? 0 : Integer.parseInt(m.group(2)));
    }

    /** Sort key of libx.so.A.B.C: the numbers as a zero-padded string. */
    static String soVersion(String name) {
        String[] parts = name.substring(name.indexOf(".so.") + 4).split("\\.");
        StringBuilder sb = new StringBuilder();
        for (String p : parts) {
            sb.append(String.format("%06d", Long.parseLong(p)));
        }
        return sb.toString();
    }

    /**
     * Loads the first candidate that loads. Files that do not exist are skipped without a try.
     * Returns null when none loads; {@code tried} then lists each candidate with why it failed.
     */
    public static Loaded loadFirst(List<String> candidates, List<String> tried) {
        for (String c : candidates) {
            try {
                if (c.contains("/")) {
                    Path p = Path.of(c);
                    if (!Files.exists(p)) {
                        tried.add(c + " (absent)");
                        continue;
                    }
                    preloadCompanions(p);
                    return new Loaded(SymbolLookup.libraryLookup(p, Arena.global()), c);
                }
                return new Loaded(SymbolLookup.libraryLookup(c, Arena.global()), c);
            } catch (IllegalArgumentException | IllegalCallerException e) {
                tried.add(c + " (" + (e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage()) + ")");
            }
        }
        return null;
    }

    /**
     * NVRTC opens libnvrtc-builtins.so.X.Y by name when it compiles; when NVRTC itself was found as a
     * file outside the loader's path, that name would not resolve. Loading the builtins from the
     * same directory first makes the loader find it by its soname.
     */
    private static void preloadCompanions(Path lib) {
        String name = lib.getFileName().toString();
        if (!name.startsWith("libnvrtc.so")) {
            return;
        }
        Path dir = lib.toAbsolutePath().getParent();
        for (String n : list(dir)) {
            if (n.matches("libnvrtc-builtins\\.so\\.\\d+(\\.\\d+)*")) {
                try {
                    SymbolLookup.libraryLookup(dir.resolve(n), Arena.global());
                } catch (IllegalArgumentException e) {
                    // NVRTC reports it itself if it really needs it
                }
            }
        }
    }
}

package io.tessera.backend.cuda.compile;

import io.tessera.backend.cuda.CudaException;
import io.tessera.backend.cuda.driver.CudaContext;
import io.tessera.profile.CacheDirectory;
import io.tessera.profile.DeviceInfo;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Compiles CUDA source to a CUBIN for one GPU architecture with NVRTC, and keeps every CUBIN in an
 * on-disk cache keyed by a SHA-256 of (source, headers, architecture, options, NVRTC version), so a
 * repeated query compiles nothing. A CUBIN is written to a temporary file and renamed into place, so
 * concurrent compilers and crashes never leave half a file under a key.
 */
public final class KernelCompiler {
    /** Options always given (besides the architecture). */
    public static final List<String> BASE_OPTIONS = List.of("-default-device", "-std=c++17");
    /** Options given when NVRTC accepts them; optimization is on by default (ptxas -O3). */
    public static final List<String> OPTIONAL_OPTIONS = List.of("--extra-device-vectorization");

    /** The compiler behind the cache: NVRTC, or a stand-in in tests. */
    @FunctionalInterface
    public interface Backend {
        byte[] compileCubin(String source, String programName, Map<String, String> headers, List<String> options);
    }

    /** A compiled kernel image and where it came from. */
    public record Compiled(byte[] cubin, String key, boolean fromCache, double compileMillis, String log) {
    }

    private final Backend backend;
    private final String compilerVersion;
    private final Path cacheDir;

    /** NVRTC with the default cache directory (&lt;cache&gt;/kernels). */
    public static KernelCompiler nvrtc() {
        return nvrtc(CacheDirectory.root().resolve("kernels"));
    }

    /** NVRTC with the given cache directory (null: no cache). */
    public static KernelCompiler nvrtc(Path cacheDir) {
        Nvrtc nv = Nvrtc.get();
        int[] v = nv.version();
        String version = "nvrtc " + v[0] + "." + v[1];
        return new KernelCompiler((src, name, headers, options) -> compileWithFallback(nv, src, name, headers, options),
                version, cacheDir);
    }

    public KernelCompiler(Backend backend, String compilerVersion, Path cacheDir) {
        this.backend = backend;
        this.compilerVersion = compilerVersion;
        this.cacheDir = cacheDir;
    }

    public String compilerVersion() {
        return compilerVersion;
    }

    public Path cacheDir() {
        return cacheDir;
    }

    /** The architecture option for a compute capability, such as --gpu-architecture=sm_90 for 9.0. */
    public static String archOption(int ccMajor, int ccMinor) {
        return "--gpu-architecture=sm_" + ccMajor + ccMinor;
    }

    /** Every option for a compute capability. */
    public static List<String> options(int ccMajor, int ccMinor) {
        List<String> o = new ArrayList<>();
        o.add(archOption(ccMajor, ccMinor));
        o.addAll(BASE_OPTIONS);
        o.addAll(OPTIONAL_OPTIONS);
        return List.copyOf(o);
    }

    /** Compiles for the GPU of a context. */
    public Compiled compile(String source, String programName, Map<String, String> headers, CudaContext ctx) {
        DeviceInfo info = ctx.info();
        return compile(source, programName, headers, info.ccMajor(), info.ccMinor());
    }

    /** Compiles for a compute capability (cached). */
    public Compiled compile(String source, String programName, Map<String, String> headers, int ccMajor, int ccMinor) {
        List<String> options = options(ccMajor, ccMinor);
        String key = cacheKey(source, headers, options, compilerVersion);
        Path file = cacheDir == null ? null : cacheDir.resolve(key + ".cubin");
        if (file != null && Files.isRegularFile(file)) {
            try {
                byte[] cubin = Files.readAllBytes(file);
                if (cubin.length > 0) {
                    return new Compiled(cubin, key, true, 0, "");
                }
            } catch (IOException e) {
                // unreadable entry: compile again and replace it
            }
        }
        long t0 = System.nanoTime();
        byte[] cubin = backend.compileCubin(source, programName, headers, options);
        double ms = (System.nanoTime() - t0) / 1e6;
        if (file != null) {
            store(file, cubin);
        }
        return new Compiled(cubin, key, false, ms, "");
    }

    /** The cache key: hex SHA-256 over the source, the headers (by name), the options and the compiler version. */
    public static String cacheKey(String source, Map<String, String> headers, List<String> options, String compilerVersion) {
        try {
            MessageDigest md = MessageDigest.getInstance("SHA-256");
            field(md, "tessera-kernel-v2");
            field(md, compilerVersion);
            field(md, String.join("\u0000", options));
            for (Map.Entry<String, String> h : new TreeMap<>(headers).entrySet()) {
                field(md, h.getKey());
                field(md, h.getValue());
            }
            // without comments: kernels that differ only in them (in the constants they name) are one compile
            field(md, io.tessera.backend.GeneratedSource.withoutComments(source));
            return HexFormat.of().formatHex(md.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Length-prefixed, so that no two different inputs hash the same bytes. */
    private static void field(MessageDigest md, String s) {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        md.update(String.valueOf(b.length).getBytes(StandardCharsets.US_ASCII));
        md.update((byte) ':');
        md.update(b);
    }

    private static void store(Path file, byte[] cubin) {
        try {
            Files.createDirectories(file.getParent());
            Path tmp = Files.createTempFile(file.getParent(), file.getFileName().toString(), ".tmp");
            try {
                Files.write(tmp, cubin);
                try {
                    Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
                } catch (AtomicMoveNotSupportedException e) {
                    Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
                }
            } finally {
                Files.deleteIfExists(tmp);
            }
        } catch (IOException e) {
            // a cache that cannot be written only costs a compile next time
            System.err.println("tessera: cannot write kernel cache " + file + ": " + e.getMessage());
        }
    }

    /** Compiles with every option; if NVRTC rejects an optional one, compiles again without the optional ones. */
    static byte[] compileWithFallback(Nvrtc nv, String source, String name, Map<String, String> headers,
                                      List<String> options) {
        try {
            return nv.compile(source, name, headers, options, true).image();
        } catch (KernelCompileException e) {
            throw e;
        } catch (CudaException e) {
            if (e.code() != Nvrtc.NVRTC_ERROR_INVALID_OPTION) {
                throw e;
            }
            List<String> fewer = options.stream().filter(o -> !OPTIONAL_OPTIONS.contains(o)).toList();
            return nv.compile(source, name, headers, fewer, true).image();
        }
    }
}

package io.tessera.bench;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * CUB's {@code cub::DeviceRadixSort::SortPairs} on the keys {@link GpuSortBench} sorts: the program
 * {@code bench/cuda/cub_sort_ref.cu}, run as a process. A binary given, or found at {@link #PREBUILT} (which
 * {@code bench/cuda/build-cub-ref.sh} writes), runs as it is; else the source is compiled with nvcc (on the
 * {@code PATH} or under {@code /usr/local/cuda*}/bin) for the GPU's architecture into the temporary directory. Without
 * either, {@link #find} says why, and the bench runs without the reference.
 */
public final class CubReference {

    /** Where the build script puts the binary, relative to the repository root (carried with .device). */
    public static final Path PREBUILT = Path.of(".device", "cub_sort_ref");
    /** The reference's source, relative to the repository root. */
    public static final Path SOURCE = Path.of("bench", "cuda", "cub_sort_ref.cu");

    /** One run's line: {@code cub_sort rows=N bits=B runs=R median_ms=X keys_per_s=Y checksum=C sorted=1}. */
    public record Result(long rows, double medianMillis, double keysPerSecond, long checksum, boolean sorted) {
    }

    /** A runnable reference, or why there is none. */
    public record Found(Path binary, String why) {
    }

    private CubReference() {
    }

    /**
     * The reference's binary: {@code binary} when given, else {@link #PREBUILT} when it is there, else the source
     * ({@code source}, else {@link #SOURCE}) compiled with nvcc for {@code sm_<ccMajor><ccMinor>}.
     */
    public static Found find(Path binary, Path source, int ccMajor, int ccMinor) {
        if (binary != null) {
            return Files.isExecutable(binary) ? new Found(binary, null)
                    : new Found(null, binary + " is not an executable file");
        }
        if (Files.isExecutable(PREBUILT)) {
            return new Found(PREBUILT, null);
        }
        Path src = source != null ? source : SOURCE;
        Path nvcc = nvcc(System.getenv("PATH"));
        if (nvcc == null) {
            return new Found(null, "nvcc not found on the PATH or under /usr/local/cuda*/bin, and no binary at "
                    + PREBUILT + " (bench/cuda/build-cub-ref.sh builds one where nvcc is)");
        }
        if (!Files.isRegularFile(src)) {
            return new Found(null, "the reference's source " + src.toAbsolutePath() + " is missing (run from the "
                    + "repository root, or give --cub-source)");
        }
        try {
            Path dir = Files.createDirectories(Path.of(System.getProperty("java.io.tmpdir"), "tessera-cub-ref"));
            String arch = "sm_" + ccMajor + ccMinor;
            Path out = dir.resolve("cub_sort_ref_" + arch);
            List<String> cmd = List.of(nvcc.toString(), "-O3", "-std=c++17", "-arch=" + arch, "-o", out.toString(),
                    src.toString());
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
            String log = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!p.waitFor(10, TimeUnit.MINUTES) || p.exitValue() != 0) {
                p.destroyForcibly();
                return new Found(null, "nvcc failed on " + src + ": " + log.strip());
            }
            return new Found(out, null);
        } catch (IOException e) {
            return new Found(null, "cannot compile the reference: " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Found(null, "interrupted while compiling the reference");
        }
    }

    /** nvcc on {@code path} (the PATH's value, may be null) or under /usr/local/cuda*\/bin, or null. */
    public static Path nvcc(String path) {
        List<Path> candidates = new ArrayList<>();
        if (path != null) {
            for (String p : path.split(File.pathSeparator)) {
                if (!p.isEmpty()) {
                    candidates.add(Path.of(p, "nvcc"));
                }
            }
        }
        candidates.add(Path.of("/usr/local/cuda/bin/nvcc"));
        try (Stream<Path> dirs = Files.list(Path.of("/usr/local"))) {
            dirs.filter(d -> d.getFileName().toString().startsWith("cuda-")).sorted()
                    .forEach(d -> candidates.add(d.resolve("bin").resolve("nvcc")));
        } catch (IOException e) {
            // no /usr/local: only the PATH
        }
        for (Path c : candidates) {
            if (Files.isExecutable(c)) {
                return c;
            }
        }
        return null;
    }

    /** Runs the reference on {@code rows} keys of {@code bits} bits from {@code seed}; throws with its output if it fails. */
    public static Result run(Path binary, long rows, int bits, int runs, long seed) throws IOException, InterruptedException {
        List<String> cmd = List.of(binary.toString(), "--rows", Long.toString(rows), "--bits", Integer.toString(bits),
                "--runs", Integer.toString(runs), "--seed", Long.toString(seed));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(10, TimeUnit.MINUTES)) {
            p.destroyForcibly();
            throw new IOException("the CUB reference did not finish within 10 minutes");
        }
        for (String line : out.split("\n")) {
            if (line.startsWith("cub_sort ")) {
                return parse(line);
            }
        }
        throw new IOException("the CUB reference (exit " + p.exitValue() + ") printed no result: " + out.strip());
    }

    /** The result of the reference's output line. */
    static Result parse(String line) {
        Map<String, String> f = new TreeMap<>();
        for (String part : line.trim().split("\\s+")) {
            int eq = part.indexOf('=');
            if (eq > 0) {
                f.put(part.substring(0, eq), part.substring(eq + 1));
            }
        }
        try {
            return new Result(Long.parseLong(f.get("rows")), Double.parseDouble(f.get("median_ms")),
                    Double.parseDouble(f.get("keys_per_s")), Long.parseUnsignedLong(f.get("checksum")),
                    "1".equals(f.get("sorted")));
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("not a CUB reference result: " + line, e);
        }
    }
}

package io.tessera.backend.cuda.compile;

import io.tessera.profile.CacheDirectory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The kernel cache: keys, hits, misses, and the options given to NVRTC. */
class CudaKernelCompilerTest {
    @TempDir
    Path dir;

    private final List<List<String>> calls = new ArrayList<>();

    private KernelCompiler compiler(String version) {
        return new KernelCompiler((src, name, headers, options) -> {
            calls.add(options);
            return ("cubin:" + src.hashCode() + ":" + options).getBytes();
        }, version, dir);
    }

    @Test
    void optionsTargetTheDevicesOwnArchitecture() {
        assertEquals("--gpu-architecture=sm_90", KernelCompiler.archOption(9, 0));
        assertEquals("--gpu-architecture=sm_86", KernelCompiler.archOption(8, 6));
        List<String> o = KernelCompiler.options(9, 0);
        assertEquals("--gpu-architecture=sm_90", o.get(0));
        assertTrue(o.contains("-default-device"));
        assertTrue(o.contains("-std=c++17"));
    }

    @Test
    void aRepeatedCompileComesFromTheCache() throws Exception {
        KernelCompiler c = compiler("nvrtc 13.0");
        Map<String, String> headers = Map.of("tessera_crystal.cuh", "// header");
        KernelCompiler.Compiled first = c.compile("kernel A", "a.cu", headers, 9, 0);
        assertFalse(first.fromCache());
        assertEquals(1, calls.size());
        assertTrue(Files.isRegularFile(dir.resolve(first.key() + ".cubin")));

        KernelCompiler.Compiled again = c.compile("kernel A", "a.cu", headers, 9, 0);
        assertTrue(again.fromCache());
        assertEquals(1, calls.size(), "the second compile must not call the compiler");
        assertArrayEquals(first.cubin(), again.cubin());

        // a new compiler object (a later process) finds the same entry
        KernelCompiler later = compiler("nvrtc 13.0");
        assertTrue(later.compile("kernel A", "other-name.cu", headers, 9, 0).fromCache());
        assertEquals(1, calls.size());
        try (var files = Files.list(dir)) {
            assertTrue(files.noneMatch(p -> p.toString().endsWith(".tmp")), "temporary files left behind");
        }
    }

    @Test
    void sourceHeadersArchitectureAndVersionAllChangeTheKey() {
        Map<String, String> h = Map.of("h.cuh", "x");
        List<String> o90 = KernelCompiler.options(9, 0);
        String base = KernelCompiler.cacheKey("src", h, o90, "nvrtc 13.0");
        assertEquals(base, KernelCompiler.cacheKey("src", Map.of("h.cuh", "x"), o90, "nvrtc 13.0"));
        assertNotEquals(base, KernelCompiler.cacheKey("src2", h, o90, "nvrtc 13.0"));
        assertNotEquals(base, KernelCompiler.cacheKey("src", Map.of("h.cuh", "y"), o90, "nvrtc 13.0"));
        assertNotEquals(base, KernelCompiler.cacheKey("src", h, KernelCompiler.options(8, 0), "nvrtc 13.0"));
        assertNotEquals(base, KernelCompiler.cacheKey("src", h, o90, "nvrtc 13.1"));
        // no ambiguity between where the source ends and a header begins
        assertNotEquals(KernelCompiler.cacheKey("ab", Map.of(), o90, "v"), KernelCompiler.cacheKey("a", Map.of(), o90, "bv"));
        assertTrue(base.matches("[0-9a-f]{64}"), base);

        KernelCompiler c = compiler("nvrtc 13.0");
        c.compile("src", "s.cu", h, 9, 0);
        c.compile("src", "s.cu", h, 8, 0);
        compiler("nvrtc 13.1").compile("src", "s.cu", h, 9, 0);
        assertEquals(3, calls.size());
    }

    @Test
    void anEmptyOrBrokenEntryIsCompiledAgain() throws Exception {
        KernelCompiler c = compiler("nvrtc 13.0");
        KernelCompiler.Compiled first = c.compile("k", "k.cu", Map.of(), 9, 0);
        Files.write(dir.resolve(first.key() + ".cubin"), new byte[0]);
        KernelCompiler.Compiled again = c.compile("k", "k.cu", Map.of(), 9, 0);
        assertFalse(again.fromCache());
        assertEquals(2, calls.size());
        assertTrue(Files.size(dir.resolve(first.key() + ".cubin")) > 0);
    }

    @Test
    void withoutACacheDirectoryEveryCompileCompiles() {
        KernelCompiler c = new KernelCompiler((s, n, h, o) -> {
            calls.add(o);
            return new byte[] {1};
        }, "v", null);
        c.compile("k", "k.cu", Map.of(), 9, 0);
        c.compile("k", "k.cu", Map.of(), 9, 0);
        assertEquals(2, calls.size());
    }
}

package io.tessera.backend.cuda.driver;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The order in which the CUDA libraries are looked for, and what is said when none is there. */
class CudaLibrarySearchTest {
    @Test
    void driverIsLibcudaSo1ThroughTheLoaderFirst() {
        List<String> c = LibrarySearch.driverCandidates(null);
        assertEquals("libcuda.so.1", c.get(0));
        assertTrue(c.contains("/usr/lib/x86_64-linux-gnu/libcuda.so.1"));
        assertEquals(List.of("/opt/x/libcuda.so.1"), LibrarySearch.driverCandidates("/opt/x/libcuda.so.1"));
    }

    @Test
    void nvrtcOrderLoaderThenCudaHomeThenUsrLocalNewestFirstThenSystem() {
        Map<String, List<String>> dirs = Map.of(
                "/opt/cuda/lib64", List.of("libnvrtc.so.12.4.99", "libnvrtc-builtins.so.12.4", "libnvrtc.so.12"),
                "/usr/local/cuda-13.0/lib64", List.of("libnvrtc.so.13"));
        List<String> c = LibrarySearch.nvrtcCandidates(null, Map.of("CUDA_HOME", "/opt/cuda"),
                List.of(Path.of("/usr/local/cuda-12.4"), Path.of("/usr/local/cuda-13.0"), Path.of("/usr/local/cuda-9.2")),
                d -> dirs.getOrDefault(d.toString(), List.of()));
        assertEquals(List.of("libnvrtc.so", "libnvrtc.so.13", "libnvrtc.so.12"), c.subList(0, 3));
        int home = c.indexOf("/opt/cuda/lib64/libnvrtc.so");
        int homeVersioned = c.indexOf("/opt/cuda/lib64/libnvrtc.so.12.4.99");
        int local = c.indexOf("/usr/local/cuda/lib64/libnvrtc.so");
        int v13 = c.indexOf("/usr/local/cuda-13.0/lib64/libnvrtc.so");
        int v124 = c.indexOf("/usr/local/cuda-12.4/lib64/libnvrtc.so");
        int v92 = c.indexOf("/usr/local/cuda-9.2/lib64/libnvrtc.so");
        int system = c.indexOf("/usr/lib/x86_64-linux-gnu/libnvrtc.so");
        assertTrue(3 <= home && home < homeVersioned && homeVersioned < local && local < v13 && v13 < v124
                && v124 < v92 && v92 < system, c.toString());
        assertTrue(c.contains("/usr/local/cuda-13.0/lib64/libnvrtc.so.13"));
        // packaged layouts keep the libraries in lib/ (lib64 may be a link to it) or under targets/
        int lib13 = c.indexOf("/usr/local/cuda-13.0/lib/libnvrtc.so");
        int targets13 = c.indexOf("/usr/local/cuda-13.0/targets/x86_64-linux/lib/libnvrtc.so");
        assertTrue(v13 < lib13 && lib13 < targets13 && targets13 < v124, c.toString());
        assertTrue(c.stream().noneMatch(s -> s.contains("builtins")), "builtins are not NVRTC itself: " + c);
        assertEquals(c.size(), c.stream().distinct().count(), "duplicates: " + c);
    }

    @Test
    void explicitNvrtcFileWins() {
        assertEquals(List.of("/x/libnvrtc.so.13"),
                LibrarySearch.nvrtcCandidates("/x/libnvrtc.so.13", Map.of(), List.of(), d -> List.of()));
    }

    @Test
    void versionKeys() {
        assertTrue(LibrarySearch.cudaDirVersion(Path.of("/usr/local/cuda-13.0"))
                > LibrarySearch.cudaDirVersion(Path.of("/usr/local/cuda-12.9")));
        assertEquals(-1, LibrarySearch.cudaDirVersion(Path.of("/usr/local/cuda-x")));
        assertTrue(LibrarySearch.soVersion("libnvrtc.so.13.0.48").compareTo(LibrarySearch.soVersion("libnvrtc.so.12.9")) > 0);
        assertTrue(LibrarySearch.soVersion("libnvrtc.so.12.10").compareTo(LibrarySearch.soVersion("libnvrtc.so.12.9")) > 0);
    }

    @Test
    void absentFilesAreSkippedAndListed() {
        List<String> tried = new ArrayList<>();
        assertNull(LibrarySearch.loadFirst(List.of("/nonexistent/libcuda.so.1", "libtessera-no-such-lib.so.7"), tried));
        assertEquals("/nonexistent/libcuda.so.1 (absent)", tried.get(0));
        assertTrue(tried.get(1).startsWith("libtessera-no-such-lib.so.7 ("), tried.toString());
    }
}

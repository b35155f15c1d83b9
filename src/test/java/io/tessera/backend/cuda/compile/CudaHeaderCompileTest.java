package io.tessera.backend.cuda.compile;

import io.tessera.backend.cuda.ops.RadixScatter;
import io.tessera.backend.cuda.ops.SearchIndex;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * tessera_crystal.cuh and the sample kernels (with the cuckoo tables of tessera_query.cuh) compile with nvcc
 * for sm_90 (the H200), in several tile shapes, without warnings, and every kernel keeps its tiles in registers
 * (no stack frame, no spills); so do the executor's utility kernels of tessera_query.cuh (fill, the tile-count scan,
 * the slot compaction), the sort module (tessera_sort.cuh's radix sort and top-k, tessera_search.cuh's searches) and
 * the window module (tessera_window.cuh's scans);
 * the CUB reference of {@code tessera bench gpu-sort} compiles too. Without nvcc the test fails, unless
 * TESSERA_NO_NVCC=1 says that is expected.
 */
public class CudaHeaderCompileTest {
    private static Path nvcc;

    @TempDir
    Path dir;

    @BeforeAll
    static void findNvcc() {
        nvcc = locateNvcc();
        if (nvcc == null) {
            if ("1".equals(System.getenv("TESSERA_NO_NVCC"))) {
                Assumptions.abort("nvcc not found and TESSERA_NO_NVCC=1: CUDA compile tests not run");
            }
            fail("nvcc not found on the PATH or in /usr/local/cuda/bin: the CUDA compile tests need it "
                    + "(set TESSERA_NO_NVCC=1 to run without them on a machine that has no CUDA toolkit)");
        }
    }

    /** Asserts that nvcc compiled {@code what} without a warning, a stack frame or a spill; the kernels ptxas named. */
    private static List<String> compiledWithoutSpills(Result r, String what) {
        assertEquals(0, r.exit(), "nvcc failed on " + what + ":\n" + r.output());
        assertFalse(r.output().toLowerCase().contains("warning"), "nvcc warned:\n" + r.output());
        Matcher m = FRAME.matcher(r.output());
        List<String> kernels = new ArrayList<>();
        while (m.find()) {
            kernels.add(m.group(1));
            assertEquals("0", m.group(2), m.group(1) + " has a stack frame:\n" + r.output());
            assertEquals("0", m.group(3), m.group(1) + " spills:\n" + r.output());
        }
        return kernels;
    }

    /** nvcc on the PATH or under /usr/local/cuda*\/bin, or null (the CUB reference's search). */
    public static Path locateNvcc() {
        return io.tessera.bench.CubReference.nvcc(System.getenv("PATH"));
    }

    record Result(int exit, String output, Path cubin) {
    }

    private Result compile(String fileName, String source, String... defines) throws IOException, InterruptedException {
        for (java.util.Map.Entry<String, String> h : CudaSources.headers().entrySet()) {
            Files.writeString(dir.resolve(h.getKey()), h.getValue(), StandardCharsets.UTF_8);
        }
        Path src = dir.resolve(fileName);
        Files.writeString(src, source, StandardCharsets.UTF_8);
        Path cubin = dir.resolve(fileName + "." + String.join("_", defines).replaceAll("[^A-Za-z0-9_]", "") + ".cubin");
        List<String> cmd = new ArrayList<>(List.of(nvcc.toString(), "-arch=sm_90", "-cubin", "-std=c++17",
                "-Xptxas", "-v", "-o", cubin.toString()));
        for (String d : defines) {
            cmd.add("-D" + d);
        }
        cmd.add(src.toString());
        Process p = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(5, TimeUnit.MINUTES), "nvcc did not finish");
        return new Result(p.exitValue(), out, cubin);
    }

    private static final Pattern FRAME = Pattern.compile(
            "Function properties for (\\w+)\\s+(\\d+) bytes stack frame, (\\d+) bytes spill stores, (\\d+) bytes spill loads");

    /**
     * Compiles the samples with the given macros. The query kernels must not spill; the coverage
     * kernel tessera_primitives (five tiles of 8-byte values at once) is held to that only when
     * {@code strictCoverageKernel}, since wide tiles legitimately run it out of registers.
     */
    private void assertCleanSamples(boolean strictCoverageKernel, String... defines) throws Exception {
        Result r = compile(CudaSources.SAMPLES, CudaSources.samples(), defines);
        assertEquals(0, r.exit(), "nvcc failed on the samples " + List.of(defines) + ":\n" + r.output());
        assertTrue(Files.size(r.cubin()) > 0, "empty cubin");
        assertFalse(r.output().toLowerCase().contains("warning"), "nvcc warned:\n" + r.output());
        Matcher m = FRAME.matcher(r.output());
        List<String> kernels = new ArrayList<>();
        while (m.find()) {
            kernels.add(m.group(1));
            if (!strictCoverageKernel && m.group(1).equals("tessera_primitives")) {
                continue;
            }
            assertEquals("0", m.group(2), m.group(1) + " has a stack frame " + List.of(defines) + ":\n" + r.output());
            assertEquals("0", m.group(3), m.group(1) + " spills " + List.of(defines) + ":\n" + r.output());
        }
        for (String k : List.of("ssb_q11", "tessera_read_bandwidth", "tessera_select_gt", "tessera_probe_sum",
                "tessera_primitives", "tessera_cuckoo_insert", "tessera_cuckoo_find", "tessera_scan_counts")) {
            assertTrue(kernels.contains(k), "kernel " + k + " missing from ptxas output:\n" + r.output());
        }
    }

    @Test
    void samplesCompileForSm90WithTheDefaultTile() throws Exception {
        assertCleanSamples(true);
    }

    @Test
    void samplesCompileWithStripedTiles() throws Exception {
        // 3 items per thread: no vector groups, every tile striped
        assertCleanSamples(true, "SAMPLE_BLOCK_THREADS=256", "SAMPLE_ITEMS_PER_THREAD=3");
    }

    @Test
    void samplesCompileWithWideTiles() throws Exception {
        // 8 items per thread: two vector groups per thread; 64 threads: two warps
        assertCleanSamples(false, "SAMPLE_BLOCK_THREADS=64", "SAMPLE_ITEMS_PER_THREAD=8");
    }

    @Test
    void utilityKernelsCompileWithoutSpills() throws Exception {
        // the executor's module: fill, and the compaction of group tables that it runs before reading groups back
        Result r = compile(CudaSources.UTILITY, CudaSources.utilitySource());
        List<String> kernels = compiledWithoutSpills(r, "the utility kernels");
        for (String k : List.of("tessera_fill64", "tessera_count_slots", "tessera_compact_slots", "tessera_gather64",
                "tessera_sort_keys3", "tessera_sort_small", "tessera_gather64_many", "tessera_zero_ranges")) {
            assertTrue(kernels.contains(k), "kernel " + k + " missing from ptxas output:\n" + r.output());
        }
    }

    @Test
    void sortAndSearchKernelsCompileWithoutSpills() throws Exception {
        // the module of the radix sort, the bitonic top-k and the sorted searches, as GpuRuntime compiles it
        Result r = compile(CudaSources.SORT_MODULE, CudaSources.sortSource());
        List<String> kernels = compiledWithoutSpills(r, "the sort kernels");
        for (String k : List.of("tessera_radix_bits_init", "tessera_radix_bits", "tessera_radix_bits_totals",
                "tessera_radix_clear",
                "tessera_radix_digit_totals", "tessera_radix_scatter", "tessera_radix_gather_keys", "tessera_sort_rows_out",
                "tessera_radix_starts", "tessera_radix_onesweep_12", "tessera_radix_onesweep_12_early",
                "tessera_radix_onesweep_16", "tessera_radix_staged_12", "tessera_radix_staged_16", "tessera_radix_staged_20",
                "tessera_radix_staged_15_384",
                "tessera_topk_tile", "tessera_topk_sample", "tessera_topk_filter", "tessera_search_binary",
                "tessera_search_pary_4", "tessera_search_pary_8", "tessera_search_pary_16", "tessera_search_pary_32",
                "tessera_search_index_level", "tessera_search_index_1", "tessera_search_index_4", "tessera_search_index_8",
                "tessera_search_index_16")) {
            assertTrue(kernels.contains(k), "kernel " + k + " missing from ptxas output:\n" + r.output());
        }
        String defaultSearch = SearchIndex.kernel(SearchIndex.DEFAULT_LANES);
        assertTrue(kernels.contains(defaultSearch), "the default search " + defaultSearch + " is not compiled");
        // each scatter's static shared memory stays under the 48 KB a block gets without opting in, and its blocks an
        // SM (static and dynamic shared memory and the 1 KB the SM keeps per block) fit the H100's and H200's 228 KB
        for (RadixScatter scatter : RadixScatter.values()) {
            Matcher smem = Pattern.compile("Compiling entry function '" + scatter.kernel()
                    + "'[\\s\\S]*?(\\d+) bytes smem").matcher(r.output());
            assertTrue(smem.find(), r.output());
            int bytes = Integer.parseInt(smem.group(1));
            assertTrue(bytes <= 48 * 1024, scatter.kernel() + " takes " + bytes + " bytes of shared memory");
            long perSm = (long) scatter.blocksPerSm() * (bytes + scatter.dynamicShared() + 1024);
            assertTrue(perSm <= 228 * 1024, scatter.kernel() + ": " + scatter.blocksPerSm() + " blocks take " + perSm
                    + " bytes of shared memory an SM");
        }
    }

    @Test
    void windowKernelsCompileWithoutSpills() throws Exception {
        // the module of the window functions' scans, as GpuRuntime compiles it at a window's first run
        Result r = compile(CudaSources.WINDOW_MODULE, CudaSources.windowSource());
        List<String> kernels = compiledWithoutSpills(r, "the window kernels");
        for (String k : List.of("tessera_window_differs", "tessera_window_load", "tessera_window_positions",
                "tessera_window_ends", "tessera_window_scan_tile", "tessera_window_scan_carry",
                "tessera_window_result")) {
            assertTrue(kernels.contains(k), "kernel " + k + " missing from ptxas output:\n" + r.output());
        }
    }

    @Test
    void theCubReferenceOfTheSortBenchCompiles() throws Exception {
        // bench/cuda/cub_sort_ref.cu, which `tessera bench gpu-sort` runs beside its own sort (CUB ships with nvcc)
        Path source = Path.of("bench/cuda/cub_sort_ref.cu").toAbsolutePath();
        Path out = dir.resolve("cub_sort_ref");
        Process p = new ProcessBuilder(nvcc.toString(), "-O3", "-std=c++17", "-arch=sm_90", "-o", out.toString(),
                source.toString()).redirectErrorStream(true).start();
        String log = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(10, TimeUnit.MINUTES), "nvcc did not finish");
        assertEquals(0, p.exitValue(), "nvcc failed on the CUB reference:\n" + log);
        assertTrue(Files.isExecutable(out));
    }

    @Test
    void aBrokenKernelIsReported() throws Exception {
        String broken = "#include \"tessera_crystal.cuh\"\n"
                + "extern \"C\" __global__ void k(const int* a, int n) { int items[4];\n"
                + "  tessera::BlockLoad<128, 4>(a, items, n, 7); }\n";
        Result r = compile("broken.cu", broken);
        assertNotEquals(0, r.exit(), "nvcc accepted a wrong call:\n" + r.output());
        assertTrue(r.output().contains("error"), r.output());
    }
}

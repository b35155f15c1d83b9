package io.tessera.backend.cuda.compile;

import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The shipped CUDA sources, and the rule that the backend's foundation (all but exec, gen and runtime) needs java.base only. */
class CudaSourcesTest {
    @Test
    void headerAndSamplesAreOnTheClasspath() {
        String h = CudaSources.crystalHeader();
        for (String name : List.of("BlockLoad", "BlockLoadSel", "BlockPredGT", "BlockPredAndBetween", "BlockScan",
                "BlockShuffle", "BlockStore", "BlockLookupPerfect", "BlockLookupLinear", "BlockAggregate")) {
            assertTrue(h.contains(" " + name + "(") || h.contains("BlockPred##OP"), name);
        }
        assertTrue(h.contains("#ifndef TESSERA_CRYSTAL_CUH"));
        assertTrue(!h.contains("#include <"), "the header must need no system headers (NVRTC has none)");
        String s = CudaSources.samples();
        assertTrue(s.contains("#include \"tessera_crystal.cuh\""));
        for (String k : List.of("ssb_q11", "tessera_read_bandwidth", "tessera_select_gt", "tessera_probe_sum")) {
            assertTrue(s.contains("extern \"C\" __global__ void __launch_bounds__(") && s.contains("\n" + k + "("), k);
        }
        assertEquals(java.util.Set.of(CudaSources.CRYSTAL_HEADER, CudaSources.QUERY_HEADER, CudaSources.SORT_HEADER,
                CudaSources.STAGED_HEADER, CudaSources.SEARCH_HEADER, CudaSources.WINDOW_HEADER),
                CudaSources.headers().keySet());
        for (String h2 : List.of(CudaSources.SORT_HEADER, CudaSources.STAGED_HEADER, CudaSources.SEARCH_HEADER,
                CudaSources.WINDOW_HEADER)) {
            assertTrue(!CudaSources.read(h2).contains("#include <"), h2 + " must need no system headers (NVRTC has none)");
        }
    }

    @Test
    void theCudaFoundationImportsOnlyJavaBase() throws Exception {
        Path cuda = Path.of("src/main/java/io/tessera/backend/cuda");
        Pattern imp = Pattern.compile("^import\\s+(static\\s+)?([\\w.]+)", Pattern.MULTILINE);
        Matcher deviceException = imp.matcher(Files.readString(Path.of("src/main/java/io/tessera/backend/DeviceException.java")));
        while (deviceException.find()) {
            assertTrue(deviceException.group(2).startsWith("java."),
                    "DeviceException imports " + deviceException.group(2) + ": GpuSmokeCheck must run with java.base only");
        }
        for (String sub : FOUNDATION) {
            checkImports(sub.isEmpty() ? cuda : cuda.resolve(sub), imp);
        }
    }

    /** The root and the packages below it that GpuSmokeCheck needs: everything of the backend but exec, gen and runtime. */
    private static final List<String> FOUNDATION = List.of("", "driver", "compile", "measure", "ops", "check");

    private static boolean inFoundation(String name) {
        if (name.equals("io.tessera.backend.cuda.CudaException")) {
            return true;
        }
        for (String sub : FOUNDATION) {
            if (!sub.isEmpty() && name.startsWith("io.tessera.backend.cuda." + sub + ".")) {
                return true;
            }
        }
        return false;
    }

    private static void checkImports(Path pkg, Pattern imp) throws Exception {
        try (Stream<Path> files = Files.list(pkg)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
                Matcher m = imp.matcher(Files.readString(f));
                while (m.find()) {
                    String name = m.group(2);
                    // the device descriptions and the cache directory live in profile, and import java.base only
                    // themselves (DeviceInfoTest checks)
                    // and the backend-neutral DeviceException, which CudaException extends, imports nothing
                    assertTrue(name.startsWith("java.") || inFoundation(name)
                                    || name.equals("io.tessera.profile.DeviceInfo")
                                    || name.equals("io.tessera.profile.CacheDirectory")
                                    || name.equals("io.tessera.backend.DeviceException"),
                            f.getFileName() + " imports " + name + ": GpuSmokeCheck must run with java.base only");
                }
            }
        }
    }
}

package io.tessera.backend.cuda.compile;

import io.tessera.backend.cuda.CudaException;
import io.tessera.backend.cuda.driver.CudaDriver;
import io.tessera.backend.cuda.driver.CudaUnavailableException;
import io.tessera.backend.cuda.driver.LibrarySearch;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * NVRTC, the CUDA runtime compiler (libnvrtc.so), through the foreign function API. Needs no GPU.
 * Every call's nvrtcResult is checked; a failure names the call and nvrtcGetErrorString's text.
 */
@SuppressWarnings("restricted")  // the foreign function API's native access, enabled by the launcher
public final class Nvrtc {
    public static final int NVRTC_SUCCESS = 0;
    public static final int NVRTC_ERROR_INVALID_OPTION = 5;
    public static final int NVRTC_ERROR_COMPILATION = 6;

    private static final Object LOCK = new Object();
    private static Nvrtc instance;
    private static String unavailable;

    private final String loadedFrom;
    private final MethodHandle nvrtcGetErrorString;
    private final MethodHandle nvrtcVersion;
    private final MethodHandle nvrtcCreateProgram;
    private final MethodHandle nvrtcDestroyProgram;
    private final MethodHandle nvrtcCompileProgram;
    private final MethodHandle nvrtcGetProgramLogSize;
    private final MethodHandle nvrtcGetProgramLog;
    private final MethodHandle nvrtcGetCUBINSize;
    private final MethodHandle nvrtcGetCUBIN;
    private final MethodHandle nvrtcGetPTXSize;
    private final MethodHandle nvrtcGetPTX;

    /** What a compilation produced: the binary (CUBIN, or NUL-terminated PTX) and NVRTC's log (warnings). */
    public record Output(byte[] image, String log) {
    }

    private Nvrtc(LibrarySearch.Loaded lib) {
        this.loadedFrom = lib.from();
        CudaDriver.Binder b = new CudaDriver.Binder(lib.symbols(), lib.from());
        // const char* nvrtcGetErrorString(nvrtcResult result)
        nvrtcGetErrorString = b.bind("nvrtcGetErrorString", FunctionDescriptor.of(ADDRESS, JAVA_INT));
        // nvrtcResult nvrtcVersion(int* major, int* minor)
        nvrtcVersion = b.bind("nvrtcVersion", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS));
        // nvrtcResult nvrtcCreateProgram(nvrtcProgram* prog, const char* src, const char* name,
        //     int numHeaders, const char* const* headers, const char* const* includeNames)
        nvrtcCreateProgram = b.bind("nvrtcCreateProgram",
                FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS, JAVA_INT, ADDRESS, ADDRESS));
        // nvrtcResult nvrtcDestroyProgram(nvrtcProgram* prog)
        nvrtcDestroyProgram = b.bind("nvrtcDestroyProgram", FunctionDescriptor.of(JAVA_INT, ADDRESS));
        // nvrtcResult nvrtcCompileProgram(nvrtcProgram prog, int numOptions, const char* const* options)
        nvrtcCompileProgram = b.bind("nvrtcCompileProgram", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, ADDRESS));
        // nvrtcResult nvrtcGetProgramLogSize(nvrtcProgram prog, size_t* logSizeRet), nvrtcGetProgramLog(prog, char* log)
        nvrtcGetProgramLogSize = b.bind("nvrtcGetProgramLogSize", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS));
        nvrtcGetProgramLog = b.bind("nvrtcGetProgramLog", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS));
        nvrtcGetCUBINSize = b.bind("nvrtcGetCUBINSize", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS));
        nvrtcGetCUBIN = b.bind("nvrtcGetCUBIN", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS));
        nvrtcGetPTXSize = b.bind("nvrtcGetPTXSize", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS));
        nvrtcGetPTX = b.bind("nvrtcGetPTX", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS));
    }

    /** NVRTC, loaded on first use from the first candidate of the search order that loads. */
    public static Nvrtc get() {
        synchronized (LOCK) {
            if (instance != null) {
                return instance;
            }
            if (unavailable != null) {
                throw new CudaUnavailableException(unavailable);
            }
            try {
                instance = load(LibrarySearch.nvrtcCandidates());
                return instance;
            } catch (CudaUnavailableException e) {
                unavailable = e.getMessage();
                throw e;
            }
        }
    }

    static Nvrtc load(List<String> candidates) {
        List<String> tried = new ArrayList<>();
        LibrarySearch.Loaded lib = LibrarySearch.loadFirst(candidates, tried);
        if (lib == null) {
            throw new CudaUnavailableException("no NVRTC (libnvrtc.so not found; tried " + String.join(", ", tried)
                    + "; set -D" + LibrarySearch.NVRTC_PROPERTY + "=FILE or CUDA_HOME)");
        }
        return new Nvrtc(lib);
    }

    /** The file or loader name NVRTC was loaded from. */
    public String loadedFrom() {
        return loadedFrom;
    }

    /** nvrtcGetErrorString. */
    public String errorString(int code) {
        try {
            MemorySegment s = (MemorySegment) nvrtcGetErrorString.invokeExact(code);
            if (s.equals(MemorySegment.NULL)) {
                return "NVRTC_ERROR_" + code;
            }
            return s.reinterpret(Integer.MAX_VALUE).getString(0);
        } catch (Throwable t) {
            return "NVRTC_ERROR_" + code;
        }
    }

    private void check(String call, int rc) {
        if (rc != NVRTC_SUCCESS) {
            throw new CudaException(call, rc, errorString(rc));
        }
    }

    private static RuntimeException rethrow(String call, Throwable t) {
        if (t instanceof RuntimeException r) {
            return r;
        }
        if (t instanceof Error e) {
            throw e;
        }
        return new CudaException(call + " could not be called: " + t, t);
    }

    /** nvrtcVersion: {major, minor}. */
    public int[] version() {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment major = a.allocate(JAVA_INT);
            MemorySegment minor = a.allocate(JAVA_INT);
            check("nvrtcVersion", (int) nvrtcVersion.invokeExact(major, minor));
            return new int[] {major.get(JAVA_INT, 0), minor.get(JAVA_INT, 0)};
        } catch (Throwable t) {
            throw rethrow("nvrtcVersion", t);
        }
    }

    /**
     * Compiles one translation unit. {@code headers} maps include names (as written in
     * {@code #include "name"}) to their text. With {@code cubin} true the result is a CUBIN (the options
     * must name a real architecture, sm_XY), otherwise PTX. A rejected program throws
     * {@link KernelCompileException} with the log; an invalid option throws {@link CudaException} with
     * code NVRTC_ERROR_INVALID_OPTION.
     */
    public Output compile(String source, String programName, Map<String, String> headers, List<String> options,
                          boolean cubin) {
        try (Arena a = Arena.ofConfined()) {
            int n = headers.size();
            MemorySegment headerTexts = n == 0 ? MemorySegment.NULL : a.allocate(ADDRESS, n);
            MemorySegment headerNames = n == 0 ? MemorySegment.NULL : a.allocate(ADDRESS, n);
            int i = 0;
            for (Map.Entry<String, String> h : headers.entrySet()) {
                headerTexts.setAtIndex(ADDRESS, i, a.allocateFrom(h.getValue()));
                headerNames.setAtIndex(ADDRESS, i, a.allocateFrom(h.getKey()));
                i++;
            }
            MemorySegment progOut = a.allocate(ADDRESS);
            check("nvrtcCreateProgram", (int) nvrtcCreateProgram.invokeExact(progOut, a.allocateFrom(source),
                    a.allocateFrom(programName), n, headerTexts, headerNames));
            MemorySegment prog = progOut.get(ADDRESS, 0);
            try {
                MemorySegment opts = options.isEmpty() ? MemorySegment.NULL : a.allocate(ADDRESS, options.size());
                for (int k = 0; k < options.size(); k++) {
                    opts.setAtIndex(ADDRESS, k, a.allocateFrom(options.get(k)));
                }
                int rc = (int) nvrtcCompileProgram.invokeExact(prog, options.size(), opts);
                String log = programLog(a, prog);
                if (rc == NVRTC_ERROR_COMPILATION) {
                    throw new KernelCompileException(programName, errorString(rc), log);
                }
                if (rc != NVRTC_SUCCESS) {
                    throw new CudaException("nvrtcCompileProgram", rc, errorString(rc)
                            + (log.isBlank() ? "" : "\n" + log.strip()));
                }
                MemorySegment size = a.allocate(JAVA_LONG);
                byte[] image;
                if (cubin) {
                    check("nvrtcGetCUBINSize", (int) nvrtcGetCUBINSize.invokeExact(prog, size));
                    MemorySegment buf = a.allocate(Math.max(1, size.get(JAVA_LONG, 0)));
                    check("nvrtcGetCUBIN", (int) nvrtcGetCUBIN.invokeExact(prog, buf));
                    image = buf.asSlice(0, size.get(JAVA_LONG, 0)).toArray(java.lang.foreign.ValueLayout.JAVA_BYTE);
                } else {
                    check("nvrtcGetPTXSize", (int) nvrtcGetPTXSize.invokeExact(prog, size));
                    MemorySegment buf = a.allocate(Math.max(1, size.get(JAVA_LONG, 0)));
                    check("nvrtcGetPTX", (int) nvrtcGetPTX.invokeExact(prog, buf));
                    image = buf.asSlice(0, size.get(JAVA_LONG, 0)).toArray(java.lang.foreign.ValueLayout.JAVA_BYTE);
                }
                return new Output(image, log);
            } finally {
                MemorySegment holder = a.allocate(ADDRESS);
                holder.set(ADDRESS, 0, prog);
                int rc = (int) nvrtcDestroyProgram.invokeExact(holder);
                if (rc != NVRTC_SUCCESS) {
                    System.err.println("tessera: nvrtcDestroyProgram failed: " + errorString(rc));
                }
            }
        } catch (Throwable t) {
            throw rethrow("nvrtcCompileProgram", t);
        }
    }

    private String programLog(Arena a, MemorySegment prog) throws Throwable {
        MemorySegment size = a.allocate(JAVA_LONG);
        check("nvrtcGetProgramLogSize", (int) nvrtcGetProgramLogSize.invokeExact(prog, size));
        long n = size.get(JAVA_LONG, 0);
        if (n <= 1) {
            return "";
        }
        MemorySegment buf = a.allocate(n);
        check("nvrtcGetProgramLog", (int) nvrtcGetProgramLog.invokeExact(prog, buf));
        return buf.getString(0);
    }
}

package io.tessera.backend.cuda.driver;

import io.tessera.backend.cuda.CudaException;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.util.ArrayList;
import java.util.List;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_FLOAT;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * The CUDA driver API (libcuda.so.1) through the foreign function API. Each method is one driver
 * call with its result checked: a CUresult other than CUDA_SUCCESS throws {@link CudaException}
 * naming the call and the error. Handles (CUcontext, CUmodule, CUfunction, CUstream, CUevent) are
 * {@link MemorySegment} addresses, device pointers (CUdeviceptr) are longs, devices (CUdevice)
 * ints. Most code uses the wrappers ({@link CudaContext} and friends) instead.
 *
 * <p>The C types behind the descriptors (cuda.h, CUDA 13, 64-bit Linux): CUresult, CUdevice,
 * unsigned int and enums are 32-bit; size_t and CUdeviceptr 64-bit; handles are pointers.
 */
@SuppressWarnings("restricted")  // the foreign function API's native access, enabled by the launcher
public final class CudaDriver {
    public static final int CUDA_SUCCESS = 0;
    public static final int CUDA_ERROR_NO_DEVICE = 100;
    /** cuEventQuery and cuStreamQuery: the work is still running. */
    public static final int CUDA_ERROR_NOT_READY = 600;

    // CUdevice_attribute values used by CudaDevices (cuda.h).
    public static final int ATTR_MAX_THREADS_PER_BLOCK = 1;
    public static final int ATTR_MAX_SHARED_MEMORY_PER_BLOCK = 8;
    public static final int ATTR_WARP_SIZE = 10;
    public static final int ATTR_CLOCK_RATE = 13;
    public static final int ATTR_MULTIPROCESSOR_COUNT = 16;
    public static final int ATTR_PCI_BUS_ID = 33;
    public static final int ATTR_MEMORY_CLOCK_RATE = 36;
    public static final int ATTR_GLOBAL_MEMORY_BUS_WIDTH = 37;
    public static final int ATTR_L2_CACHE_SIZE = 38;
    public static final int ATTR_MAX_THREADS_PER_MULTIPROCESSOR = 39;
    public static final int ATTR_COMPUTE_CAPABILITY_MAJOR = 75;
    public static final int ATTR_COMPUTE_CAPABILITY_MINOR = 76;
    public static final int ATTR_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR = 81;
    /** The shared memory one block may use after opting in (cuFuncSetAttribute). */
    public static final int ATTR_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN = 97;

    // CUfunction_attribute values.
    public static final int FUNC_ATTR_MAX_THREADS_PER_BLOCK = 0;
    public static final int FUNC_ATTR_SHARED_SIZE_BYTES = 1;
    public static final int FUNC_ATTR_LOCAL_SIZE_BYTES = 3;
    public static final int FUNC_ATTR_NUM_REGS = 4;
    /** Settable: the dynamic shared memory a launch may ask for (above 48 KB only after opting in). */
    public static final int FUNC_ATTR_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8;
    /** The share of the SM's L1 and shared memory a kernel would like as shared memory, in percent (a hint). */
    public static final int FUNC_ATTR_PREFERRED_SHARED_MEMORY_CARVEOUT = 9;

    private static final Object LOCK = new Object();
    private static CudaDriver instance;
    private static String unavailable;

    private final String loadedFrom;
    private final MethodHandle cuGetErrorName;
    private final MethodHandle cuInit;
    private final MethodHandle cuDriverGetVersion;
    private final MethodHandle cuDeviceGetCount;
    private final MethodHandle cuDeviceGet;
    private final MethodHandle cuDeviceGetName;
    private final MethodHandle cuDeviceGetAttribute;
    private final MethodHandle cuDeviceTotalMem;
    private final MethodHandle cuDevicePrimaryCtxRetain;
    private final MethodHandle cuDevicePrimaryCtxRelease;
    private final MethodHandle cuCtxSetCurrent;
    private final MethodHandle cuCtxSynchronize;
    private final MethodHandle cuMemGetInfo;
    private final MethodHandle cuMemAlloc;
    private final MethodHandle cuMemFree;
    private final MethodHandle cuMemAllocHost;
    private final MethodHandle cuMemFreeHost;
    private final MethodHandle cuMemcpyHtoD;
    private final MethodHandle cuMemcpyDtoH;
    private final MethodHandle cuMemcpyHtoDAsync;
    private final MethodHandle cuMemcpyDtoHAsync;
    private final MethodHandle cuMemsetD8;
    private final MethodHandle cuMemsetD32;
    private final MethodHandle cuModuleLoadData;
    private final MethodHandle cuModuleUnload;
    private final MethodHandle cuModuleGetFunction;
    private final MethodHandle cuFuncGetAttribute;
    private final MethodHandle cuFuncSetAttribute;
    private final MethodHandle cuOccupancyMaxActiveBlocksPerMultiprocessor;
    private final MethodHandle cuLaunchKernel;
    private final MethodHandle cuStreamCreate;
    private final MethodHandle cuStreamSynchronize;
    private final MethodHandle cuStreamDestroy;
    private final MethodHandle cuEventCreate;
    private final MethodHandle cuEventRecord;
    private final MethodHandle cuEventSynchronize;
    private final MethodHandle cuEventQuery;
    private final MethodHandle cuEventElapsedTime;
    private final String cuEventElapsedTimeName;
    private final MethodHandle cuEventDestroy;
    /** The graph calls and asynchronous memsets, bound where the driver has them. */
    private final GraphCalls graphCalls;

    private CudaDriver(SymbolLookup lib, String loadedFrom) {
        this.loadedFrom = loadedFrom;
        Binder b = new Binder(lib, loadedFrom);
        cuGetErrorName = b.bind("cuGetErrorName", FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS));
        cuInit = b.bind("cuInit", FunctionDescriptor.of(JAVA_INT, JAVA_INT));
        cuDriverGetVersion = b.bind("cuDriverGetVersion", FunctionDescriptor.of(JAVA_INT, ADDRESS));
        cuDeviceGetCount = b.bind("cuDeviceGetCount", FunctionDescriptor.of(JAVA_INT, ADDRESS));
        cuDeviceGet = b.bind("cuDeviceGet", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT));
        cuDeviceGetName = b.bind("cuDeviceGetName", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT));
        cuDeviceGetAttribute = b.bind("cuDeviceGetAttribute",
                FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT));
        cuDeviceTotalMem = b.bind("cuDeviceTotalMem_v2", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT));
        cuDevicePrimaryCtxRetain = b.bind("cuDevicePrimaryCtxRetain",
                FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT));
        cuDevicePrimaryCtxRelease = b.bind("cuDevicePrimaryCtxRelease_v2", FunctionDescriptor.of(JAVA_INT, JAVA_INT));
        cuCtxSetCurrent = b.bind("cuCtxSetCurrent", FunctionDescriptor.of(JAVA_INT, ADDRESS));
        cuCtxSynchronize = b.bind("cuCtxSynchronize", FunctionDescriptor.of(JAVA_INT));
        cuMemGetInfo = b.bind("cuMemGetInfo_v2", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS));
        cuMemAlloc = b.bind("cuMemAlloc_v2", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG));
        cuMemFree = b.bind("cuMemFree_v2", FunctionDescriptor.of(JAVA_INT, JAVA_LONG));
        cuMemAllocHost = b.bind("cuMemAllocHost_v2", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG));
        cuMemFreeHost = b.bind("cuMemFreeHost", FunctionDescriptor.of(JAVA_INT, ADDRESS));
        cuMemcpyHtoD = b.bind("cuMemcpyHtoD_v2", FunctionDescriptor.of(JAVA_INT, JAVA_LONG, ADDRESS, JAVA_LONG));
        cuMemcpyDtoH = b.bind("cuMemcpyDtoH_v2", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG, JAVA_LONG));
        cuMemcpyHtoDAsync = b.bind("cuMemcpyHtoDAsync_v2",
                FunctionDescriptor.of(JAVA_INT, JAVA_LONG, ADDRESS, JAVA_LONG, ADDRESS));
        cuMemcpyDtoHAsync = b.bind("cuMemcpyDtoHAsync_v2",
                FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG, JAVA_LONG, ADDRESS));
        // unsigned char is passed as a (promoted) byte; unsigned int as a 32-bit int
        cuMemsetD8 = b.bind("cuMemsetD8_v2", FunctionDescriptor.of(JAVA_INT, JAVA_LONG, JAVA_BYTE, JAVA_LONG));
        cuMemsetD32 = b.bind("cuMemsetD32_v2", FunctionDescriptor.of(JAVA_INT, JAVA_LONG, JAVA_INT, JAVA_LONG));
        cuModuleLoadData = b.bind("cuModuleLoadData", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS));
        cuModuleUnload = b.bind("cuModuleUnload", FunctionDescriptor.of(JAVA_INT, ADDRESS));
        cuModuleGetFunction = b.bind("cuModuleGetFunction", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS));
        cuFuncGetAttribute = b.bind("cuFuncGetAttribute", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, ADDRESS));
        cuFuncSetAttribute = b.bind("cuFuncSetAttribute", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT));
        cuOccupancyMaxActiveBlocksPerMultiprocessor = b.bind("cuOccupancyMaxActiveBlocksPerMultiprocessor",
                FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, JAVA_INT, JAVA_LONG));
        // CUresult cuLaunchKernel(CUfunction f, unsigned gridDimX, gridDimY, gridDimZ, blockDimX, blockDimY,
        //     blockDimZ, unsigned sharedMemBytes, CUstream hStream, void **kernelParams, void **extra)
        cuLaunchKernel = b.bind("cuLaunchKernel", FunctionDescriptor.of(JAVA_INT, ADDRESS,
                JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, ADDRESS, ADDRESS, ADDRESS));
        cuStreamCreate = b.bind("cuStreamCreate", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT));
        cuStreamSynchronize = b.bind("cuStreamSynchronize", FunctionDescriptor.of(JAVA_INT, ADDRESS));
        cuStreamDestroy = b.bind("cuStreamDestroy_v2", FunctionDescriptor.of(JAVA_INT, ADDRESS));
        cuEventCreate = b.bind("cuEventCreate", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT));
        cuEventRecord = b.bind("cuEventRecord", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS));
        cuEventSynchronize = b.bind("cuEventSynchronize", FunctionDescriptor.of(JAVA_INT, ADDRESS));
        cuEventQuery = b.bind("cuEventQuery", FunctionDescriptor.of(JAVA_INT, ADDRESS));
        // CUDA 12.8 added cuEventElapsedTime_v2 (same signature), which cuda.h of CUDA 13 maps the name to;
        // older drivers only have the first version.
        FunctionDescriptor elapsed = FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS);
        MethodHandle v2 = b.bindOptional("cuEventElapsedTime_v2", elapsed);
        cuEventElapsedTime = v2 != null ? v2 : b.bind("cuEventElapsedTime", elapsed);
        cuEventElapsedTimeName = v2 != null ? "cuEventElapsedTime_v2" : "cuEventElapsedTime";
        cuEventDestroy = b.bind("cuEventDestroy_v2", FunctionDescriptor.of(JAVA_INT, ADDRESS));
        graphCalls = new GraphCalls(b, this);
    }

    /**
     * The driver, loaded and initialized (cuInit) on first use. Throws {@link CudaUnavailableException}
     * when there is no driver library ("no CUDA driver (libcuda.so.1 not found)") or no device.
     */
    public static CudaDriver get() {
        synchronized (LOCK) {
            if (instance != null) {
                return instance;
            }
            if (unavailable != null) {
                throw new CudaUnavailableException(unavailable);
            }
            try {
                CudaDriver d = load(LibrarySearch.driverCandidates(System.getProperty(LibrarySearch.DRIVER_PROPERTY)));
                d.init();
                instance = d;
                return d;
            } catch (CudaUnavailableException e) {
                unavailable = e.getMessage();
                throw e;
            } catch (CudaException e) {
                String msg = e.code() == CUDA_ERROR_NO_DEVICE
                        ? "no CUDA device (" + e.getMessage() + ")"
                        : "CUDA driver unusable (" + e.getMessage() + ")";
                unavailable = msg;
                throw new CudaUnavailableException(msg, e);
            }
        }
    }

    /** Whether a driver and a device are there (never throws). */
    public static boolean isAvailable() {
        try {
            get();
            return true;
        } catch (CudaException e) {
            return false;
        }
    }

    /** Why CUDA is unavailable, or null when it is available. */
    public static String unavailableReason() {
        try {
            get();
            return null;
        } catch (CudaException e) {
            return e.getMessage();
        }
    }

    /** Loads the driver from the first candidate that loads and binds every call, without cuInit. */
    static CudaDriver load(List<String> candidates) {
        List<String> tried = new ArrayList<>();
        LibrarySearch.Loaded lib = LibrarySearch.loadFirst(candidates, tried);
        if (lib == null) {
            throw new CudaUnavailableException("no CUDA driver (libcuda.so.1 not found)",
                    new CudaException("tried " + String.join(", ", tried), null));
        }
        return new CudaDriver(lib.symbols(), lib.from());
    }

    /** The file or loader name the driver was loaded from. */
    public String loadedFrom() {
        return loadedFrom;
    }

    // ------------------------------------------------------------------------------------------
    // Errors

    /** Throws CudaException unless rc is CUDA_SUCCESS. */
    void check(String call, int rc) {
        if (rc != CUDA_SUCCESS) {
            throw new CudaException(call, rc, errorName(rc));
        }
    }

    /** The name of a CUresult (cuGetErrorName), or CUDA_ERROR_&lt;code&gt; when the driver does not know it. */
    public String errorName(int code) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment p = a.allocate(ADDRESS);
            int rc = (int) cuGetErrorName.invokeExact(code, p);
            MemorySegment s = p.get(ADDRESS, 0);
            if (rc != CUDA_SUCCESS || s.equals(MemorySegment.NULL)) {
                return "CUDA_ERROR_" + code;
            }
            return s.reinterpret(Integer.MAX_VALUE).getString(0);
        } catch (Throwable t) {
            return "CUDA_ERROR_" + code;
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

    // ------------------------------------------------------------------------------------------
    // Initialization and devices

    /** cuInit(0). */
    public void init() {
        try {
            check("cuInit", (int) cuInit.invokeExact(0));
        } catch (Throwable t) {
            throw rethrow("cuInit", t);
        }
    }

    /** cuDriverGetVersion: 1000 * major + 10 * minor, such as 13000. */
    public int driverVersion() {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment v = a.allocate(JAVA_INT);
            check("cuDriverGetVersion", (int) cuDriverGetVersion.invokeExact(v));
            return v.get(JAVA_INT, 0);
        } catch (Throwable t) {
            throw rethrow("cuDriverGetVersion", t);
        }
    }

    /** cuDeviceGetCount. */
    public int deviceCount() {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment v = a.allocate(JAVA_INT);
            check("cuDeviceGetCount", (int) cuDeviceGetCount.invokeExact(v));
            return v.get(JAVA_INT, 0);
        } catch (Throwable t) {
            throw rethrow("cuDeviceGetCount", t);
        }
    }

    /** cuDeviceGet: the CUdevice of an ordinal. */
    public int device(int ordinal) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment v = a.allocate(JAVA_INT);
            check("cuDeviceGet", (int) cuDeviceGet.invokeExact(v, ordinal));
            return v.get(JAVA_INT, 0);
        } catch (Throwable t) {
            throw rethrow("cuDeviceGet", t);
        }
    }

    /** cuDeviceGetName. */
    public String deviceName(int device) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment buf = a.allocate(256);
            check("cuDeviceGetName", (int) cuDeviceGetName.invokeExact(buf, 256, device));
            return buf.getString(0).strip();
        } catch (Throwable t) {
            throw rethrow("cuDeviceGetName", t);
        }
    }

    /** cuDeviceGetAttribute (see the ATTR_ constants). */
    public int deviceAttribute(int attribute, int device) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment v = a.allocate(JAVA_INT);
            check("cuDeviceGetAttribute", (int) cuDeviceGetAttribute.invokeExact(v, attribute, device));
            return v.get(JAVA_INT, 0);
        } catch (Throwable t) {
            throw rethrow("cuDeviceGetAttribute", t);
        }
    }

    /** cuDeviceTotalMem_v2: bytes of device memory. */
    public long deviceTotalMemory(int device) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment v = a.allocate(JAVA_LONG);
            check("cuDeviceTotalMem_v2", (int) cuDeviceTotalMem.invokeExact(v, device));
            return v.get(JAVA_LONG, 0);
        } catch (Throwable t) {
            throw rethrow("cuDeviceTotalMem_v2", t);
        }
    }

    // ------------------------------------------------------------------------------------------
    // Contexts

    /** cuDevicePrimaryCtxRetain: the device's primary context (release it with {@link #primaryContextRelease}). */
    public MemorySegment primaryContextRetain(int device) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment v = a.allocate(ADDRESS);
            check("cuDevicePrimaryCtxRetain", (int) cuDevicePrimaryCtxRetain.invokeExact(v, device));
            return v.get(ADDRESS, 0);
        } catch (Throwable t) {
            throw rethrow("cuDevicePrimaryCtxRetain", t);
        }
    }

    /** cuDevicePrimaryCtxRelease_v2. */
    public void primaryContextRelease(int device) {
        try {
            check("cuDevicePrimaryCtxRelease_v2", (int) cuDevicePrimaryCtxRelease.invokeExact(device));
        } catch (Throwable t) {
            throw rethrow("cuDevicePrimaryCtxRelease_v2", t);
        }
    }

    /** cuCtxSetCurrent: binds a context to the calling thread. */
    public void contextSetCurrent(MemorySegment ctx) {
        try {
            check("cuCtxSetCurrent", (int) cuCtxSetCurrent.invokeExact(ctx));
        } catch (Throwable t) {
            throw rethrow("cuCtxSetCurrent", t);
        }
    }

    /** cuCtxSynchronize: waits for all work of the current context (and reports asynchronous errors). */
    public void contextSynchronize() {
        try {
            check("cuCtxSynchronize", (int) cuCtxSynchronize.invokeExact());
        } catch (Throwable t) {
            throw rethrow("cuCtxSynchronize", t);
        }
    }

    /** cuMemGetInfo_v2: {free, total} bytes of the current context's device. */
    public long[] memoryInfo() {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment free = a.allocate(JAVA_LONG);
            MemorySegment total = a.allocate(JAVA_LONG);
            check("cuMemGetInfo_v2", (int) cuMemGetInfo.invokeExact(free, total));
            return new long[] {free.get(JAVA_LONG, 0), total.get(JAVA_LONG, 0)};
        } catch (Throwable t) {
            throw rethrow("cuMemGetInfo_v2", t);
        }
    }

    // ------------------------------------------------------------------------------------------
    // Memory

    /** cuMemAlloc_v2: a device pointer to {@code bytes} bytes (256-byte aligned). */
    public long memAlloc(long bytes) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment v = a.allocate(JAVA_LONG);
            check("cuMemAlloc_v2", (int) cuMemAlloc.invokeExact(v, bytes));
            return v.get(JAVA_LONG, 0);
        } catch (Throwable t) {
            throw rethrow("cuMemAlloc_v2", t);
        }
    }

    /** cuMemFree_v2. */
    public void memFree(long devicePtr) {
        try {
            check("cuMemFree_v2", (int) cuMemFree.invokeExact(devicePtr));
        } catch (Throwable t) {
            throw rethrow("cuMemFree_v2", t);
        }
    }

    /** cuMemAllocHost_v2: page-locked host memory, as a segment of {@code bytes} bytes. */
    public MemorySegment memAllocHost(long bytes) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment v = a.allocate(ADDRESS);
            check("cuMemAllocHost_v2", (int) cuMemAllocHost.invokeExact(v, bytes));
            return v.get(ADDRESS, 0).reinterpret(bytes);
        } catch (Throwable t) {
            throw rethrow("cuMemAllocHost_v2", t);
        }
    }

    /** cuMemFreeHost. */
    public void memFreeHost(MemorySegment host) {
        try {
            check("cuMemFreeHost", (int) cuMemFreeHost.invokeExact(host));
        } catch (Throwable t) {
            throw rethrow("cuMemFreeHost", t);
        }
    }

    /** cuMemcpyHtoD_v2 (synchronous). */
    public void memcpyHtoD(long dst, MemorySegment src, long bytes) {
        try {
            check("cuMemcpyHtoD_v2", (int) cuMemcpyHtoD.invokeExact(dst, src, bytes));
        } catch (Throwable t) {
            throw rethrow("cuMemcpyHtoD_v2", t);
        }
    }

    /** cuMemcpyDtoH_v2 (synchronous). */
    public void memcpyDtoH(MemorySegment dst, long src, long bytes) {
        try {
            check("cuMemcpyDtoH_v2", (int) cuMemcpyDtoH.invokeExact(dst, src, bytes));
        } catch (Throwable t) {
            throw rethrow("cuMemcpyDtoH_v2", t);
        }
    }

    /** cuMemcpyHtoDAsync_v2 (the host memory should be pinned; stream NULL = default stream). */
    public void memcpyHtoDAsync(long dst, MemorySegment src, long bytes, MemorySegment stream) {
        try {
            check("cuMemcpyHtoDAsync_v2", (int) cuMemcpyHtoDAsync.invokeExact(dst, src, bytes, stream));
        } catch (Throwable t) {
            throw rethrow("cuMemcpyHtoDAsync_v2", t);
        }
    }

    /** cuMemcpyDtoHAsync_v2. */
    public void memcpyDtoHAsync(MemorySegment dst, long src, long bytes, MemorySegment stream) {
        try {
            check("cuMemcpyDtoHAsync_v2", (int) cuMemcpyDtoHAsync.invokeExact(dst, src, bytes, stream));
        } catch (Throwable t) {
            throw rethrow("cuMemcpyDtoHAsync_v2", t);
        }
    }

    /** cuMemsetD8_v2: sets {@code count} bytes. */
    public void memsetD8(long dst, byte value, long count) {
        try {
            check("cuMemsetD8_v2", (int) cuMemsetD8.invokeExact(dst, value, count));
        } catch (Throwable t) {
            throw rethrow("cuMemsetD8_v2", t);
        }
    }

    /** cuMemsetD32_v2: sets {@code count} 32-bit words (dst 4-byte aligned). */
    public void memsetD32(long dst, int value, long count) {
        try {
            check("cuMemsetD32_v2", (int) cuMemsetD32.invokeExact(dst, value, count));
        } catch (Throwable t) {
            throw rethrow("cuMemsetD32_v2", t);
        }
    }

    // ------------------------------------------------------------------------------------------
    // Modules and launches

    /** cuModuleLoadData: loads a cubin (or NUL-terminated PTX) image. */
    public MemorySegment moduleLoadData(MemorySegment image) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment v = a.allocate(ADDRESS);
            check("cuModuleLoadData", (int) cuModuleLoadData.invokeExact(v, image));
            return v.get(ADDRESS, 0);
        } catch (Throwable t) {
            throw rethrow("cuModuleLoadData", t);
        }
    }

    /** cuModuleUnload. */
    public void moduleUnload(MemorySegment module) {
        try {
            check("cuModuleUnload", (int) cuModuleUnload.invokeExact(module));
        } catch (Throwable t) {
            throw rethrow("cuModuleUnload", t);
        }
    }

    /** cuModuleGetFunction. */
    public MemorySegment moduleGetFunction(MemorySegment module, String name) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment v = a.allocate(ADDRESS);
            MemorySegment n = a.allocateFrom(name);
            int rc = (int) cuModuleGetFunction.invokeExact(v, module, n);
            if (rc != CUDA_SUCCESS) {
                throw new CudaException("cuModuleGetFunction(" + name + ")", rc, errorName(rc));
            }
            return v.get(ADDRESS, 0);
        } catch (Throwable t) {
            throw rethrow("cuModuleGetFunction", t);
        }
    }

    /** cuFuncGetAttribute (see the FUNC_ATTR_ constants). */
    public int functionAttribute(int attribute, MemorySegment function) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment v = a.allocate(JAVA_INT);
            check("cuFuncGetAttribute", (int) cuFuncGetAttribute.invokeExact(v, attribute, function));
            return v.get(JAVA_INT, 0);
        } catch (Throwable t) {
            throw rethrow("cuFuncGetAttribute", t);
        }
    }

    /** cuFuncSetAttribute (FUNC_ATTR_MAX_DYNAMIC_SHARED_SIZE_BYTES and the like). */
    public void setFunctionAttribute(MemorySegment function, int attribute, int value) {
        try {
            check("cuFuncSetAttribute", (int) cuFuncSetAttribute.invokeExact(function, attribute, value));
        } catch (Throwable t) {
            throw rethrow("cuFuncSetAttribute", t);
        }
    }

    /** cuOccupancyMaxActiveBlocksPerMultiprocessor. */
    public int maxActiveBlocksPerMultiprocessor(MemorySegment function, int blockSize, long dynamicSharedBytes) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment v = a.allocate(JAVA_INT);
            check("cuOccupancyMaxActiveBlocksPerMultiprocessor",
                    (int) cuOccupancyMaxActiveBlocksPerMultiprocessor.invokeExact(v, function, blockSize,
                            dynamicSharedBytes));
            return v.get(JAVA_INT, 0);
        } catch (Throwable t) {
            throw rethrow("cuOccupancyMaxActiveBlocksPerMultiprocessor", t);
        }
    }

    /**
     * cuLaunchKernel with kernelParams (a void*[] with one pointer per kernel parameter, each to the
     * parameter's value; see {@link KernelArgs}) and extra = NULL. Asynchronous: launch errors show
     * here, execution errors at the next synchronization.
     */
    public void launchKernel(MemorySegment function, int gridX, int gridY, int gridZ, int blockX, int blockY,
                             int blockZ, int sharedMemBytes, MemorySegment stream, MemorySegment kernelParams) {
        try {
            check("cuLaunchKernel", (int) cuLaunchKernel.invokeExact(function, gridX, gridY, gridZ, blockX, blockY,
                    blockZ, sharedMemBytes, stream, kernelParams, MemorySegment.NULL));
        } catch (Throwable t) {
            throw rethrow("cuLaunchKernel", t);
        }
    }

    // ------------------------------------------------------------------------------------------
    // Streams and events

    /** cuStreamCreate (flags: 0 default, 1 CU_STREAM_NON_BLOCKING). */
    public MemorySegment streamCreate(int flags) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment v = a.allocate(ADDRESS);
            check("cuStreamCreate", (int) cuStreamCreate.invokeExact(v, flags));
            return v.get(ADDRESS, 0);
        } catch (Throwable t) {
            throw rethrow("cuStreamCreate", t);
        }
    }

    /** cuStreamSynchronize. */
    public void streamSynchronize(MemorySegment stream) {
        try {
            check("cuStreamSynchronize", (int) cuStreamSynchronize.invokeExact(stream));
        } catch (Throwable t) {
            throw rethrow("cuStreamSynchronize", t);
        }
    }

    /** cuStreamDestroy_v2. */
    public void streamDestroy(MemorySegment stream) {
        try {
            check("cuStreamDestroy_v2", (int) cuStreamDestroy.invokeExact(stream));
        } catch (Throwable t) {
            throw rethrow("cuStreamDestroy_v2", t);
        }
    }

    /** cuEventCreate (flags: 0 CU_EVENT_DEFAULT, 1 CU_EVENT_BLOCKING_SYNC). */
    public MemorySegment eventCreate(int flags) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment v = a.allocate(ADDRESS);
            check("cuEventCreate", (int) cuEventCreate.invokeExact(v, flags));
            return v.get(ADDRESS, 0);
        } catch (Throwable t) {
            throw rethrow("cuEventCreate", t);
        }
    }

    /** cuEventRecord (stream NULL = default stream). */
    public void eventRecord(MemorySegment event, MemorySegment stream) {
        try {
            check("cuEventRecord", (int) cuEventRecord.invokeExact(event, stream));
        } catch (Throwable t) {
            throw rethrow("cuEventRecord", t);
        }
    }

    /** cuEventSynchronize. */
    public void eventSynchronize(MemorySegment event) {
        try {
            check("cuEventSynchronize", (int) cuEventSynchronize.invokeExact(event));
        } catch (Throwable t) {
            throw rethrow("cuEventSynchronize", t);
        }
    }

    /**
     * cuEventQuery: whether the work before the event's record has completed (CUDA_SUCCESS) or not yet
     * (CUDA_ERROR_NOT_READY); returns at once, unlike {@link #eventSynchronize}.
     */
    public boolean eventQuery(MemorySegment event) {
        int rc;
        try {
            rc = (int) cuEventQuery.invokeExact(event);
        } catch (Throwable t) {
            throw rethrow("cuEventQuery", t);
        }
        if (rc == CUDA_ERROR_NOT_READY) {
            return false;
        }
        check("cuEventQuery", rc);
        return true;
    }

    /** cuEventElapsedTime(_v2): milliseconds between two recorded, completed events. */
    public float eventElapsedMillis(MemorySegment start, MemorySegment end) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment v = a.allocate(JAVA_FLOAT);
            check(cuEventElapsedTimeName, (int) cuEventElapsedTime.invokeExact(v, start, end));
            return v.get(JAVA_FLOAT, 0);
        } catch (Throwable t) {
            throw rethrow(cuEventElapsedTimeName, t);
        }
    }

    /** cuEventDestroy_v2. */
    public void eventDestroy(MemorySegment event) {
        try {
            check("cuEventDestroy_v2", (int) cuEventDestroy.invokeExact(event));
        } catch (Throwable t) {
            throw rethrow("cuEventDestroy_v2", t);
        }
    }

    /** The CUDA graph calls and the asynchronous memsets a graph's capture records. */
    public GraphCalls graphs() {
        return graphCalls;
    }

    /** Creates downcall handles, once per symbol; a missing symbol makes the library unusable. */
    public static final class Binder {
        private final SymbolLookup lib;
        private final String from;
        private final Linker linker = Linker.nativeLinker();

        public Binder(SymbolLookup lib, String from) {
            this.lib = lib;
            this.from = from;
        }

        public MethodHandle bind(String name, FunctionDescriptor fd) {
            MemorySegment sym = lib.find(name).orElseThrow(() -> new CudaUnavailableException(
                    from + " has no " + name + " (a library too old for Tessera?)"));
            return linker.downcallHandle(sym, fd);
        }

        public MethodHandle bindOptional(String name, FunctionDescriptor fd) {
            return lib.find(name).map(sym -> linker.downcallHandle(sym, fd)).orElse(null);
        }
    }
}

package io.tessera.backend.cuda.driver;

import io.tessera.backend.cuda.CudaException;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/** One __global__ function of a loaded module. Launches are asynchronous. */
public final class CudaKernel {
    private final CudaModule module;
    private final String name;
    private final MemorySegment function;
    /** The carve-out last asked for, in percent (-1: none yet); a launch that wants the same asks nothing. */
    private int carveoutPercent = -1;
    /** The device's shared memory per SM, read at the first carve-out asked for. */
    private long sharedPerSmMax;
    /** Blocks per SM by block size and dynamic shared memory, as the occupancy calculator gave them. */
    private final java.util.Map<Long, Integer> occupancy = new java.util.HashMap<>();

    /** Static shared memory per block, read once (-1: not yet). */
    private volatile int staticShared = -1;
    /** The dynamic shared memory launches were last allowed (0: the default limit). */
    private volatile int allowedDynamicShared;
    /**
     * Each thread's block of kernel parameters (pointers and value slots, {@link KernelArgs#packInto}), grown as
     * needed: a launch writes its arguments there instead of allocating them.
     */
    private static final ThreadLocal<MemorySegment> PARAMS = new ThreadLocal<>();

    CudaKernel(CudaModule module, String name, MemorySegment function) {
        this.module = module;
        this.name = name;
        this.function = function;
    }

    public String name() {
        return name;
    }

    /** The CUfunction handle. */
    public MemorySegment handle() {
        return function;
    }

    /** A 1-D launch on the default stream without dynamic shared memory. */
    public void launch(int gridX, int blockX, KernelArgs args) {
        launch(gridX, 1, 1, blockX, 1, 1, 0, null, args);
    }

    /** A 1-D launch with dynamic shared memory on a stream (null: the default stream). */
    public void launch(int gridX, int blockX, int sharedMemBytes, CudaStream stream, KernelArgs args) {
        launch(gridX, 1, 1, blockX, 1, 1, sharedMemBytes, stream, args);
    }

    /** The full cuLaunchKernel. */
    public void launch(int gridX, int gridY, int gridZ, int blockX, int blockY, int blockZ, int sharedMemBytes,
                       CudaStream stream, KernelArgs args) {
        if (gridX < 1 || gridY < 1 || gridZ < 1 || blockX < 1 || blockY < 1 || blockZ < 1 || sharedMemBytes < 0) {
            throw new IllegalArgumentException("bad launch of " + name + ": grid " + gridX + "x" + gridY + "x" + gridZ
                    + ", block " + blockX + "x" + blockY + "x" + blockZ + ", shared " + sharedMemBytes);
        }
        module.ensureOpen();
        CudaContext ctx = module.context();
        ctx.makeCurrent();
        try {
            // cuLaunchKernel copies the argument values before it returns, so the thread's block serves every launch
            ctx.driver().launchKernel(function, gridX, gridY, gridZ, blockX, blockY, blockZ, sharedMemBytes,
                    CudaStream.handleOf(stream), args.packInto(paramBlock(args.size())));
        } catch (CudaException e) {
            throw new CudaException("launching " + name + args + ": " + e.getMessage(), e);
        }
        CudaMemoryStats.launched();
    }

    /** The calling thread's parameter block, of room for {@code count} arguments at least. */
    static MemorySegment paramBlock(int count) {
        MemorySegment b = PARAMS.get();
        if (b == null || b.byteSize() < KernelArgs.blockBytes(count)) {
            b = Arena.ofAuto().allocate(KernelArgs.blockBytes(Math.max(64, count)), 8);
            PARAMS.set(b);
        }
        return b;
    }

    /** Registers per thread (cuFuncGetAttribute NUM_REGS). */
    public int registers() {
        module.context().makeCurrent();
        return module.context().driver().functionAttribute(CudaDriver.FUNC_ATTR_NUM_REGS, function);
    }

    /** Local memory (spills, stack) per thread in bytes; 0 for a kernel that keeps its tiles in registers. */
    public int localBytes() {
        module.context().makeCurrent();
        return module.context().driver().functionAttribute(CudaDriver.FUNC_ATTR_LOCAL_SIZE_BYTES, function);
    }

    /** Static shared memory per block in bytes. */
    public int staticSharedBytes() {
        int s = staticShared;
        if (s < 0) {
            module.context().makeCurrent();
            staticShared = s = module.context().driver().functionAttribute(CudaDriver.FUNC_ATTR_SHARED_SIZE_BYTES,
                    function);
        }
        return s;
    }

    /**
     * Lets launches ask for up to {@code bytes} of dynamic shared memory; above 48 KB a kernel must opt in
     * (up to the device's MAX_SHARED_MEMORY_PER_BLOCK_OPTIN, 227 KB on the H100 and H200).
     */
    public void allowDynamicShared(int bytes) {
        if (bytes == allowedDynamicShared) {
            return; // asked for at every launch: the driver keeps what it was last given
        }
        module.context().makeCurrent();
        module.context().driver().setFunctionAttribute(function, CudaDriver.FUNC_ATTR_MAX_DYNAMIC_SHARED_SIZE_BYTES, bytes);
        allowedDynamicShared = bytes;
    }

    /**
     * Asks for no more shared memory per SM than {@code sharedPerSm} bytes, the rest of the SM's 256 KB staying L1:
     * left to itself the driver may give a kernel that uses shared memory a larger carve-out than its resident
     * blocks take, and the L1 that holds the probes' bitmaps shrinks with it. A hint: the driver rounds it up to
     * a carve-out the SM has, and goes above it when a block needs more.
     */
    public synchronized void preferSharedPerSm(long sharedPerSm) {
        module.context().makeCurrent();
        CudaDriver driver = module.context().driver();
        if (sharedPerSmMax == 0) {
            sharedPerSmMax = Math.max(1, driver.deviceAttribute(CudaDriver.ATTR_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR,
                    module.context().device()));
        }
        long max = sharedPerSmMax;
        preferCarveout((int) Math.min(100, (sharedPerSm * 100 + max - 1) / max));
    }

    private void preferCarveout(int percent) {
        if (percent != carveoutPercent) {
            module.context().driver().setFunctionAttribute(function,
                    CudaDriver.FUNC_ATTR_PREFERRED_SHARED_MEMORY_CARVEOUT, percent);
            carveoutPercent = percent;
        }
    }

    /**
     * How many blocks of this size fit on one SM at once (occupancy), for sizing grid-stride launches. The
     * occupancy calculator counts only the shared memory of the function's preferred carve-out, which an earlier
     * launch of this function may have set for fewer blocks (variants that differ in grid or threads share one
     * function): it is asked with the whole SM's shared memory preferred, once per block size and shared memory.
     * Without that, one launch of one block per SM left the carve-out of one block, and every later launch sized
     * its grid by it: after a tuning search had tried {@code grid=p1}, the default genome of SSB Q1.1 ran 2.2 times
     * slower.
     */
    public synchronized int maxActiveBlocksPerSM(int blockSize, int dynamicSharedBytes) {
        long key = ((long) blockSize << 32) | (dynamicSharedBytes & 0xffffffffL);
        Integer blocks = occupancy.get(key);
        if (blocks == null) {
            module.context().makeCurrent();
            preferCarveout(100);
            blocks = module.context().driver().maxActiveBlocksPerMultiprocessor(function, blockSize, dynamicSharedBytes);
            occupancy.put(key, blocks);
        }
        return blocks;
    }
}

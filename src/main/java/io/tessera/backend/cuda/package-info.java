/**
 * The CUDA backend's foundation: the driver API and NVRTC bound with the foreign function API (no
 * JNI), kernel compilation with an on-disk CUBIN cache, device descriptions and bandwidth, and the
 * block-wide primitives header that generated kernels include.
 *
 * <p>A launch from Java, start to end:
 * <pre>{@code
 * try (CudaContext ctx = CudaContext.open()) {                      // device 0, primary context
 *     KernelCompiler.Compiled c = KernelCompiler.nvrtc()
 *             .compile(source, "q11.cu", CudaSources.headers(), ctx); // sm_XY of this GPU, cached
 *     try (CudaModule m = ctx.loadModule(c.cubin());
 *          PinnedBuffer staging = ctx.allocatePinned(64 << 20);
 *          DeviceBuffer col = ctx.upload(hostColumn, staging);
 *          DeviceBuffer sum = ctx.allocate(8)) {
 *         sum.zero();
 *         m.kernel("ssb_q11").launch(grid, 128, KernelArgs.of().ptr(col).i64(rows).ptr(sum));
 *         long revenue = sum.readLong(0);                           // waits for the kernel
 *     }
 * }
 * }</pre>
 *
 * <p>Failures are {@link io.tessera.backend.cuda.CudaException}s naming the call and the error;
 * {@link io.tessera.backend.cuda.CudaUnavailableException} (a subclass) means no driver, no NVRTC
 * or no device, which callers answer by running the query on the JVM backend. A context frees
 * whatever is still open when it closes; {@link io.tessera.backend.cuda.CudaMemoryStats} counts
 * live allocations for leak checks. The package depends on java.base only (and on
 * {@link io.tessera.profile.DeviceInfo} and {@link io.tessera.profile.CacheDirectory}, which do too), so that
 * {@link io.tessera.backend.cuda.GpuSmokeCheck} runs on the GPU machine with this jar alone.
 *
 * <p>Kernels include {@code tessera_crystal.cuh} (a resource of this package; see
 * {@link io.tessera.backend.cuda.CudaSources}), whose conventions (tile arrangement, selection
 * flags, shared memory and synchronization) are described at its top.
 */
package io.tessera.backend.cuda;

/**
 * The CUDA driver API bound with the foreign function API (no JNI): the library search, contexts, streams, events,
 * modules and kernels, device and pinned buffers, and the GPUs' descriptions.
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
 * {@link io.tessera.backend.cuda.driver.CudaUnavailableException} (a subclass) means no driver, no NVRTC
 * or no device, which callers answer by running the query on the JVM backend. A context frees
 * whatever is still open when it closes; {@link io.tessera.backend.cuda.driver.CudaMemoryStats} counts
 * live allocations for leak checks. Nothing here uses another package of the backend (its root's
 * CudaException aside).
 */
package io.tessera.backend.cuda.driver;

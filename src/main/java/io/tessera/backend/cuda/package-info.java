/**
 * The CUDA backend. Its root holds only {@link io.tessera.backend.cuda.CudaException}, a failed driver or NVRTC
 * call, which every package below may throw. The packages, each using only those above it:
 * <ul>
 * <li>{@code driver}: the driver API bound with the foreign function API (no JNI): contexts, streams, events,
 *     modules, kernels and their arguments, device and pinned buffers, the library search, the GPUs' descriptions;
 * <li>{@code compile}: NVRTC, kernel compilation with an on-disk CUBIN cache, and the CUDA sources shipped as
 *     resources of that package (the block-wide primitives, query, sort and search headers);
 * <li>{@code measure}: the read bandwidth of a device, measured once and remembered per fingerprint;
 * <li>{@code ops}: device operators that generated kernels do not emit: the radix and small sorts, the
 *     compaction of group-table slots, the index of a sorted-search join;
 * <li>{@code check}: the self-checks of a GPU machine ({@code GpuSmokeCheck} and the sort and search checks);
 * <li>{@code gen} (CUDA C from pipelines), {@code runtime} (the device's memory and column cache) and
 *     {@code exec} (the backend as the executor sees it).
 * </ul>
 * Everything but {@code gen}, {@code runtime} and {@code exec} depends on java.base only (and on
 * {@link io.tessera.profile.DeviceInfo}, {@link io.tessera.profile.CacheDirectory} and
 * {@link io.tessera.backend.DeviceException}, which do too), so that
 * {@link io.tessera.backend.cuda.check.GpuSmokeCheck} runs on the GPU machine with this jar alone.
 */
package io.tessera.backend.cuda;

/**
 * The CUDA backend as the executor sees it ({@link io.tessera.backend.cuda.exec.CudaBackend}): which pipelines
 * have GPU code and their kernels loaded ({@link io.tessera.backend.cuda.exec.GpuPlan}), one query's run on the
 * device ({@link io.tessera.backend.cuda.exec.CudaQueryRun}: bindings, launches, error bits, retries of full hash
 * tables), and what the kernels leave there as the query's intermediates
 * ({@link io.tessera.backend.cuda.exec.DeviceOutputs}): join tables that stay on the device, rows and groups read
 * back when the host needs them, groups compacted on the device and turned straight into result rows
 * ({@link io.tessera.backend.cuda.exec.DeviceGroups}, {@link io.tessera.backend.cuda.exec.GpuGroups}). It never
 * reads the JVM backend's code or state: the two meet only in {@link io.tessera.backend.QueryState}.
 */
package io.tessera.backend.cuda.exec;

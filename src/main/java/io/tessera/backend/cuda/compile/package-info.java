/**
 * Kernel compilation: NVRTC bound through the driver package's binder, {@link
 * io.tessera.backend.cuda.compile.KernelCompiler} (sm_XY of the GPU, an on-disk CUBIN cache), and the CUDA sources
 * shipped as resources of this package ({@link io.tessera.backend.cuda.compile.CudaSources}). Kernels include
 * {@code tessera_crystal.cuh}, whose conventions (tile arrangement, selection flags, shared memory and
 * synchronization) are described at its top. Uses the driver package only.
 */
package io.tessera.backend.cuda.compile;

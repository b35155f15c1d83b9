/**
 * The self-checks of a GPU machine, run with this jar alone: {@link io.tessera.backend.cuda.check.GpuSmokeCheck}
 * (driver, NVRTC, kernel cache, launches, bandwidth, no leaked allocation) and the checks of the sorts, the
 * sorted search and the window scans it calls. Nothing of the backend uses this package.
 */
package io.tessera.backend.cuda.check;

package io.tessera.backend.cuda.ops;

import io.tessera.backend.cuda.driver.CudaKernel;
import io.tessera.backend.cuda.driver.CudaStream;
import io.tessera.backend.cuda.driver.DeviceBuffer;
import io.tessera.backend.cuda.driver.KernelArgs;

import java.util.List;
import java.util.function.Function;

/**
 * Clears whole buffers with {@code tessera_zero_ranges} of tessera_query.cuh, {@link #RANGES_PER_LAUNCH} a launch:
 * a pipeline's run starts from several cleared buffers (row counts, cursors, error words, marks), and a memset each
 * costs a driver call each, about as much as a kernel launch.
 */
public final class RangeClear {
    /** The buffers one launch clears: the kernel's row of the grid per buffer. */
    public static final int RANGES_PER_LAUNCH = 8;
    private static final int THREADS = 256;
    private static final int MAX_BLOCKS = 1024;

    private final CudaKernel kernel;

    /** {@code kernels}: a kernel of the module compiled from the utility source, by name. */
    public RangeClear(Function<String, CudaKernel> kernels) {
        this.kernel = kernels.apply("tessera_zero_ranges");
    }

    /** Clears every byte of each of {@code buffers} (8-byte aligned), queued on {@code stream} (null: the default). */
    public void clear(List<DeviceBuffer> buffers, CudaStream stream) {
        for (int from = 0; from < buffers.size(); from += RANGES_PER_LAUNCH) {
            int to = Math.min(buffers.size(), from + RANGES_PER_LAUNCH);
            KernelArgs args = KernelArgs.of();
            long largest = 0;
            for (int i = from; i < from + RANGES_PER_LAUNCH; i++) {
                if (i < to) {
                    DeviceBuffer b = buffers.get(i);
                    if ((b.address() & 7) != 0) {
                        throw new IllegalArgumentException("clearing a buffer at " + b.address() + ", not 8-byte aligned");
                    }
                    args.ptr(b).i64(b.size());
                    largest = Math.max(largest, b.size());
                } else {
                    args.ptr(0).i64(0); // no range
                }
            }
            int blocks = (int) Math.max(1, Math.min(MAX_BLOCKS, (largest / 8 + THREADS - 1) / THREADS));
            kernel.launch(blocks, to - from, 1, THREADS, 1, 1, 0, stream, args);
        }
    }
}

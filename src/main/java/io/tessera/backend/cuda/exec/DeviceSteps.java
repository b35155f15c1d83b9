package io.tessera.backend.cuda.exec;

import io.tessera.backend.cuda.driver.CudaKernel;
import io.tessera.backend.cuda.driver.DeviceBuffer;
import io.tessera.backend.cuda.driver.CudaStream;
import io.tessera.backend.cuda.driver.KernelArgs;
import io.tessera.backend.cuda.runtime.GpuRuntime;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * The device work of one pipeline's run, recorded instead of issued while its buffers are bound (clears, fills, its
 * kernels' launches), to be issued at once afterwards: plainly, or as a CUDA graph ({@link PipelineGraphs}). Each
 * step has a key that says all it does (which kernel, its grid and every argument; which memset of which words
 * to which value), so that two runs whose keys are equal do the same work, and a graph captured from one does
 * what the other would.
 */
final class DeviceSteps {

    /** A kernel launch's key: the kernel (by identity), its grid, block, dynamic shared memory and arguments. */
    record KernelKey(CudaKernel kernel, int grid, int block, int shared, List<KernelArgs.Arg> args) {
    }

    /** A memset's or fill's key: what it is, where, the value and how many elements. */
    record FillKey(String what, long address, long value, long count) {
    }

    private final List<Object> keys = new ArrayList<>();
    private final List<Consumer<CudaStream>> work = new ArrayList<>();

    /** Adds a step: {@code run} queues it on the stream it is given (null: the default stream). */
    void add(Object key, Consumer<CudaStream> run) {
        keys.add(key);
        work.add(run);
    }

    /** A kernel launch of {@code grid} blocks of {@code block} threads. */
    void kernel(CudaKernel kernel, int grid, int block, int shared, KernelArgs args) {
        add(new KernelKey(kernel, grid, block, shared, args.args()), s -> kernel.launch(grid, block, shared, s, args));
    }

    /** The prefix sums of a two-pass kernel's tile counts ({@link GpuRuntime#scanCounts}). */
    void scanCounts(GpuRuntime rt, DeviceBuffer counts, long tiles) {
        add(new FillKey("scanCounts", counts.address(), 0, tiles), s -> rt.scanCounts(counts, tiles, s));
    }

    /** A clear of several buffers' key: their addresses and sizes, in order. */
    record ZeroKey(List<Long> addresses, List<Long> sizes) {
    }

    /**
     * Clears every buffer of {@code buffers} whole with one launch per eight ({@link GpuRuntime#zero}), or records
     * that in {@code steps} (null: clears them now).
     */
    static void zero(DeviceSteps steps, GpuRuntime rt, List<DeviceBuffer> buffers) {
        if (buffers.isEmpty()) {
            return;
        }
        if (steps == null) {
            rt.zero(buffers, null);
        } else {
            List<DeviceBuffer> these = List.copyOf(buffers);
            steps.add(new ZeroKey(these.stream().map(DeviceBuffer::address).toList(),
                    these.stream().map(DeviceBuffer::size).toList()), s -> rt.zero(these, s));
        }
    }

    /** Fills the first {@code words} 32-bit words of {@code b}, or records that in {@code steps} (null: now). */
    static void fill32(DeviceSteps steps, DeviceBuffer b, int value, long words) {
        if (steps == null) {
            b.fill32(value, words);
        } else {
            steps.add(new FillKey("fill32", b.address(), value, words), s -> {
                if (s == null) {
                    b.fill32(value, words);
                } else {
                    b.fill32(value, words, s);
                }
            });
        }
    }

    /** Fills the first {@code words} 64-bit words of {@code b}, or records that in {@code steps} (null: now). */
    static void fill64(DeviceSteps steps, GpuRuntime rt, DeviceBuffer b, long value, long words) {
        if (steps == null) {
            rt.fill64(b, value, words);
        } else {
            steps.add(new FillKey("fill64", b.address(), value, words), s -> rt.fill64(b, value, words, s));
        }
    }

    /** What the steps do, in order: equal keys, equal work. */
    List<Object> keys() {
        return List.copyOf(keys);
    }

    int size() {
        return keys.size();
    }

    /** Queues every step, in order, on {@code stream} (null: the default stream). */
    void runOn(CudaStream stream) {
        for (Consumer<CudaStream> w : work) {
            w.accept(stream);
        }
    }
}

package io.tessera.backend.host;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;

/**
 * Large arrays a sink end needs at once, allocated by several workers together. The JVM zeroes a new array on the
 * thread that allocates it (and, on a heap that is still growing, faults its pages in there): the tens of MB of a
 * join table's slots and scattered rows, allocated one after another, kept a 16-core build's end on one thread for
 * much of its time. Each allocation is one piece of work; the largest one bounds the wait.
 */
public final class ArrayAllocations {

    /** Below this many bytes in all the arrays are allocated on the calling thread: handing them out costs more. */
    static final long PARALLEL_MIN_BYTES = 1L << 20;

    private final List<Runnable> allocations = new ArrayList<>();
    private long bytes;

    /** Adds an allocation of about {@code size} bytes; {@code allocation} stores the new array where it belongs. */
    public void add(long size, Runnable allocation) {
        allocations.add(allocation);
        bytes += size;
    }

    /** Runs every allocation added, on up to {@code workers} threads of {@code pool} when they are large enough. */
    public void run(ExecutorService pool, int workers) {
        if (bytes < PARALLEL_MIN_BYTES) {
            allocations.forEach(Runnable::run);
        } else {
            WorkerTasks.run(pool, workers, allocations.size(), i -> allocations.get(i).run());
        }
        allocations.clear();
        bytes = 0;
    }
}

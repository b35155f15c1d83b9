package io.tessera.backend.cuda.runtime;

import io.tessera.backend.cuda.driver.CudaContext;
import io.tessera.backend.cuda.driver.CudaEvent;
import io.tessera.backend.cuda.driver.CudaKernel;
import io.tessera.backend.cuda.driver.CudaModule;
import io.tessera.backend.cuda.compile.CudaSources;
import io.tessera.backend.cuda.driver.CudaUnavailableException;
import io.tessera.backend.cuda.driver.DeviceBuffer;
import io.tessera.backend.cuda.driver.KernelArgs;
import io.tessera.backend.cuda.compile.KernelCompiler;
import io.tessera.backend.cuda.driver.PinnedBuffer;
import io.tessera.backend.cuda.ops.SlotCompaction;
import io.tessera.profile.DeviceInfo;
import io.tessera.storage.Database;
import io.tessera.storage.StorageException;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * One open database's GPU: its context, the NVRTC compiler with its disk cache, loaded kernels by source, the
 * device column cache and the allocation pool. The database's device registry ({@code backend.Devices}) opens one
 * on the GPU's first use and closes it with the database, so that closing one database leaves another's runtime
 * as it was; a micro-benchmark opens its own. The one thing runtimes on a device share is its column budget
 * ({@link DeviceBudget}): their cached columns together stay within it. When the machine has no usable GPU,
 * {@link #open()} throws with the reason, once and then from memory (the driver's absence is the process's, not a
 * database's).
 */
public final class GpuRuntime implements AutoCloseable {

    /**
     * System property: the device column budget in MiB (default: 80% of the memory free when the first runtime on the
     * device opens); one per device for the process, shared by every runtime on it ({@link DeviceBudget}).
     */
    public static final String CACHE_PROPERTY = "tessera.gpu.cacheMiB";
    private static final long STAGING_BYTES = 64L << 20;

    /** How long the close at the process's exit may take before the process ends without it. */
    private static final long EXIT_CLOSE_MILLIS = 1000;

    /** Why no runtime could be opened in this process, or null; {@link #probed}: whether one ever was. */
    private static RuntimeException unavailable;
    private static boolean probed;

    /** The close at the process's exit while this runtime is open; null once closed. */
    private Thread exitHook;
    private boolean closed;

    private final CudaContext ctx;
    private final DeviceInfo info;
    private KernelCompiler compiler;
    /** The private kernel cache of {@link #restartKernelCache}, or null. */
    private java.nio.file.Path coldCache;
    /** Modules loaded before a restart of the kernel cache: kernels handed out may still run them. */
    private final java.util.List<CudaModule> retired = new java.util.ArrayList<>();
    private final PinnedBuffer staging;
    private final DevicePool pool;
    private final DeviceColumnCache columns;
    private final Map<String, CudaModule> modules = new HashMap<>();
    private final CudaKernel fill64;
    private final io.tessera.backend.cuda.ops.RangeClear clear;
    private final CudaKernel scanCounts;
    private final CudaKernel spin;
    private final SlotCompaction compaction;
    /** Why the GPU may not be used now (a cancelled kernel still running), or null; and the event it ends at. */
    private volatile String unusable;
    private CudaEvent stuckUntil;
    private final io.tessera.backend.cuda.ops.SmallSort sorter;
    /** The radix sort and top-k, whose module is compiled at their first use; null before. */
    private io.tessera.backend.cuda.ops.LargeSort largeSorter;
    /** The window kernels, whose module is compiled at their first use; null before. */
    private io.tessera.backend.cuda.ops.WindowScan windowScan;

    private GpuRuntime() {
        ctx = CudaContext.open();
        try {
            info = ctx.info();
            compiler = KernelCompiler.nvrtc();
            staging = ctx.allocatePinned(STAGING_BYTES);
            pool = new DevicePool(ctx);
            fill64 = kernel(CudaSources.utilitySource(), "tessera_fill64", CudaSources.UTILITY);
            clear = new io.tessera.backend.cuda.ops.RangeClear(name -> kernel(CudaSources.utilitySource(), name, CudaSources.UTILITY));
            scanCounts = kernel(CudaSources.utilitySource(), "tessera_scan_counts", CudaSources.UTILITY);
            spin = kernel(CudaSources.utilitySource(), "tessera_spin", CudaSources.UTILITY);
            compaction = new SlotCompaction(name -> kernel(CudaSources.utilitySource(), name, CudaSources.UTILITY));
            sorter = new io.tessera.backend.cuda.ops.SmallSort(name -> kernel(CudaSources.utilitySource(), name, CudaSources.UTILITY));
            // last: nothing fails after it has joined the device's budget
            columns = new DeviceColumnCache(ctx, staging, this::budgetBytes, pool::trim);
        } catch (RuntimeException e) {
            ctx.close();
            throw e;
        }
    }

    /** The column budget of a device no other runtime of this process is on: the property, else 80% of the free memory. */
    private long budgetBytes() {
        return Long.getLong(CACHE_PROPERTY, (ctx.freeMemory() * 8 / 10) >> 20) << 20;
    }

    /**
     * A new runtime on the machine's GPU, the caller's to close; throws (a CudaException) with the reason when there
     * is no usable GPU, and the same again at every later call.
     */
    public static GpuRuntime open() {
        synchronized (GpuRuntime.class) {
            if (unavailable != null) {
                throw unavailable;
            }
            probed = true;
        }
        try {
            GpuRuntime rt = new GpuRuntime();
            rt.exitHook = new Thread(rt::closeAtExit, "tessera-gpu-close");
            Runtime.getRuntime().addShutdownHook(rt.exitHook);
            return rt;
        } catch (RuntimeException | LinkageError e) {
            RuntimeException why = e instanceof RuntimeException re ? re : new IllegalStateException(e.toString(), e);
            synchronized (GpuRuntime.class) {
                unavailable = why;
            }
            throw why;
        }
    }

    /**
     * Why this machine has no usable GPU, or null when it has one: remembered from the first runtime opened, or, where
     * none was, found by opening one and closing it again.
     */
    public static String unavailableReason() {
        synchronized (GpuRuntime.class) {
            if (unavailable != null) {
                return message(unavailable);
            }
            if (probed) {
                return null;
            }
        }
        try {
            open().close();
            return null;
        } catch (RuntimeException e) {
            return message(e);
        }
    }

    private static String message(RuntimeException e) {
        return e.getMessage() == null ? e.toString() : e.getMessage();
    }

    /**
     * The process is ending (SIGTERM, Ctrl-C, the end of main) with this runtime open: closes it, but waits at most
     * {@link #EXIT_CLOSE_MILLIS} for it, since closing the context waits for a kernel still running, and the
     * process must end anyway.
     */
    private void closeAtExit() {
        if (unusable != null) {
            return; // a cancelled kernel still runs: closing would wait for it
        }
        Thread close = new Thread(this::closeNow, "tessera-gpu-close-at-exit");
        close.setDaemon(true);
        close.start();
        try {
            close.join(EXIT_CLOSE_MILLIS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Marks this runtime's GPU unusable: a cancelled query's kernel did not stop ({@code why}), and the
     * device is busy until {@code pending} (an event recorded after it) completes. Queries run on the JVM until
     * then, with the reason; the runtime is not closed, neither with its database nor at exit.
     */
    public void markUnusable(String why, CudaEvent pending) {
        String reason = "the GPU is still running a kernel of a cancelled query (" + why + ")";
        System.err.println("tessera: " + reason + "; queries run on the JVM until it ends");
        synchronized (this) {
            stuckUntil = pending;
            unusable = reason;
        }
    }

    /** Throws while a cancelled query's kernel still runs ({@link #markUnusable}); clears the mark once it ended. */
    public synchronized void checkUsable() {
        if (unusable == null) {
            return;
        }
        boolean done;
        try {
            done = stuckUntil.isDone();
        } catch (RuntimeException e) {
            throw new CudaUnavailableException(unusable + ": " + e.getMessage());
        }
        if (!done) {
            throw new CudaUnavailableException(unusable);
        }
        stuckUntil.close();
        stuckUntil = null;
        unusable = null;
    }

    public CudaContext context() {
        ctx.makeCurrent();
        return ctx;
    }

    public DeviceInfo info() {
        return info;
    }

    public DevicePool pool() {
        return pool;
    }

    public DeviceColumnCache columns() {
        return columns;
    }

    public synchronized KernelCompiler compiler() {
        return compiler;
    }

    /**
     * From now on compiles into a new, empty cache directory of this process's own and loads every source anew, as
     * a process that never compiled a kernel would: the tuning bench gives each strategy this cold start, so that
     * what it compiles counts in its cost. Modules loaded before stay loaded until {@link #close} (kernels handed
     * out may still run); the previous private cache is deleted.
     */
    public synchronized void restartKernelCache() {
        java.nio.file.Path old = coldCache;
        try {
            coldCache = java.nio.file.Files.createTempDirectory("tessera-kernels-");
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException("cannot create a kernel cache directory", e);
        }
        compiler = KernelCompiler.nvrtc(coldCache);
        retired.addAll(modules.values());
        modules.clear();
        deleteTree(old);
    }

    /** Deletes a private kernel cache (null: none), warning rather than failing when it cannot. */
    private static void deleteTree(java.nio.file.Path dir) {
        if (dir == null) {
            return;
        }
        try {
            Database.deleteTree(dir);
        } catch (StorageException e) {
            System.err.println("tessera: " + e.getMessage());
        }
    }

    /** The kernel {@code name} of a CUDA source, compiled for this GPU (from the disk cache when it was before). */
    public synchronized CudaKernel kernel(String source, String name, String fileName) {
        ctx.makeCurrent();
        // keyed on the code without its comments, as the disk cache is: one module for queries that differ in constants
        String code = io.tessera.backend.GeneratedSource.withoutComments(source);
        CudaModule m = modules.get(code);
        if (m == null) {
            KernelCompiler.Compiled c = compiler.compile(source, fileName, CudaSources.headers(), ctx);
            m = ctx.loadModule(c.cubin());
            modules.put(code, m);
        }
        return m.kernel(name);
    }

    /**
     * The kernels of several sources (source to kernel name), compiled in parallel (NVRTC compiles independent
     * programs concurrently) and then loaded, in the order given.
     */
    public java.util.List<CudaKernel> kernels(java.util.List<String[]> sourceNameFile) {
        compile(sourceNameFile);
        java.util.List<CudaKernel> out = new java.util.ArrayList<>();
        for (String[] k : sourceNameFile) {
            out.add(kernel(k[0], k[1], k[2])); // from the disk cache the compiles just filled
        }
        return out;
    }

    /**
     * Compiles sources (source, kernel name, file name) into the disk cache in parallel without loading them: a
     * later {@link #kernel} of the same source compiles nothing.
     */
    public void compile(java.util.List<String[]> sourceNameFile) {
        java.util.List<java.util.concurrent.CompletableFuture<Void>> compiles = new java.util.ArrayList<>();
        KernelCompiler c = compiler();
        for (String[] k : sourceNameFile) {
            if (!loaded(k[0])) {
                compiles.add(java.util.concurrent.CompletableFuture.runAsync(
                        () -> c.compile(k[0], k[2], CudaSources.headers(), info.ccMajor(), info.ccMinor())));
            }
        }
        for (java.util.concurrent.CompletableFuture<Void> f : compiles) {
            try {
                f.join();
            } catch (java.util.concurrent.CompletionException e) {
                if (e.getCause() instanceof RuntimeException re) {
                    throw re;
                }
                throw e;
            }
        }
    }

    /** Whether this source was compiled and loaded in this process already. */
    public synchronized boolean loaded(String source) {
        return modules.containsKey(io.tessera.backend.GeneratedSource.withoutComments(source));
    }

    /** Fills the first {@code words} 64-bit words of a buffer with {@code value}. */
    public void fill64(DeviceBuffer b, long value, long words) {
        fill64(b, value, words, null);
    }

    /** As {@link #fill64(DeviceBuffer, long, long)}, queued on {@code stream} (null: the default stream). */
    public void fill64(DeviceBuffer b, long value, long words, io.tessera.backend.cuda.driver.CudaStream stream) {
        if (words <= 0) {
            return;
        }
        int blocks = (int) Math.min(4096, (words + 255) / 256);
        fill64.launch(blocks, 256, 0, stream, KernelArgs.of().ptr(b).i64(value).i64(words));
    }

    /**
     * Clears every byte of each of {@code buffers}, eight buffers a launch, queued on {@code stream} (null: the
     * default stream): the counters, cursors and row counts a pipeline's run starts from, with one launch where a
     * memset each took a driver call each.
     */
    public void zero(List<DeviceBuffer> buffers, io.tessera.backend.cuda.driver.CudaStream stream) {
        clear.clear(buffers, stream);
    }

    /**
     * Keeps the stream busy for about {@code nanos} nanoseconds (one thread sleeping), so that work queued meanwhile
     * starts when it ends rather than when the host queued it.
     */
    public void holdStream(long nanos) {
        spin.launch(1, 1, KernelArgs.of().i64(nanos));
    }

    /**
     * Turns the first {@code n} 64-bit counts of a buffer of {@code n + 1} words into their exclusive prefix sums,
     * and word {@code n} into their total (one block; the per-tile counts of a two-pass materialization).
     */
    public void scanCounts(DeviceBuffer counts, long n) {
        scanCounts(counts, n, null);
    }

    /** As {@link #scanCounts(DeviceBuffer, long)}, queued on {@code stream} (null: the default stream). */
    public void scanCounts(DeviceBuffer counts, long n, io.tessera.backend.cuda.driver.CudaStream stream) {
        scanCounts.launch(1, 1024, 0, stream, KernelArgs.of().ptr(counts).i64(n));
    }

    /**
     * Queues the writing of the indices of a group table's non-empty slots into {@code index} (room for {@code slots}
     * entries) in ascending order: slots whose row count in {@code rows} is not 0 and, with a {@code state} array
     * (agg=shared; null for dense tables), whose state is 2. {@code scratch} (at least
     * {@link SlotCompaction#scratchBytes} bytes) then holds how many there are: {@link #compactedSlots}, read after
     * waiting for the device.
     */
    public void queueCompactSlots(DeviceBuffer rows, DeviceBuffer state, long slots, DeviceBuffer index,
                                  DeviceBuffer scratch) {
        compaction.queueCompact(rows, state, slots, index, scratch);
    }

    /** How many non-empty slots a compaction queued with {@code scratch} over {@code slots} slots found. */
    public long compactedSlots(long slots, DeviceBuffer scratch) {
        return compaction.total(slots, scratch);
    }

    /**
     * Gathers the {@code count} slots of {@code index} (from {@link #queueCompactSlots}) of an array of {@code width}
     * 64-bit words per slot into {@code dst} from word {@code dstWord} on; asynchronous, ordered before later copies.
     */
    public void gather64(DeviceBuffer src, int width, DeviceBuffer index, long count, DeviceBuffer dst, long dstWord) {
        compaction.gather(src, width, index, count, dst, dstWord);
    }

    /**
     * Gathers the {@code count} slots of {@code index} of each of {@code arrays} into {@code dst}, four arrays a
     * launch; asynchronous, ordered before later copies.
     */
    public void gather64(List<SlotCompaction.Gather> arrays, DeviceBuffer index, long count, DeviceBuffer dst) {
        compaction.gather(arrays, index, count, dst);
    }

    /**
     * As {@link #gather64(List, DeviceBuffer, long, DeviceBuffer)} for as many slots as the count at device address
     * {@code countAt} says, at most {@code room}, that count written whole to device address {@code countOut}
     * ({@link SlotCompaction#gather(List, DeviceBuffer, long, long, DeviceBuffer, long)}).
     */
    public void gather64(List<SlotCompaction.Gather> arrays, DeviceBuffer index, long room, long countAt,
                         DeviceBuffer dst, long countOut) {
        compaction.gather(arrays, index, room, countAt, dst, countOut);
    }

    /**
     * Gathers {@code count} elements of {@code bytes} bytes (8, 4 or 1) of the array at {@code src} at the row numbers
     * at {@code index} into the array at {@code dst}; asynchronous, ordered before later copies.
     */
    public void gatherRows(long src, int bytes, long index, long count, long dst) {
        compaction.gatherRows(src, bytes, index, count, dst);
    }

    /**
     * Writes the numbers of the first {@code outRows} of {@code rows} device rows in the order of {@code keys} into
     * {@code outIndex} ({@link io.tessera.backend.cuda.ops.SmallSort}; at most its MAX_ROWS rows and MAX_KEYS keys);
     * asynchronous, ordered before later copies.
     */
    public void sortSmall(java.util.List<io.tessera.backend.cuda.ops.SmallSort.Key> keys, long rows, long outRows,
                          DeviceBuffer outIndex) {
        sortSmall(keys, rows, 0, outRows, outIndex);
    }

    /**
     * As {@link #sortSmall(java.util.List, long, long, DeviceBuffer)} for as many rows as the count at device address
     * {@code countAt} says (a compaction's total), at most {@code rows}: queued before the host knows the count.
     */
    public void sortSmall(java.util.List<io.tessera.backend.cuda.ops.SmallSort.Key> keys, long rows, long countAt,
                          long outRows, DeviceBuffer outIndex) {
        DeviceBuffer scratch = pool.take(io.tessera.backend.cuda.ops.SmallSort.scratchBytes(rows, keys.size()));
        try {
            sorter.sort(keys, rows, countAt, outRows, scratch, outIndex);
        } finally {
            pool.give(scratch); // whoever takes it next uses it on the same stream, after the sort
        }
    }

    /** The sort of relations of any size ({@link io.tessera.backend.cuda.ops.LargeSort}), its module compiled on first use. */
    public synchronized io.tessera.backend.cuda.ops.LargeSort largeSort() {
        if (largeSorter == null) {
            largeSorter = new io.tessera.backend.cuda.ops.LargeSort(
                    name -> kernel(CudaSources.sortSource(), name, CudaSources.SORT_MODULE), sorter);
        }
        return largeSorter;
    }

    /** The window functions' kernels ({@link io.tessera.backend.cuda.ops.WindowScan}), their module compiled on first use. */
    public synchronized io.tessera.backend.cuda.ops.WindowScan windowScan() {
        if (windowScan == null) {
            windowScan = new io.tessera.backend.cuda.ops.WindowScan(
                    name -> kernel(CudaSources.windowSource(), name, CudaSources.WINDOW_MODULE));
        }
        return windowScan;
    }

    /**
     * As {@link #sortSmall} for any number of rows (up to LargeSort's MAX_ROWS) and key words: the radix sort, or the
     * bitonic top-k where {@code preference} allows it and it applies; its scratch from the pool. Waits for the
     * reduction that plans the passes; the sort itself is asynchronous, ordered before later copies.
     */
    public io.tessera.backend.cuda.ops.LargeSort.Outcome sortLarge(java.util.List<io.tessera.backend.cuda.ops.SmallSort.Key> keys,
                                                               long rows, long outRows,
                                                               io.tessera.backend.cuda.ops.SortMethod.Preference preference,
                                                               DeviceBuffer outIndex) {
        return largeSort().sort(keys, rows, outRows, preference, poolScratch(), outIndex);
    }

    /**
     * Writes into {@code outIndex} the numbers of the {@code rows} 64-bit words at device address {@code words}
     * (words that order as unsigned numbers) in their order, stable: a sorted join table's keys, by the radix sort
     * of {@link #largeSort}. Waits for the reduction that plans the passes, as {@link #sortLarge}.
     */
    public void sortWords(long words, long rows, DeviceBuffer outIndex) {
        largeSort().sortWords(words, 1, rows, rows, io.tessera.backend.cuda.ops.SortMethod.Preference.SORT, poolScratch(),
                outIndex);
    }

    /**
     * Lays the index of cache lines over the {@code n} (at least 1) sorted words at device address {@code sorted}
     * into {@code index} ({@link io.tessera.backend.cuda.ops.SearchIndex}); asynchronous, ordered before later launches.
     */
    public void searchIndex(long sorted, long n, DeviceBuffer index) {
        io.tessera.backend.cuda.ops.SearchIndex.build(kernel(CudaSources.sortSource(), "tessera_search_index_level",
                CudaSources.SORT_MODULE), sorted, n, index);
    }

    /** Scratch for the sorts, from the pool. */
    private io.tessera.backend.cuda.ops.LargeSort.Scratch poolScratch() {
        return new io.tessera.backend.cuda.ops.LargeSort.Scratch() {
            @Override
            public DeviceBuffer take(long bytes) {
                return pool.take(bytes);
            }

            @Override
            public void give(DeviceBuffer b) {
                pool.give(b); // whoever takes it next uses it on the same stream, after the sort
            }
        };
    }

    /**
     * Closes the runtime (its database closes, a benchmark ends): its kernels, buffers and context released. While a
     * cancelled query's kernel still runs, closing would wait for it: the runtime is left to the process's end then.
     */
    @Override
    public void close() {
        Thread hook;
        synchronized (this) {
            if (closed) {
                return;
            }
            try {
                checkUsable();
            } catch (RuntimeException stillRunning) {
                return;
            }
            hook = exitHook;
            exitHook = null;
        }
        try {
            if (hook != null) {
                Runtime.getRuntime().removeShutdownHook(hook);
            }
        } catch (IllegalStateException e) {
            // the process is ending: its hook closes the runtime
            return;
        }
        closeNow();
    }

    private synchronized void closeNow() {
        if (closed) {
            return;
        }
        closed = true;
        ctx.makeCurrent();
        columns.close();
        pool.close();
        for (CudaModule m : modules.values()) {
            m.close();
        }
        modules.clear();
        for (CudaModule m : retired) {
            m.close();
        }
        retired.clear();
        deleteTree(coldCache);
        staging.close();
        ctx.close();
    }
}

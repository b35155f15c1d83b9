package io.tessera.backend.cuda.exec;

import io.tessera.backend.Accelerator;
import io.tessera.backend.QueryState;
import io.tessera.backend.cuda.runtime.GpuRuntime;
import io.tessera.plan.QueryPlan;
import io.tessera.storage.Database;
import io.tessera.variant.Genome;

import java.util.Map;

/**
 * The CUDA backend: a pipeline that scans a table emitted as one CUDA kernel under its CUDA genome, compiled with
 * NVRTC and launched on the GPU. What it can run is what {@link io.tessera.backend.cuda.gen.GpuPlacement} finds GPU
 * code for, sinks whose device layout matches the query's types. Its join tables stay on the device; the rows and
 * groups its kernels make stay there until the host reads them (groups compacted on the device first). A result
 * only the JVM can produce (a table too full, a key outside its statistics) throws {@link GpuFallbacks.Fallback}.
 */
public final class CudaBackend implements Accelerator {

    /** The device CUDA's intermediates name. */
    public static final String DEVICE = "cuda";

    private final GpuRuntime rt;
    private final Database db;

    private CudaBackend(GpuRuntime rt, Database db) {
        this.rt = rt;
        this.db = db;
    }

    /**
     * The backend on this machine's GPU for {@code db}'s queries, on a runtime of its own that {@link #close} closes;
     * throws a CudaException when no GPU can be used.
     */
    public static CudaBackend open(Database db) {
        return new CudaBackend(GpuRuntime.open(), db);
    }

    /** This backend's runtime: its context, kernels, column cache and pool. */
    public GpuRuntime runtime() {
        return rt;
    }

    /**
     * The runtime of the GPU that {@code devices} (an open database's, through its engine) holds, opened now if it
     * was not yet: what tuners and benchmarks compile into and measure, so that they share the queries' kernels and
     * cached columns.
     */
    public static GpuRuntime runtime(io.tessera.backend.Devices devices) {
        return ((CudaBackend) devices.gpu()).runtime();
    }

    /** Closes the runtime with the database that held this backend. */
    @Override
    public void close() {
        rt.close();
    }

    /** The GPU: its name, SMs and fingerprint, under which its profile is kept. */
    @Override
    public io.tessera.profile.DeviceInfo info() {
        return rt.info();
    }

    @Override
    public String device() {
        return DEVICE;
    }

    /** The query's GPU side under {@code genomes} (every pipeline's complete CUDA genome, see {@link GpuPlan#genomes}). */
    @Override
    public GpuPlan query(QueryPlan plan, Map<Integer, Genome> genomes) {
        return new GpuPlan(rt, db, plan, genomes);
    }

    /** Every pipeline's complete CUDA genome ({@link GpuPlan#genomes}). */
    @Override
    public Map<Integer, Genome> genomes(QueryPlan plan, Map<Integer, Genome> overrides) {
        return GpuPlan.genomes(plan, overrides);
    }

    /** The GPU's kernel time in a run so far (CUDA events), 0 when no kernel ran. */
    public static long kernelNanos(QueryState state) {
        CudaQueryRun run = state.deviceStateIfAny(DEVICE, CudaQueryRun.class);
        return run == null ? 0 : run.kernelNanos();
    }

    /**
     * What CUDA graphs did in this process (under {@code -Dtessera.gpu.graphs=on}): graphs captured and launched
     * again, and the failure that turned them off; null when none was used.
     */
    public static String graphSummary() {
        return PipelineGraphs.summary();
    }

    /** The column upload time of a run so far, 0 when no kernel ran. */
    public static long uploadNanos(QueryState state) {
        CudaQueryRun run = state.deviceStateIfAny(DEVICE, CudaQueryRun.class);
        return run == null ? 0 : run.uploadNanos();
    }
}

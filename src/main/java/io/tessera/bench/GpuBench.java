package io.tessera.bench;

import io.tessera.api.QueryResult;
import io.tessera.backend.KernelTiming;
import io.tessera.backend.cuda.exec.CudaBackend;
import io.tessera.backend.cuda.measure.BandwidthProbe;
import io.tessera.backend.cuda.measure.DeviceCatalog;
import io.tessera.backend.cuda.runtime.GpuRuntime;
import io.tessera.exec.Device;
import io.tessera.exec.QueryEngine;
import io.tessera.exec.RunOption;
import io.tessera.storage.Database;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import io.tessera.variant.CudaVariantSpace;

/**
 * The GPU benchmark: per query, the kernel time and the end-to-end time on the GPU (columns already in device
 * memory, as after the first run), and two bandwidth models from the device's measured read bandwidth with the
 * share of each that the kernels reach: the scan of every column the kernels read, whole, and the Crystal thesis's
 * per-query model (column lines behind the filters and probes, join tables, result-table lines; {@link
 * io.tessera.backend.cuda.gen.ModelBytes}); beside them the JVM backend on all cores of the same machine, in the same
 * run.
 */
public final class GpuBench {

    /**
     * One query: {@code bytes} of whole columns and {@code modelMs} their time at the measured bandwidth (the scan
     * model); {@code thesisBytes} and {@code thesisMs} the thesis's per-query model.
     */
    public record Row(String query, double kernelMs, double endToEndMs, long bytes, double modelMs, long thesisBytes,
                      double thesisMs, double jvmMs, double peerMs, String device, String error) {
        public double percentOfModel() {
            return kernelMs > 0 ? 100 * modelMs / kernelMs : Double.NaN;
        }

        public double percentOfThesis() {
            return kernelMs > 0 ? 100 * thesisMs / kernelMs : Double.NaN;
        }

        Row withJvm(double ms, String jvmError) {
            return new Row(query, kernelMs, endToEndMs, bytes, modelMs, thesisBytes, thesisMs, ms, peerMs, device,
                    jvmError != null ? jvmError : error);
        }

        Row withPeer(double ms, String peerError) {
            return new Row(query, kernelMs, endToEndMs, bytes, modelMs, thesisBytes, thesisMs, jvmMs, ms, device,
                    peerError != null ? peerError : error);
        }

        /** How many times faster the GPU answered than the peer (DuckDB on the machine's cores), end to end. */
        public double peerSpeedup() {
            return peerMs / endToEndMs;
        }
    }

    /** The runs of the kernel column time their kernels; the end-to-end runs do not. */
    private static final RunOption<KernelTiming> TIMED = RunOption.of(KernelTiming.class, KernelTiming.ON);

    private GpuBench() {
    }

    /** Measures every query; {@code runs} timed runs after the warm-up, medians. */
    public static List<Row> run(Database db, List<Queries.Query> queries, int runs, PrintStream log) {
        return run(db, queries, runs, log, Map.of(), true, null);
    }

    /** GPU runs of a query before its timed ones, at least one: until the GPU has run it this long. */
    public static final double WARM_UP_SECONDS = 0.2;

    /**
     * As {@link #run(Database, List, int, PrintStream)}, with {@code overrides} (dimension to value) applied to the
     * default CUDA genome of every table-scan pipeline where the constraints allow, and the JVM backend measured
     * only when {@code withJvm}. Every query runs on the GPU first, the JVM backend after the last one: a GPU left
     * idle while the JVM backend ran on every core started the next query at lower clocks (SSB SF 20 on the H200, the
     * same kernels on the same kind of machine: q1.1 0.595 ms interleaved against 0.407, q3.1 0.737 against 0.601).
     * The {@code peer} (DuckDB on the same data, or null for none) runs last, warmed up as {@link SsbBench} warms it.
     */
    public static List<Row> run(Database db, List<Queries.Query> queries, int runs, PrintStream log,
                                Map<String, String> overrides, boolean withJvm, SsbBench.Runner peer) {
        int cores = java.lang.Runtime.getRuntime().availableProcessors();
        List<Row> rows = new ArrayList<>();
        // the engine's own GPU runtime, closed with it: the bandwidth probe and the queries share its context
        try (QueryEngine gpu = new QueryEngine(db, cores, Device.GPU)) {
            GpuRuntime rt = CudaBackend.runtime(gpu.devices());
            double gbps = DeviceCatalog.openDefault().bandwidth(rt.info(), false,
                    () -> BandwidthProbe.measureGpu(rt.context(), rt.compiler())).readGBps();
            log.printf(Locale.ROOT, "device: %s (%d SMs), read bandwidth %.0f GB/s (measured, remembered)%n",
                    rt.info().name(), rt.info().cores(), gbps);
            for (Queries.Query q : queries) {
                try {
                    QueryEngine.Prepared pg = gpu.prepare(q.sql(), overrides.isEmpty() ? null
                            : CudaVariantSpace.INSTANCE.defaultsWith(gpu.plan(q.sql()), overrides));
                    QueryResult first = gpu.run(pg); // uploads the columns
                    long warm = System.nanoTime();
                    while (System.nanoTime() - warm < WARM_UP_SECONDS * 1e9) {
                        gpu.run(pg);
                    }
                    double[] kernel = new double[runs];
                    double[] total = new double[runs];
                    // the kernel times from runs that record them, the end-to-end times from plain runs (which
                    // record no timing events), the two alternated
                    for (int i = 0; i < runs; i++) {
                        for (int half = 0; half < 2; half++) {
                            if ((half + i) % 2 == 0) {
                                kernel[i] = gpu.run(pg, TIMED).execution().kernelNanos() / 1e6;
                            } else {
                                long t0 = System.nanoTime();
                                gpu.run(pg);
                                total[i] = (System.nanoTime() - t0) / 1e6;
                            }
                        }
                    }
                    long bytes = first.execution().bytesRead();
                    long thesis = first.execution().modelBytes();
                    // which CUDA genomes ran: the GPU profile's (after tessera tune --device gpu), given ones, or
                    // defaults
                    String genomes = pg.gpuOrigins().containsValue(io.tessera.profile.GenomeChooser.GIVEN) ? "given"
                            : pg.gpuOrigins().containsValue(io.tessera.profile.GenomeChooser.PROFILE) ? "profile"
                            : "default";
                    rows.add(new Row(q.name(), SsbBench.median(kernel), SsbBench.median(total), bytes,
                            millis(bytes, gbps), thesis, millis(thesis, gbps), Double.NaN, Double.NaN,
                            first.execution().device() + ", " + genomes + " genomes", first.execution().notice()));
                } catch (RuntimeException e) {
                    rows.add(new Row(q.name(), Double.NaN, Double.NaN, 0, Double.NaN, 0, Double.NaN, Double.NaN,
                            Double.NaN, "-", String.valueOf(e.getMessage())));
                }
            }
            String graphs = io.tessera.backend.cuda.exec.CudaBackend.graphSummary();
            if (graphs != null) {
                log.println(graphs);
            }
        }
        if (withJvm) {
            QueryEngine jvm = new QueryEngine(db, cores, Device.CPU);
            for (int k = 0; k < rows.size(); k++) {
                Row r = rows.get(k);
                if (r.device().equals("-")) {
                    continue; // the GPU run failed: the row says why
                }
                try {
                    QueryEngine.Prepared pj = jvm.prepare(queries.get(k).sql());
                    jvm.run(pj);
                    double[] cpu = new double[runs];
                    for (int i = 0; i < runs; i++) {
                        long t0 = System.nanoTime();
                        jvm.run(pj);
                        cpu[i] = (System.nanoTime() - t0) / 1e6;
                    }
                    rows.set(k, r.withJvm(SsbBench.median(cpu), null));
                } catch (RuntimeException e) {
                    rows.set(k, r.withJvm(Double.NaN, "the JVM backend failed: " + e.getMessage()));
                }
            }
        }
        if (peer != null) {
            for (int k = 0; k < rows.size(); k++) {
                Row r = rows.get(k);
                if (r.device().equals("-")) {
                    continue;
                }
                SsbBench.Measured m = SsbBench.measure(peer, queries.get(k).sql(), runs);
                rows.set(k, r.withPeer(m.medianMs(), m.error() == null ? null : "the peer failed: " + m.error()));
            }
        }
        return rows;
    }

    /** Milliseconds to read {@code bytes} at {@code gbps} GB/s. */
    private static double millis(long bytes, double gbps) {
        return bytes / (gbps * 1e9) * 1e3;
    }

    public static String format(List<Row> rows, int cores) {
        StringBuilder sb = new StringBuilder();
        String h = String.format(Locale.ROOT, "%-7s %10s %10s %9s %9s %8s %10s %10s %9s %13s %8s %13s %10s  %s", "query",
                "kernel ms", "e2e ms", "MB read", "scan ms", "% scan", "thesis MB", "thesis ms", "% thesis",
                "JVM ms (" + cores + ")", "JVM/GPU", "DuckDB ms", "DuckDB/GPU", "ran on");
        sb.append(h).append('\n').append("-".repeat(h.length())).append('\n');
        List<Double> pct = new ArrayList<>();
        List<Double> thesis = new ArrayList<>();
        List<Double> speedup = new ArrayList<>();
        List<Double> peerSpeedup = new ArrayList<>();
        int slowerThanPeer = 0;
        for (Row r : rows) {
            sb.append(String.format(Locale.ROOT, "%-7s %10.3f %10.3f %9.1f %9.3f %7.1f%% %10.1f %10.3f %8.1f%% %13.2f %8.1f %13.2f %10.1f  %s",
                    r.query(), r.kernelMs(), r.endToEndMs(), r.bytes() / 1e6, r.modelMs(), r.percentOfModel(),
                    r.thesisBytes() / 1e6, r.thesisMs(), r.percentOfThesis(), r.jvmMs(), r.jvmMs() / r.endToEndMs(),
                    r.peerMs(), r.peerSpeedup(), r.device())).append('\n');
            if (Double.isFinite(r.peerSpeedup())) {
                peerSpeedup.add(r.peerSpeedup());
                slowerThanPeer += r.peerSpeedup() < 1 ? 1 : 0;
            }
            if (Double.isFinite(r.percentOfModel())) {
                pct.add(r.percentOfModel());
            }
            if (Double.isFinite(r.percentOfThesis()) && r.thesisMs() > 0) {
                thesis.add(r.percentOfThesis());
            }
            if (Double.isFinite(r.jvmMs() / r.endToEndMs())) {
                speedup.add(r.jvmMs() / r.endToEndMs());
            }
        }
        sb.append("-".repeat(h.length())).append('\n');
        sb.append(String.format(Locale.ROOT, "geomean (kernel time): %.1f%% of the scan model, %.1f%% of the thesis model; "
                + "geomean JVM/GPU end to end: %.1fx%n", SsbBench.geomean(pct), SsbBench.geomean(thesis),
                SsbBench.geomean(speedup)));
        if (!peerSpeedup.isEmpty()) {
            sb.append(String.format(Locale.ROOT, "geomean DuckDB/GPU end to end: %.1fx over %d queries; %d slower on the GPU "
                    + "than DuckDB%n", SsbBench.geomean(peerSpeedup), peerSpeedup.size(), slowerThanPeer));
        }
        for (Row r : rows) {
            if (r.error() != null) {
                sb.append(r.query()).append(": ").append(r.error()).append('\n');
            }
        }
        return sb.toString();
    }
}

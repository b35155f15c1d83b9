package io.tessera.cli;

import io.tessera.backend.cuda.measure.BandwidthProbe;
import io.tessera.backend.cuda.driver.CudaContext;
import io.tessera.backend.cuda.driver.CudaDevices;
import io.tessera.backend.cuda.driver.CudaDriver;
import io.tessera.backend.cuda.CudaException;
import io.tessera.backend.cuda.measure.DeviceCatalog;
import io.tessera.backend.cuda.compile.KernelCompiler;
import io.tessera.profile.DeviceInfo;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.function.Supplier;

/** {@code tessera devices}: every CPU and GPU of this machine, with its measured read bandwidth. */
@Command(name = "devices", mixinStandardHelpOptions = true,
        description = {"Lists the processors Tessera can run queries on (the CPU and every CUDA GPU) with name, "
                + "cores or SMs, memory, compute capability and read bandwidth.",
                "Bandwidth is measured on first use and remembered in devices.json in the cache directory "
                        + "(~/.cache/tessera, or $XDG_CACHE_HOME/tessera)."})
public final class DevicesCommand implements Callable<Integer> {
    @Option(names = "--remeasure", description = "measure bandwidth again even when it is remembered")
    boolean remeasure;

    @Option(names = "--no-measure", description = "show remembered bandwidth only; measure nothing")
    boolean noMeasure;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        DeviceCatalog catalog = DeviceCatalog.openDefault();
        List<String[]> rows = new ArrayList<>();
        List<String> notes = new ArrayList<>();

        DeviceInfo cpu = DeviceInfo.cpu();
        rows.add(row(cpu, bandwidth(catalog, cpu, BandwidthProbe::measureCpu, notes, err)));

        String noGpu = null;
        try {
            CudaDriver driver = CudaDriver.get();
            int n = driver.deviceCount();
            if (n == 0) {
                noGpu = "the CUDA driver sees no device";
            }
            for (int i = 0; i < n; i++) {
                DeviceInfo gpu = CudaDevices.gpu(driver, i);
                int ordinal = i;
                rows.add(row(gpu, bandwidth(catalog, gpu, () -> {
                    try (CudaContext ctx = CudaContext.open(ordinal)) {
                        return BandwidthProbe.measureGpu(ctx, KernelCompiler.nvrtc());
                    }
                }, notes, err)));
            }
        } catch (CudaException e) {
            noGpu = e.getMessage();
        }

        String[] header = {"ID", "NAME", "CORES/SMS", "MEMORY", "CC", "CLOCK", "READ BW"};
        int[] width = new int[header.length];
        for (String[] r : concat(header, rows)) {
            for (int c = 0; c < r.length; c++) {
                width[c] = Math.max(width[c], r[c].length());
            }
        }
        for (String[] r : concat(header, rows)) {
            StringBuilder sb = new StringBuilder();
            for (int c = 0; c < r.length; c++) {
                boolean right = c >= 2 && c != 4;
                String cell = right ? " ".repeat(width[c] - r[c].length()) + r[c] : r[c] + " ".repeat(width[c] - r[c].length());
                sb.append(c == 0 ? "" : "  ").append(cell);
            }
            out.println(sb.toString().stripTrailing());
        }
        if (noGpu != null) {
            out.println("no GPU: " + noGpu);
        }
        for (String n : notes) {
            out.println(n);
        }
        out.println("bandwidth cache: " + catalog.file());
        out.flush();
        return 0;
    }

    private String bandwidth(DeviceCatalog catalog, DeviceInfo d, Supplier<BandwidthProbe.Result> measure,
                             List<String> notes, PrintWriter err) {
        try {
            DeviceCatalog.Entry e;
            if (noMeasure) {
                e = catalog.get(d);
            } else {
                if (remeasure || catalog.get(d) == null) {
                    err.println("measuring the read bandwidth of " + d.id() + " (" + d.name() + ") once ...");
                    err.flush();
                }
                e = catalog.bandwidth(d, remeasure, measure);
            }
            return e == null ? "-" : String.format("%.1f GB/s", e.readGBps());
        } catch (RuntimeException ex) {
            notes.add(d.id() + ": bandwidth not measured: " + ex.getMessage());
            return "-";
        }
    }

    private static String[] row(DeviceInfo d, String bw) {
        return new String[] {d.id(), d.name(), d.kind() == DeviceInfo.Kind.GPU ? d.cores() + " SMs" : d.cores() + " cores",
                d.memoryBytes() == 0 ? "-" : String.format("%.1f GiB", d.memoryBytes() / (double) (1L << 30)),
                d.computeCapability(), d.clockMHz() == 0 ? "-" : d.clockMHz() + " MHz", bw};
    }

    private static List<String[]> concat(String[] header, List<String[]> rows) {
        List<String[]> all = new ArrayList<>();
        all.add(header);
        all.addAll(rows);
        return all;
    }
}

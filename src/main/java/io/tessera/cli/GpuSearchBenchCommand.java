package io.tessera.cli;

import io.tessera.bench.GpuSearchBench;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.util.concurrent.Callable;

/** {@code tessera bench gpu-search}: p-ary search against binary search on the GPU, on the same lookups. */
@Command(name = "gpu-search", mixinStandardHelpOptions = true,
        description = {"On a GPU: a batch of lookups in a sorted array of 64-bit keys (each key twice), each answered "
                + "with its range of duplicates, by binary search (a thread per lookup) and by p-ary search (a group "
                + "of p lanes per lookup, p = 4, 8, 16, 32); lookups/s, medians of device time, every answer checked. "
                + "Exit code 1 when a check fails."})
public final class GpuSearchBenchCommand implements Callable<Integer> {

    @Option(names = "--rows", paramLabel = "N", defaultValue = "16777216",
            description = "keys in the sorted array (default: ${DEFAULT-VALUE})")
    long rows;

    @Option(names = "--lookups", paramLabel = "N", defaultValue = "16777216",
            description = "lookups in the batch (default: ${DEFAULT-VALUE})")
    long lookups;

    @Option(names = "--runs", paramLabel = "N", defaultValue = "5",
            description = "timed runs of each after one warm-up (default: ${DEFAULT-VALUE})")
    int runs;

    @Option(names = "--seed", paramLabel = "N", defaultValue = "42", description = "seed of keys and lookups (default: ${DEFAULT-VALUE})")
    long seed;

    @Override
    public Integer call() {
        boolean ok = GpuSearchBench.run(new GpuSearchBench.Setup(rows, lookups, runs, seed), System.out, System.err);
        return ok ? 0 : 1;
    }
}

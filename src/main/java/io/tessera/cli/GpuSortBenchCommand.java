package io.tessera.cli;

import io.tessera.bench.GpuSortBench;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;

/** {@code tessera bench gpu-sort}: the GPU's radix sort against CUB's, and its top-k against sort-then-cut. */
@Command(name = "gpu-sort", mixinStandardHelpOptions = true,
        description = {"On a GPU: the radix sort of random 64-bit keys with their row numbers against CUB's "
                + "cub::DeviceRadixSort::SortPairs on the same keys (bench/cuda/cub_sort_ref.cu: the binary "
                + ".device/cub_sort_ref that bench/cuda/build-cub-ref.sh writes, else compiled with nvcc found on the "
                + "PATH or under /usr/local/cuda*; skipped, saying why, without either), and the bitonic top-k "
                + "against sorting every row and cutting it, for each k; keys/s, medians of device time, every "
                + "result checked. Exit code 1 when a check fails."})
public final class GpuSortBenchCommand implements Callable<Integer> {

    @Option(names = "--rows", paramLabel = "N", defaultValue = "100000000",
            description = "keys to sort (default: ${DEFAULT-VALUE})")
    long rows;

    @Option(names = "--bits", paramLabel = "B", defaultValue = "64",
            description = "random bits per key, 1 to 64; the sort skips the digits above them, CUB is told them "
                    + "(default: ${DEFAULT-VALUE})")
    int bits;

    @Option(names = "--runs", paramLabel = "N", defaultValue = "5",
            description = "timed runs of each after one warm-up (default: ${DEFAULT-VALUE})")
    int runs;

    @Option(names = "--seed", paramLabel = "N", defaultValue = "42", description = "seed of the keys (default: ${DEFAULT-VALUE})")
    long seed;

    @Option(names = "--k", paramLabel = "K", split = ",", defaultValue = "16,32,64,128,256,512,1024",
            description = "the LIMITs of the top-k runs (default: ${DEFAULT-VALUE})")
    List<Integer> ks;

    @Option(names = "--cub-binary", paramLabel = "FILE", description = "a built cub_sort_ref to run (default: "
            + ".device/cub_sort_ref when it is there, else the source compiled with nvcc)")
    Path cubBinary;

    @Option(names = "--cub-source", paramLabel = "FILE",
            description = "the reference's source (default: bench/cuda/cub_sort_ref.cu under the current directory)")
    Path cubSource;

    @Option(names = "--no-cub", description = "do not run the CUB reference")
    boolean noCub;

    @Override
    public Integer call() throws Exception {
        boolean ok = GpuSortBench.run(new GpuSortBench.Setup(rows, bits, runs, seed, ks, cubBinary, cubSource, !noCub),
                System.out, System.err);
        return ok ? 0 : 1;
    }
}

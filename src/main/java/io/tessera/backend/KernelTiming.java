package io.tessera.backend;

/**
 * A run option ({@link QueryState#option}): the device backends time every kernel they launch (a pair of events
 * around each launch), which {@code QueryResult.Execution.kernelNanos} then reports. Asked for where kernel times
 * are shown or compared: the benchmarks' kernel column, {@code --timing} and {@code \timing}, the GPU tuner. A run
 * without it records no timing events, and its kernel time reads 0: the events cost the host a few microseconds a
 * launch, which a short query's end-to-end time would carry.
 */
public enum KernelTiming {
    ON
}

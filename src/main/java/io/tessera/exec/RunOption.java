package io.tessera.exec;

import io.tessera.backend.QueryState;

/**
 * An option of one device's run of a query, set in the run's {@link QueryState} under its type (a GPU tuner's
 * block kernels: {@code RunOption.of(GpuBlocks.class, blocks)}), so that the executor passes it on without
 * naming the device.
 */
public record RunOption<T>(Class<T> type, T value) {

    public static <T> RunOption<T> of(Class<T> type, T value) {
        return new RunOption<>(type, value);
    }

    void setIn(QueryState state) {
        state.setOption(type, value);
    }
}

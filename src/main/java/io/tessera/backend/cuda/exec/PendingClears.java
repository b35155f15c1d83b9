package io.tessera.backend.cuda.exec;

import io.tessera.backend.cuda.driver.DeviceBuffer;
import io.tessera.backend.cuda.runtime.GpuRuntime;

import java.util.ArrayList;
import java.util.List;

/**
 * The buffers a run's bindings asked to have cleared (row counts, cursors, error words, marks), issued together
 * before the next launch or wait: one launch for every eight buffers ({@link GpuRuntime#zero}), where a memset each
 * took a driver call each.
 */
final class PendingClears {

    private final List<DeviceBuffer> buffers = new ArrayList<>();

    void add(DeviceBuffer b) {
        buffers.add(b);
    }

    /** Clears the buffers added since the last call, or records that in {@code steps} (null: clears them now). */
    void issue(DeviceSteps steps, GpuRuntime rt) {
        DeviceSteps.zero(steps, rt, buffers); // nothing where none were added
        buffers.clear();
    }
}

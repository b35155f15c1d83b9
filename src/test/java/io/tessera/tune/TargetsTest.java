package io.tessera.tune;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

class TargetsTest {

    @Test
    void theCudaBackendRegistersItsTargetsThroughTheServiceFile() {
        // the engine's package provides CUDA targets: this package finds them without depending on it
        assertEquals(java.util.Set.of("jvm", "cuda"), Targets.backends());
    }
}

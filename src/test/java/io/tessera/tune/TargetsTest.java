package io.tessera.tune;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

class TargetsTest {

    @Test
    void theJvmAndCudaBackendsMakeTargets() {
        assertEquals(java.util.Set.of("jvm", "cuda"), Targets.backends());
    }
}

package io.tessera.variant;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The registry through which the engine obtains spaces, by device kind and by backend. */
class VariantSpacesTest {

    @Test
    void eachBackendIsRegisteredOnceWithItsThreadConfiguration() {
        VariantSpace jvm = VariantSpaces.forBackend("jvm", 4);
        assertInstanceOf(JvmVariantSpace.class, jvm);
        assertEquals(4, ((JvmVariantSpace) jvm).cores());
        assertEquals(Runtime.getRuntime().availableProcessors(), ((JvmVariantSpace) VariantSpaces.forBackend("jvm")).cores());
        assertSame(CudaVariantSpace.INSTANCE, VariantSpaces.forBackend("cuda", 132));
        assertEquals(List.of("workers", "morsel", "access"), VariantSpaces.threadDimensions("jvm"));
        assertEquals(List.of("tpb", "ipt", "grid"), VariantSpaces.threadDimensions("cuda"));
        // a GPU's best tile depends on the aggregation; a JVM's workers and morsels hardly on the code
        assertTrue(VariantSpaces.threadsFollowCode("cuda"));
        assertFalse(VariantSpaces.threadsFollowCode("jvm"));
        assertTrue(VariantSpaces.has("jvm") && VariantSpaces.has("cuda"));
        assertEquals("jvm", VariantSpaces.forDevice(VariantSpaces.CPU).orElseThrow().backend());
        assertEquals("cuda", VariantSpaces.forDevice(VariantSpaces.GPU).orElseThrow().backend());
        assertEquals(List.of("cpu", "gpu"), VariantSpaces.withSpace());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> VariantSpaces.forBackend("opencl"));
        assertEquals("no variant space for backend 'opencl' (known: jvm, cuda)", e.getMessage());
    }
}

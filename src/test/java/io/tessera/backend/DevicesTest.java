package io.tessera.backend;

import io.tessera.storage.Database;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class DevicesTest {

    @Test
    void anOpenDatabaseNamesTheHostFirstAndThenItsGpu(@TempDir Path dir) {
        try (Database db = Database.openOrCreate(dir.resolve("db"))) {
            Devices devices = Devices.of(db);
            assertEquals(List.of("jvm", "cuda:0"), devices.names());
            assertSame(devices.host(), devices.get("jvm"));
            assertEquals(Intermediate.HOST, devices.host().device());
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> devices.get("cuda:7"));
            assertTrue(e.getMessage().contains("cuda:7"), e.getMessage());
        }
    }

    /** The GPU is opened once per database's devices and kept; where none can be used, every call says so. */
    @Test
    void theGpuIsOpenedOnceAndKeptOrRefusedEveryTime(@TempDir Path dir) {
        try (Database db = Database.openOrCreate(dir.resolve("db"))) {
            Devices devices = Devices.of(db);
            Accelerator first;
            try {
                first = devices.gpu();
            } catch (DeviceException | LinkageError none) {
                assertThrows(none.getClass(), devices::gpu);
                assertThrows(none.getClass(), () -> devices.get(Devices.GPU));
                return;
            }
            assertSame(first, devices.gpu());
            assertSame(first, devices.get(Devices.GPU));
        }
    }

    /**
     * Each registry opens a GPU of its own (two databases in one process share only the GPU's column budget, see
     * DeviceBudgetTest), and closing one releases its GPU and refuses the GPU from then on, while the host still
     * runs and the other registry's GPU stays usable.
     */
    @Test
    void eachRegistryHoldsItsOwnGpuAndClosesIt(@TempDir Path dir) {
        try (Database db = Database.openOrCreate(dir.resolve("db"))) {
            Devices one = Devices.of(db);
            Devices two = Devices.of(db);
            Accelerator a = null;
            try {
                a = one.gpu();
            } catch (DeviceException | LinkageError none) {
                // no GPU here: the other registry is refused too, on its own call
                assertThrows(none.getClass(), two::gpu);
            }
            if (a != null) {
                Accelerator b = two.gpu();
                assertNotSame(a, b);
                two.close();
                assertSame(a, one.gpu());
            }
            one.close();
            one.close();
            DeviceException closed = assertThrows(DeviceException.class, one::gpu);
            assertTrue(closed.getMessage().contains("closed"), closed.getMessage());
            assertEquals(Intermediate.HOST, one.host().device());
        }
    }

    @Test
    void beforeAnyDatabaseOnlyTheHostIsThere() {
        Devices devices = Devices.hostOnly();
        assertEquals(List.of("jvm"), devices.names());
        assertEquals(Intermediate.HOST, devices.host().device());
        assertThrows(DeviceException.class, devices::gpu);
        assertThrows(IllegalArgumentException.class, () -> devices.get(Devices.GPU));
    }
}

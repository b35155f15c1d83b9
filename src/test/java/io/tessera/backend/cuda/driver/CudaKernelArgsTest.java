package io.tessera.backend.cuda.driver;

import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_DOUBLE;
import static java.lang.foreign.ValueLayout.JAVA_FLOAT;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** kernelParams for cuLaunchKernel: a void*[] whose entries point at each argument's value. */
class CudaKernelArgsTest {
    @Test
    void packsOnePointerPerArgumentToItsValue() {
        KernelArgs args = KernelArgs.of().ptr(0x7f00_0000_1000L).i32(-42).i64(1L << 40).f32(1.5f).f64(-2.25).ptr(0);
        try (Arena a = Arena.ofConfined()) {
            MemorySegment params = args.pack(a);
            assertEquals(6 * ADDRESS.byteSize(), params.byteSize());
            MemorySegment[] values = new MemorySegment[6];
            for (int i = 0; i < 6; i++) {
                MemorySegment p = params.getAtIndex(ADDRESS, i);
                assertNotEquals(0, p.address(), "null entry " + i);
                assertEquals(0, p.address() % 8, "entry " + i + " not 8-byte aligned");
                values[i] = p.reinterpret(8);
            }
            assertEquals(0x7f00_0000_1000L, values[0].get(JAVA_LONG, 0));
            assertEquals(-42, values[1].get(JAVA_INT, 0));
            assertEquals(1L << 40, values[2].get(JAVA_LONG, 0));
            assertEquals(1.5f, values[3].get(JAVA_FLOAT, 0));
            assertEquals(-2.25, values[4].get(JAVA_DOUBLE, 0));
            assertEquals(0L, values[5].get(JAVA_LONG, 0));
            // every value has its own slot
            for (int i = 1; i < 6; i++) {
                assertTrue(values[i].address() - values[i - 1].address() >= 8);
            }
        }
    }

    @Test
    void packsIntoAReusedBlockTheSameValues() {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment block = a.allocate(KernelArgs.blockBytes(6), 8);
            // a block left dirty by a longer launch: every slot an argument uses is rewritten whole
            block.fill((byte) 0x5a);
            KernelArgs args = KernelArgs.of().ptr(0x7f00_0000_1000L).i32(-42).i64(1L << 40).f32(1.5f).f64(-2.25);
            MemorySegment params = args.packInto(block);
            assertEquals(block.address(), params.address());
            long[] slots = new long[5];
            for (int i = 0; i < 5; i++) {
                long p = params.get(JAVA_LONG, 8L * i);
                assertEquals(block.address() + 8L * 5 + 8L * i, p, "entry " + i + " points at its own slot");
                slots[i] = p - block.address();
            }
            assertEquals(0x7f00_0000_1000L, block.get(JAVA_LONG, slots[0]));
            assertEquals(-42, block.get(JAVA_INT, slots[1]));
            assertEquals(0, block.get(JAVA_INT, slots[1] + 4), "the slot of an int is cleared above it");
            assertEquals(1L << 40, block.get(JAVA_LONG, slots[2]));
            assertEquals(1.5f, block.get(JAVA_FLOAT, slots[3]));
            assertEquals(-2.25, block.get(JAVA_DOUBLE, slots[4]));
            // the same block again with other values: only the words change
            KernelArgs.of().ptr(8).i32(7).packInto(block);
            assertEquals(block.address() + 16, block.get(JAVA_LONG, 0));
            assertEquals(8L, block.get(JAVA_LONG, 16));
            assertEquals(7, block.get(JAVA_INT, 24));
        }
    }

    @Test
    void aBlockTooSmallIsRefused() {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment block = a.allocate(KernelArgs.blockBytes(1), 8);
            assertThrows(IllegalArgumentException.class, () -> KernelArgs.of().i32(1).i32(2).packInto(block));
            assertEquals(MemorySegment.NULL, KernelArgs.of().packInto(block));
        }
    }

    @Test
    void noArgumentsIsANullArray() {
        try (Arena a = Arena.ofConfined()) {
            assertEquals(MemorySegment.NULL, KernelArgs.of().pack(a));
        }
    }

    @Test
    void describesItselfForErrorMessages() {
        assertEquals("(ptr 0x10, int 3, long 4, float 0.5, double 0.25)",
                KernelArgs.of().ptr(16).i32(3).i64(4).f32(0.5f).f64(0.25).toString());
        assertEquals(KernelArgs.Kind.INT, KernelArgs.of().i32(1).args().get(0).kind());
        assertEquals(4, KernelArgs.Kind.INT.bytes());
    }
}

package io.tessera.backend.cuda.ops;

import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The radix sort's scatter kernels as the host knows them: named by label, sized by tile, shared memory per block. */
class RadixScatterTest {

    @Test
    void everyScatterIsFoundByItsLabelAndNoOtherName() {
        Set<String> labels = new HashSet<>();
        for (RadixScatter r : RadixScatter.values()) {
            assertTrue(labels.add(r.label()), "two scatters labelled " + r.label());
            assertEquals(r, RadixScatter.byLabel(r.label()));
        }
        assertEquals(RadixScatter.STAGED_16, RadixScatter.byLabel("staged-16"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> RadixScatter.byLabel("staged-17"));
        assertTrue(e.getMessage().contains(RadixScatter.PROPERTY) && e.getMessage().contains("staged-16"),
                e.getMessage());
    }

    @Test
    void stagedScattersTakeTheirTilesKeysAndRowNumbersAsDynamicSharedMemory() {
        for (RadixScatter r : RadixScatter.values()) {
            boolean staged = r.kernel().startsWith("tessera_radix_staged_");
            // 8 bytes of key and 4 of row number a pair: the layout tessera_radix_staged.cuh carves
            assertEquals(staged ? r.tile() * 12 : 0, r.dynamicShared(), r.label());
            // an SM holds at most 2,048 threads; fewer than 512 would leave too little in flight
            int threads = r.blocksPerSm() * r.threads();
            assertTrue(threads >= 512 && threads <= 2048, r.label() + ": " + threads + " threads an SM");
            assertEquals(0, r.threads() % 32, r.label());
        }
    }

    @Test
    void theWideStagedScatterTakesCubsShape() {
        RadixScatter r = RadixScatter.STAGED_15_384;
        assertEquals(384, r.threads());
        assertEquals(5_760, r.tile());
        assertEquals(5_760 * 12, r.dynamicShared());
        assertEquals(RadixScatter.STAGED_15_384, RadixScatter.byLabel("staged-15-384"));
    }

    @Test
    void aPassHasOneBlockPerTileOrPartOfOne() {
        RadixScatter r = RadixScatter.STAGED_20;
        assertEquals(5_120, r.tile());
        assertEquals(1, r.tiles(1));
        assertEquals(1, r.tiles(5_120));
        assertEquals(2, r.tiles(5_121));
        assertEquals(19_532, r.tiles(100_000_000));
    }
}

package io.tessera.storage;

import org.junit.jupiter.api.Test;

import java.lang.foreign.MemorySegment;
import java.util.Random;
import java.util.zip.CRC32C;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The CRC-32C taken in pieces and joined is the one CRC32C computes over the whole, at every cut. */
class Crc32cPartsTest {

    @Test
    void twoPiecesJoinedAtAnyCutGiveTheWholeCrc() {
        byte[] b = new byte[300];
        new Random(3).nextBytes(b);
        for (int cut = 0; cut <= b.length; cut += 7) {
            assertEquals(crc(b, 0, b.length), Crc32cParts.join(crc(b, 0, cut), crc(b, cut, b.length), b.length - cut),
                    "cut at " + cut);
        }
    }

    @Test
    void aLargeSegmentInPiecesOnAllCoresHasTheWholeCrc() {
        byte[] b = new byte[(40 << 20) + 12_345];
        new Random(4).nextBytes(b);
        assertEquals(crc(b, 0, b.length), Crc32cParts.of(MemorySegment.ofArray(b)));
        assertEquals(crc(b, 0, 1000), Crc32cParts.of(MemorySegment.ofArray(b).asSlice(0, 1000)));
        assertEquals(crc(b, 0, 0), Crc32cParts.of(MemorySegment.ofArray(new byte[0])));
    }

    private static long crc(byte[] b, int from, int to) {
        CRC32C c = new CRC32C();
        c.update(b, from, to - from);
        return c.getValue();
    }
}

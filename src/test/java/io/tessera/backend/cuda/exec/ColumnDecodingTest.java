package io.tessera.backend.cuda.exec;

import io.tessera.backend.host.RowBuffer;
import io.tessera.backend.ValueKind;
import io.tessera.backend.cuda.gen.CType;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * A device relation's bytes decoded column by column, as {@link DeviceRows} reads them back, give the rows a
 * decoding row by row of the same bytes gives: every value of every device type, and NULL flags of any byte
 * value at every position of a 64-row word and of the tail after the last whole eight rows.
 */
class ColumnDecodingTest {

    private static final int[] SIZES = {0, 1, 7, 8, 9, 63, 64, 65, 127, 128, 1000, 4099};

    @Test
    void nullFlagsBecomeTheBitsARowByRowReadingSets() {
        SplittableRandom random = new SplittableRandom(36);
        try (Arena arena = Arena.ofConfined()) {
            for (int n : SIZES) {
                for (double share : new double[] {0, 0.01, 0.5, 1}) {
                    MemorySegment flags = arena.allocate(Math.max(1, n));
                    for (int r = 0; r < n; r++) {
                        // a NULL is any byte that is not 0, as the row-by-row reading took it
                        byte f = random.nextDouble() < share ? (byte) (1 + random.nextInt(255)) : 0;
                        flags.set(ValueLayout.JAVA_BYTE, r, f);
                    }
                    RowBuffer expected = RowBuffer.allocate(new ValueKind[] {ValueKind.LONG}, n);
                    for (int r = 0; r < n; r++) {
                        if (flags.get(ValueLayout.JAVA_BYTE, r) != 0) {
                            expected.setNull(0, r);
                        }
                    }
                    long[] bits = ColumnDecoding.nullBits(flags, n);
                    if (expected.nulls[0] == null) {
                        assertNull(bits, n + " rows, share " + share);
                    } else {
                        assertArrayEquals(expected.nulls[0], bits, n + " rows, share " + share);
                    }
                }
            }
        }
    }

    @Test
    void aSingleNullIsFoundAtEveryPosition() {
        try (Arena arena = Arena.ofConfined()) {
            int n = 200;
            MemorySegment flags = arena.allocate(n);
            for (int at = 0; at < n; at++) {
                flags.fill((byte) 0);
                flags.set(ValueLayout.JAVA_BYTE, at, (byte) (at % 2 == 0 ? 1 : 0x80));
                long[] bits = ColumnDecoding.nullBits(flags, n);
                long[] expected = new long[(n + 63) / 64];
                expected[at / 64] = 1L << at;
                assertArrayEquals(expected, bits, "NULL at row " + at);
            }
        }
    }

    @Test
    void valuesOfEveryDeviceTypeAreTakenWhole() {
        SplittableRandom random = new SplittableRandom(11);
        CType[] types = CType.values();
        ValueKind[] kinds = {ValueKind.INT, ValueKind.LONG, ValueKind.DOUBLE, ValueKind.BOOL};
        try (Arena arena = Arena.ofConfined()) {
            for (int n : SIZES) {
                RowBuffer decoded = RowBuffer.allocate(kinds, n);
                RowBuffer rowWise = RowBuffer.allocate(kinds, n);
                for (int c = 0; c < types.length; c++) {
                    CType t = types[c];
                    int bytes = t == CType.BOOL ? 1 : t.bytes;
                    MemorySegment raw = arena.allocate(Math.max(8, (long) n * bytes), 8);
                    for (int r = 0; r < n; r++) {
                        switch (t) {
                            case INT -> raw.setAtIndex(ValueLayout.JAVA_INT, r, random.nextInt());
                            case LONG -> raw.setAtIndex(ValueLayout.JAVA_LONG, r, random.nextLong());
                            case DOUBLE -> raw.setAtIndex(ValueLayout.JAVA_DOUBLE, r, random.nextDouble() * 1e9 - 5e8);
                            case BOOL -> raw.set(ValueLayout.JAVA_BYTE, r, (byte) random.nextInt(2));
                        }
                    }
                    ColumnDecoding.values(raw, t, n, decoded, c);
                    for (int r = 0; r < n; r++) {
                        switch (t) {
                            case INT -> rowWise.ints[c][r] = raw.getAtIndex(ValueLayout.JAVA_INT, r);
                            case LONG -> rowWise.longs[c][r] = raw.getAtIndex(ValueLayout.JAVA_LONG, r);
                            case DOUBLE -> rowWise.doubles[c][r] = raw.getAtIndex(ValueLayout.JAVA_DOUBLE, r);
                            case BOOL -> rowWise.bytes[c][r] = raw.get(ValueLayout.JAVA_BYTE, r);
                        }
                    }
                }
                assertArrayEquals(rowWise.ints[0], decoded.ints[0], n + " rows");
                assertArrayEquals(rowWise.longs[1], decoded.longs[1], n + " rows");
                assertArrayEquals(rowWise.doubles[2], decoded.doubles[2], n + " rows");
                assertArrayEquals(rowWise.bytes[3], decoded.bytes[3], n + " rows");
                assertEquals(n, decoded.size);
            }
        }
    }
}

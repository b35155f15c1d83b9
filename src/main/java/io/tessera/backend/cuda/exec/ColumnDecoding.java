package io.tessera.backend.cuda.exec;

import io.tessera.backend.host.RowBuffer;
import io.tessera.backend.cuda.gen.CType;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;

/**
 * The host's half of reading a device relation back ({@link DeviceRows}): a column's bytes, as one copy brought them
 * from the device, into the array {@link RowBuffer} holds for it, one bulk copy per column; and a column's NULL
 * flags (one byte per row, not 0 for NULL) into NULL bits, eight rows per 64-bit read, so that no work is done row
 * by row.
 */
final class ColumnDecoding {

    /** Bits 0, 8, ..., 56 of a word: the lowest bit of each of its eight bytes. */
    private static final long LOW_BITS = 0x0101010101010101L;
    /** Gathers the lowest bits of a word's eight bytes into its top byte, byte b's into bit 56 + b. */
    private static final long GATHER = 0x0102040810204080L;
    /** Eight flags at once, the first row's in the lowest byte. */
    private static final ValueLayout.OfLong EIGHT_FLAGS = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    private ColumnDecoding() {
    }

    /** The first {@code n} values of {@code raw}, in device type {@code t}, into column {@code c} of {@code out}. */
    static void values(MemorySegment raw, CType t, int n, RowBuffer out, int c) {
        switch (t) {
            case INT -> MemorySegment.copy(raw, ValueLayout.JAVA_INT, 0, out.ints[c], 0, n);
            case LONG -> MemorySegment.copy(raw, ValueLayout.JAVA_LONG, 0, out.longs[c], 0, n);
            case DOUBLE -> MemorySegment.copy(raw, ValueLayout.JAVA_DOUBLE, 0, out.doubles[c], 0, n);
            case BOOL -> MemorySegment.copy(raw, ValueLayout.JAVA_BYTE, 0, out.bytes[c], 0, n);
        }
    }

    /**
     * The NULL bits of the first {@code n} flags of {@code flags} (bit r of word r / 64 set where flag r is not 0),
     * as {@link RowBuffer#nulls} holds them; null when no flag is set.
     */
    static long[] nullBits(MemorySegment flags, int n) {
        long[] bits = new long[(n + 63) >>> 6];
        boolean any = false;
        int whole = n & ~7;
        for (int r = 0; r < whole; r += 8) {
            long eight = flags.get(EIGHT_FLAGS, r);
            if (eight == 0) {
                continue;
            }
            // each byte's lowest bit set where any of its bits is, the others cleared (no carry leaves a byte)
            long x = eight | (eight >>> 4);
            x |= x >>> 2;
            x |= x >>> 1;
            x &= LOW_BITS;
            long byteOfFlags = (x * GATHER) >>> 56; // bit b: the flag of row r + b
            bits[r >>> 6] |= byteOfFlags << (r & 63);
            any = true;
        }
        for (int r = whole; r < n; r++) {
            if (flags.get(ValueLayout.JAVA_BYTE, r) != 0) {
                bits[r >>> 6] |= 1L << r;
                any = true;
            }
        }
        return any ? bits : null;
    }
}

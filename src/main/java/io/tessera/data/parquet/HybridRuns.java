package io.tessera.data.parquet;

import org.apache.parquet.column.values.bitpacking.BytePacker;
import org.apache.parquet.column.values.bitpacking.Packer;

import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * Parquet's RLE / bit-packed hybrid encoding (definition levels and dictionary ids) decoded a run at a time into an
 * int array: a repeated run is one fill, a bit-packed run is unpacked 8 values at a time by parquet-java's unpacker
 * for its bit width (a short last group from 64-bit little-endian words).
 */
final class HybridRuns {

    private static final VarHandle LONG_LE = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    /** parquet-java's generated little-endian unpackers, one per bit width. */
    private static final BytePacker[] PACKERS = new BytePacker[33];

    static {
        for (int w = 0; w <= 32; w++) {
            PACKERS[w] = Packer.LITTLE_ENDIAN.newBytePacker(w);
        }
    }

    private HybridRuns() {
    }

    /**
     * Decodes {@code count} values of {@code bitWidth} bits from {@code b[pos, end)} into {@code out[0, count)};
     * returns the position after the last run read.
     */
    static int decode(byte[] b, int pos, int end, int bitWidth, int[] out, int count) throws IOException {
        if (bitWidth < 0 || bitWidth > 32) {
            throw new IOException("a run of " + bitWidth + "-bit values");
        }
        long mask = (1L << bitWidth) - 1;
        int valueBytes = (bitWidth + 7) >>> 3;
        int n = 0;
        ByteBuffer in = null; // the unpacker's view of b, made at the first bit-packed run
        while (n < count) {
            long header = 0;
            int shift = 0;
            while (true) {
                if (pos >= end || shift > 35) {
                    throw new IOException("a run header runs past its page");
                }
                byte x = b[pos++];
                header |= (long) (x & 0x7f) << shift;
                if (x >= 0) {
                    break;
                }
                shift += 7;
            }
            if ((header & 1) == 0) {
                long run = header >>> 1;
                if (pos + valueBytes > end) {
                    throw new IOException("a repeated run runs past its page");
                }
                int v = 0;
                for (int k = 0; k < valueBytes; k++) {
                    v |= (b[pos + k] & 0xff) << (k << 3);
                }
                pos += valueBytes;
                int m = (int) Math.min(run, count - n);
                Arrays.fill(out, n, n + m, v);
                n += m;
            } else {
                long values = (header >>> 1) << 3;
                long bytes = (header >>> 1) * bitWidth;
                int m = (int) Math.min(values, count - n);
                // the last run may stop short of its padding; never read past the values kept
                long needed = ((long) m * bitWidth + 7) >>> 3;
                if (pos + needed > end) {
                    throw new IOException("a bit-packed run runs past its page");
                }
                int runEnd = (int) Math.min(end, pos + bytes);
                // whole groups of 8 values by parquet-java's unpacker for this width, the rest one by one
                int j = 0;
                if (bitWidth > 0 && m >= 8) {
                    BytePacker packer = PACKERS[bitWidth];
                    if (in == null) {
                        in = ByteBuffer.wrap(b);
                    }
                    for (; j + 8 <= m && pos + (long) (j + 8) / 8 * bitWidth <= runEnd; j += 8) {
                        packer.unpack8Values(in, pos + j / 8 * bitWidth, out, n + j);
                    }
                }
                for (; j < m; j++) {
                    long bit = (long) j * bitWidth;
                    int at = pos + (int) (bit >>> 3);
                    long word = at + 8 <= runEnd ? (long) LONG_LE.get(b, at) : tail(b, at, runEnd);
                    out[n + j] = (int) ((word >>> (bit & 7)) & mask);
                }
                n += m;
                pos = runEnd;
            }
        }
        return pos;
    }

    /** The little-endian bytes {@code b[at, end)} (fewer than 8) as a word. */
    private static long tail(byte[] b, int at, int end) {
        long w = 0;
        for (int k = 0; at + k < end && k < 8; k++) {
            w |= (long) (b[at + k] & 0xff) << (k << 3);
        }
        return w;
    }
}

package io.tessera.data.io;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * Strict UTF-8 on bytes, as the Unicode standard defines it (table 3-7): no overlong forms, no surrogates, nothing
 * above U+10FFFF, no stray continuation bytes, no sequence cut short.
 */
public final class Utf8 {

    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    private Utf8() {
    }

    /** Index of the first byte of {@code b[s, e)} where no well-formed sequence starts, or -1 when all is UTF-8. */
    public static int firstInvalid(byte[] b, int s, int e) {
        int i = s;
        while (i < e) {
            // ASCII, the common case, eight bytes at a time
            while (i + 8 <= e && ((long) LONGS.get(b, i) & 0x8080_8080_8080_8080L) == 0) {
                i += 8;
            }
            if (i >= e) {
                break;
            }
            if (b[i] >= 0) {
                i++;
                continue;
            }
            int n = sequenceLength(b, i, e);
            if (n < 0) {
                return i;
            }
            i += n;
        }
        return -1;
    }

    /** Length of the well-formed sequence that starts at {@code b[i]} and ends by {@code e}, or -1. */
    static int sequenceLength(byte[] b, int i, int e) {
        int c = b[i] & 0xff;
        if (c < 0x80) {
            return 1;
        }
        if (c < 0xc2) {
            return -1; // a continuation byte, or the lead of an overlong two-byte form
        }
        if (c < 0xe0) {
            return i + 1 < e && continuation(b[i + 1]) ? 2 : -1;
        }
        if (c < 0xf0) {
            if (i + 2 >= e) {
                return -1;
            }
            int c1 = b[i + 1] & 0xff;
            int lo = c == 0xe0 ? 0xa0 : 0x80; // E0 80..9F would be overlong
            int hi = c == 0xed ? 0x9f : 0xbf; // ED A0..BF would be a surrogate
            return c1 >= lo && c1 <= hi && continuation(b[i + 2]) ? 3 : -1;
        }
        if (c < 0xf5) {
            if (i + 3 >= e) {
                return -1;
            }
            int c1 = b[i + 1] & 0xff;
            int lo = c == 0xf0 ? 0x90 : 0x80; // F0 80..8F would be overlong
            int hi = c == 0xf4 ? 0x8f : 0xbf; // F4 90.. would be above U+10FFFF
            return c1 >= lo && c1 <= hi && continuation(b[i + 2]) && continuation(b[i + 3]) ? 4 : -1;
        }
        return -1;
    }

    /**
     * {@code b[s, e)} decoded, with U+FFFD for each maximal subpart of an ill-formed sequence, the practice the
     * Unicode standard recommends (section 3.9): a character cut short is one U+FFFD, any other invalid byte one.
     */
    public static String decodeReplacing(byte[] b, int s, int e) {
        StringBuilder out = new StringBuilder(e - s);
        int i = s;
        while (i < e) {
            int n = sequenceLength(b, i, e);
            if (n > 0) {
                out.appendCodePoint(codePoint(b, i, n));
                i += n;
            } else {
                out.append('\uFFFD');
                i += maximalSubpart(b, i, e);
            }
        }
        return out.toString();
    }

    /** Length of the longest start of a well-formed sequence at {@code b[i]}, where none is whole (at least 1). */
    private static int maximalSubpart(byte[] b, int i, int e) {
        int c = b[i] & 0xff;
        int need;
        int lo = 0x80;
        int hi = 0xbf;
        if (c >= 0xc2 && c < 0xe0) {
            need = 1;
        } else if (c >= 0xe0 && c < 0xf0) {
            need = 2;
            lo = c == 0xe0 ? 0xa0 : lo;
            hi = c == 0xed ? 0x9f : hi;
        } else if (c >= 0xf0 && c < 0xf5) {
            need = 3;
            lo = c == 0xf0 ? 0x90 : lo;
            hi = c == 0xf4 ? 0x8f : hi;
        } else {
            return 1;
        }
        int k = 1;
        while (k <= need && i + k < e) {
            int x = b[i + k] & 0xff;
            if (x < lo || x > hi) {
                break;
            }
            lo = 0x80;
            hi = 0xbf;
            k++;
        }
        return k;
    }

    /** The code point of the well-formed sequence of length n at {@code b[i]}. */
    static int codePoint(byte[] b, int i, int n) {
        return switch (n) {
            case 1 -> b[i];
            case 2 -> (b[i] & 0x1f) << 6 | (b[i + 1] & 0x3f);
            case 3 -> (b[i] & 0x0f) << 12 | (b[i + 1] & 0x3f) << 6 | (b[i + 2] & 0x3f);
            default -> (b[i] & 0x07) << 18 | (b[i + 1] & 0x3f) << 12 | (b[i + 2] & 0x3f) << 6 | (b[i + 3] & 0x3f);
        };
    }

    private static boolean continuation(byte v) {
        return (v & 0xc0) == 0x80;
    }
}

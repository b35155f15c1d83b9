package io.tessera.storage;

/**
 * UUID values as Tessera holds them: the lower-case 8-4-4-4-12 text DuckDB prints, as a VARCHAR. Its order as text
 * is DuckDB's order of UUIDs (the 128 bits unsigned, first byte first), so that comparisons, ORDER BY, GROUP BY and
 * joins of UUIDs are those of strings. Text is read as DuckDB reads it: 32 hexadecimal digits, either case, hyphens
 * anywhere, optionally in braces.
 */
public final class Uuids {

    /** {@link DataType#precision()} of a UUID (a VARCHAR kind). */
    public static final int UUID_FORM = 2;

    private static final char[] HEX = "0123456789abcdef".toCharArray();

    private Uuids() {
    }

    /** The canonical text of a UUID in DuckDB's forms; IllegalArgumentException naming the text otherwise. */
    public static String parse(CharSequence text) {
        long[] bits = bits(text);
        return format(bits[0], bits[1]);
    }

    /** The two 64-bit halves (most significant first) of a UUID's text in DuckDB's forms. */
    public static long[] bits(CharSequence text) {
        int n = text.length();
        int braces = n > 0 && text.charAt(0) == '{' ? 1 : 0;
        if (n == 0 || braces == 1 && text.charAt(n - 1) != '}') {
            throw invalid(text);
        }
        long hi = 0;
        long lo = 0;
        int digits = 0;
        for (int i = braces; i < n - braces; i++) {
            char c = text.charAt(i);
            if (c == '-') {
                continue;
            }
            int d = Character.digit(c, 16);
            if (d < 0 || c > 'f' || digits == 32) {
                throw invalid(text);
            }
            if (digits < 16) {
                hi = hi << 4 | d;
            } else {
                lo = lo << 4 | d;
            }
            digits++;
        }
        if (digits != 32) {
            throw invalid(text);
        }
        return new long[] {hi, lo};
    }

    private static IllegalArgumentException invalid(CharSequence text) {
        return new IllegalArgumentException("invalid UUID '" + text + "'");
    }

    /** The canonical text of the UUID of these halves. */
    public static String format(long hi, long lo) {
        char[] c = new char[36];
        int at = 0;
        for (int i = 0; i < 32; i++) {
            if (i == 8 || i == 12 || i == 16 || i == 20) {
                c[at++] = '-';
            }
            long word = i < 16 ? hi : lo;
            c[at++] = HEX[(int) (word >>> (60 - 4 * (i & 15))) & 15];
        }
        return new String(c);
    }

    /** The 16 bytes of a UUID's canonical text, most significant first (Parquet's and a BLOB's order). */
    public static byte[] bytes(String canonical) {
        long[] bits = bits(canonical);
        byte[] b = new byte[16];
        for (int i = 0; i < 8; i++) {
            b[i] = (byte) (bits[0] >>> (56 - 8 * i));
            b[8 + i] = (byte) (bits[1] >>> (56 - 8 * i));
        }
        return b;
    }

    /** The canonical text of the UUID of 16 bytes from {@code offset}, most significant first. */
    public static String of(byte[] b, int offset) {
        long hi = 0;
        long lo = 0;
        for (int i = 0; i < 8; i++) {
            hi = hi << 8 | (b[offset + i] & 0xFF);
            lo = lo << 8 | (b[offset + 8 + i] & 0xFF);
        }
        return format(hi, lo);
    }

    /** The canonical text of a Java UUID. */
    public static String of(java.util.UUID u) {
        return format(u.getMostSignificantBits(), u.getLeastSignificantBits());
    }

    /** A random (version 4) UUID's canonical text. */
    public static String random() {
        return of(java.util.UUID.randomUUID());
    }
}

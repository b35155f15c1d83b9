package io.tessera.backend.jvm.lib;

import io.tessera.storage.ByteStrings;
import io.tessera.storage.Uuids;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * What generated code calls for BLOB and UUID values, which it holds as strings ({@link ByteStrings}: a character
 * per byte; {@link Uuids}: the canonical text): casts from and to text, ENCODE and DECODE, random UUIDs.
 */
public final class ByteStringRuntime {

    private ByteStringRuntime() {
    }

    /** CAST(text AS BLOB): DuckDB's \xAB escapes read. */
    public static String parse(String text) {
        return ByteStrings.parse(text);
    }

    /** CAST(blob AS VARCHAR): DuckDB's escaped text. */
    public static String format(String bytes) {
        return ByteStrings.format(bytes);
    }

    /** CAST(text AS UUID): the canonical text of DuckDB's forms. */
    public static String parseUuid(String text) {
        return Uuids.parse(text);
    }

    /** TO_BASE64(blob): its bytes in base64, padded. */
    public static String toBase64(String bytes) {
        return java.util.Base64.getEncoder().encodeToString(ByteStrings.bytes(bytes));
    }

    /** FROM_BASE64(text): the bytes padded base64 text holds; an error naming the text where it holds none. */
    public static String fromBase64(String text) {
        if (text.length() % 4 != 0) {
            throw new IllegalArgumentException("Could not decode string \"" + text
                    + "\" as base64: length must be a multiple of 4");
        }
        try {
            return ByteStrings.of(java.util.Base64.getDecoder().decode(text));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("Could not decode string \"" + text + "\" as base64", e);
        }
    }

    /** HEX of a BIGINT: its two's complement's hexadecimal digits, upper case, no leading zeros. */
    public static String hex(long v) {
        return Long.toHexString(v).toUpperCase(java.util.Locale.ROOT);
    }

    /** BIN of a BIGINT: its two's complement's binary digits, no leading zeros. */
    public static String bin(long v) {
        return Long.toBinaryString(v);
    }

    /** HEX of a BLOB's bytes ({@code blob}) or of text's UTF-8 bytes: two upper-case digits a byte. */
    public static String hex(String value, boolean blob) {
        StringBuilder sb = new StringBuilder();
        for (byte b : blob ? ByteStrings.bytes(value) : value.getBytes(StandardCharsets.UTF_8)) {
            sb.append(Character.toUpperCase(Character.forDigit((b >> 4) & 15, 16)))
                    .append(Character.toUpperCase(Character.forDigit(b & 15, 16)));
        }
        return sb.toString();
    }

    /** BIN of a BLOB's bytes or of text's UTF-8 bytes: eight digits a byte. */
    public static String bin(String value, boolean blob) {
        StringBuilder sb = new StringBuilder();
        for (byte b : blob ? ByteStrings.bytes(value) : value.getBytes(StandardCharsets.UTF_8)) {
            String bits = Integer.toBinaryString(b & 0xff);
            sb.append("0".repeat(8 - bits.length())).append(bits);
        }
        return sb.toString();
    }

    /** UNHEX: the bytes of hexadecimal digits, two a byte, a first byte of one digit where their number is odd. */
    public static String unhex(String digits) {
        return unpack(digits, 4, 16, "hex");
    }

    /** UNBIN: the bytes of binary digits, eight a byte, the first byte's missing leading digits zeros. */
    public static String unbin(String digits) {
        return unpack(digits, 1, 2, "binary");
    }

    private static String unpack(String digits, int bitsPerDigit, int radix, String what) {
        int perByte = 8 / bitsPerDigit;
        int first = digits.length() % perByte == 0 ? perByte : digits.length() % perByte;
        byte[] out = new byte[(digits.length() + perByte - 1) / perByte];
        int i = 0;
        for (int k = 0; k < out.length; k++) {
            int value = 0;
            for (int end = i + (k == 0 ? first : perByte); i < end; i++) {
                int d = Character.digit(digits.charAt(i), radix);
                if (d < 0) {
                    throw new IllegalArgumentException("Invalid input for " + what + " digit: " + digits.charAt(i));
                }
                value = value << bitsPerDigit | d;
            }
            out[k] = (byte) value;
        }
        return ByteStrings.of(out);
    }

    /** ENCODE(text): its UTF-8 bytes. */
    public static String encode(String text) {
        return ByteStrings.of(text.getBytes(StandardCharsets.UTF_8));
    }

    /** DECODE(blob): the text its bytes encode in UTF-8; an error, as in DuckDB, where they are not UTF-8. */
    public static String decode(String bytes) {
        try {
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(ByteStrings.bytes(bytes))).toString();
        } catch (CharacterCodingException e) {
            throw new IllegalArgumentException("DECODE: '" + ByteStrings.format(bytes) + "' is not valid UTF-8");
        }
    }

    /** UUID_EXTRACT_VERSION: the version, the 13th hexadecimal digit of the canonical text. */
    public static int uuidVersion(String uuid) {
        return Character.digit(uuid.charAt(14), 16);
    }

    /** UUID_EXTRACT_TIMESTAMP: a version 7 UUID's first 48 bits, milliseconds since 1970, as microseconds. */
    public static long uuidTimestamp(String uuid) {
        int version = uuidVersion(uuid);
        if (version != 7) {
            throw new IllegalArgumentException("Given UUID is with version " + version + ", not version 7.");
        }
        return (Uuids.bits(uuid)[0] >>> 16) * 1000;
    }

    /** UUIDV7(): the time in milliseconds, version 7, random bits, the variant of RFC 9562. */
    public static String randomUuidV7() {
        java.util.concurrent.ThreadLocalRandom r = java.util.concurrent.ThreadLocalRandom.current();
        long hi = System.currentTimeMillis() << 16 | 0x7000L | (r.nextLong() & 0x0FFFL);
        long lo = (r.nextLong() & 0x3FFFFFFFFFFFFFFFL) | 0x8000000000000000L;
        return Uuids.format(hi, lo);
    }

    /** GEN_RANDOM_UUID() / UUID(): a new random (version 4) UUID on every call. */
    public static String randomUuid() {
        return Uuids.random();
    }
}

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

    /** GEN_RANDOM_UUID() / UUID(): a new random (version 4) UUID on every call. */
    public static String randomUuid() {
        return Uuids.random();
    }
}

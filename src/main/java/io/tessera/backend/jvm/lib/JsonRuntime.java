package io.tessera.backend.jvm.lib;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeType;
import io.tessera.storage.ListCodec;

import java.io.IOException;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;

/**
 * DuckDB's JSON functions over JSON held as VARCHAR text (json_extract, json_extract_string, json_type, ...): each
 * call parses its document with Jackson and walks a path of DuckDB's JSONPath subset ({@link JsonPath}). A parsed
 * document per call is the cost of this form: a column of JSON is parsed once per function that reads it. A path
 * that leads nowhere gives null (SQL NULL); text that is no JSON document is an error, as in DuckDB.
 */
public final class JsonRuntime {

    private static final ObjectMapper MAPPER = new ObjectMapper(JsonFactory.builder().build())
            .enable(DeserializationFeature.USE_BIG_INTEGER_FOR_INTS)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

    private JsonRuntime() {
    }

    /** The document of a text, or an error naming it, as DuckDB's. */
    private static JsonNode parse(String json) {
        if (json.isEmpty()) {
            throw new IllegalArgumentException("Malformed JSON: input length is 0. Input: \"\"");
        }
        try {
            JsonNode node = MAPPER.readTree(json);
            if (node == null || node.isMissingNode()) {
                throw new IllegalArgumentException("Malformed JSON: no value. Input: \"" + json + "\"");
            }
            return node;
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("Malformed JSON at character " + e.getLocation().getCharOffset()
                    + " of input: " + e.getOriginalMessage() + ". Input: \"" + json + "\"");
        }
    }

    /** The value a path leads to in a text's document, or null. */
    private static JsonNode at(String json, String path) {
        return JsonPath.of(path).find(parse(json));
    }

    private static JsonNode at(String json, long index) {
        return JsonPath.index(index).find(parse(json));
    }

    /** JSON_VALID: whether the text is one JSON document. */
    public static boolean valid(String json) {
        if (json.isEmpty()) {
            return false;
        }
        try (JsonParser p = MAPPER.getFactory().createParser(json)) {
            if (p.nextToken() == null) {
                return false;
            }
            p.skipChildren();
            return p.nextToken() == null;
        } catch (IOException e) {
            return false;
        }
    }

    /** JSON_EXTRACT: the value's JSON text. */
    public static String extract(String json, String path) {
        return text(at(json, path));
    }

    public static String extract(String json, long index) {
        return text(at(json, index));
    }

    /** JSON_EXTRACT_STRING: a string's characters, another value's JSON text; null for JSON's null. */
    public static String extractString(String json, String path) {
        return plain(at(json, path));
    }

    public static String extractString(String json, long index) {
        return plain(at(json, index));
    }

    /** JSON_TYPE: DuckDB's name of the value's type. */
    public static String type(String json, String path) {
        JsonNode n = at(json, path);
        return n == null ? null : typeName(n);
    }

    public static String type(String json, long index) {
        JsonNode n = at(json, index);
        return n == null ? null : typeName(n);
    }

    /** JSON_ARRAY_LENGTH: an array's elements, 0 for any other value. */
    public static Long arrayLength(String json, String path) {
        JsonNode n = at(json, path);
        return n == null ? null : Long.valueOf(n.isArray() ? n.size() : 0);
    }

    public static Long arrayLength(String json, long index) {
        JsonNode n = at(json, index);
        return n == null ? null : Long.valueOf(n.isArray() ? n.size() : 0);
    }

    /** JSON_KEYS: an object's keys in their order (a VARCHAR[]), empty for any other value. */
    public static String keys(String json, String path) {
        return keyList(at(json, path));
    }

    public static String keys(String json, long index) {
        return keyList(at(json, index));
    }

    private static String keyList(JsonNode n) {
        if (n == null) {
            return null;
        }
        List<String> keys = new ArrayList<>();
        if (n.isObject()) {
            n.fieldNames().forEachRemaining(keys::add);
        }
        return ListCodec.join(keys.toArray(new String[0]));
    }

    private static String typeName(JsonNode n) {
        JsonNodeType t = n.getNodeType();
        return switch (t) {
            case OBJECT -> "OBJECT";
            case ARRAY -> "ARRAY";
            case STRING -> "VARCHAR";
            case BOOLEAN -> "BOOLEAN";
            case NULL -> "NULL";
            // DuckDB reads a non-negative integer as UBIGINT, a negative one as BIGINT, a larger one as a DOUBLE
            case NUMBER -> !n.isIntegralNumber() ? "DOUBLE"
                    : n.bigIntegerValue().signum() >= 0 ? fits(n.bigIntegerValue(), 64) ? "UBIGINT" : "DOUBLE"
                    : fits(n.bigIntegerValue(), 63) ? "BIGINT" : "DOUBLE";
            default -> "VARCHAR";
        };
    }

    private static boolean fits(BigInteger v, int bits) {
        return v.abs().bitLength() <= bits;
    }

    /** The value's compact JSON text, as DuckDB writes it. */
    private static String text(JsonNode n) {
        if (n == null) {
            return null;
        }
        try {
            return MAPPER.writeValueAsString(n);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String plain(JsonNode n) {
        if (n == null || n.isNull()) {
            return null;
        }
        return n.isTextual() ? n.textValue() : text(n);
    }
}

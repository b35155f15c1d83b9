package io.tessera.storage;

/**
 * A LIST, STRUCT or MAP value read from DuckDB's text of it (what its CSV writer and its casts to VARCHAR give, and what
 * {@link ListValue} and {@link StructValue} print): {@code [1, 2, NULL]}, {@code {'a': 1, 'b': [x, 'y, z']}}, into
 * its encoding ({@link ListCodec}, {@link StructCodec}). An element or field is {@code NULL} (unquoted, any case),
 * a quoted string ({@code '...'} or {@code "..."}, a backslash escaping the next character), or unquoted text up to
 * the next {@code ,}, {@code ]} or {@code }} outside brackets and quotes, trimmed; a field is named quoted or not,
 * as the type names it (or else in another case), and a field not named is NULL; a map is {@code {key=value, ...}}. Malformed text throws
 * IllegalArgumentException naming the 1-based character position.
 */
public final class NestedText {
    private final String text;
    /** The zone a TIMESTAMP WITH TIME ZONE without an offset is read on. */
    private final java.time.ZoneId zone;
    /** Whether a scalar that is no value of its type reads as NULL (TRY_CAST's reading) rather than failing. */
    private final boolean lenient;
    private int at;

    private NestedText(String text, java.time.ZoneId zone, boolean lenient) {
        this.text = text;
        this.zone = zone;
        this.lenient = lenient;
    }

    /**
     * The encoding of {@code text} as a value of the LIST or STRUCT type {@code type}, a TIMESTAMP WITH TIME ZONE
     * inside without an offset read in UTC.
     */
    public static String parse(String text, DataType type) {
        return parse(text, type, java.time.ZoneOffset.UTC);
    }

    /**
     * The same, a TIMESTAMP WITH TIME ZONE inside without an offset read on the clock of {@code zone} (a CAST's, the
     * session's), as the scalar CAST reads it.
     */
    public static String parse(String text, DataType type, java.time.ZoneId zone) {
        return parse(text, type, zone, false);
    }

    /**
     * As {@link #parse(String, DataType, java.time.ZoneId)}, an element, field or map value whose text is no value of
     * its scalar type NULL, as DuckDB's TRY_CAST reads it ({@code '[1, x]'} as INTEGER[] is {@code [1, NULL]}), and a
     * map whose key is none, or whose keys repeat, NULL; text that is no such nested value still fails.
     */
    public static String parseLenient(String text, DataType type, java.time.ZoneId zone) {
        return parse(text, type, zone, true);
    }

    private static String parse(String text, DataType type, java.time.ZoneId zone, boolean lenient) {
        NestedText p = new NestedText(text, zone, lenient);
        p.spaces();
        String encoded = p.nested(type);
        p.spaces();
        if (p.at < text.length()) {
            throw p.error("text after the end of the " + kind(type));
        }
        return encoded;
    }

    private static String kind(DataType t) {
        return t.isMap() ? "MAP" : t.isList() ? "LIST" : "STRUCT";
    }

    /** A list, struct or map starting at the cursor. */
    private String nested(DataType type) {
        return type.isMap() ? map(type) : type.isList() ? list(type.element()) : struct(type);
    }

    /**
     * DuckDB's text of a map, {@code {a=1, 'b c'=NULL}}: each key (never NULL) and its value read as a list's elements
     * are; the keys checked as every map's are ({@link MapEntries#check}).
     */
    private String map(DataType type) {
        expect('{', "a MAP");
        java.util.List<String> keys = new java.util.ArrayList<>();
        java.util.List<String> values = new java.util.ArrayList<>();
        spaces();
        if (peek() == '}') {
            at++;
            return "";
        }
        boolean nullKey = false;
        while (true) {
            spaces();
            int start = at;
            String key = element(type.mapKey(), "=");
            if (key == null && !lenient) {
                at = start;
                throw error(MapEntries.NULL_KEY);
            }
            nullKey |= key == null;
            spaces();
            expect('=', "'=' after the key");
            keys.add(key);
            values.add(element(type.mapValue(), "}"));
            if (separator('}')) {
                break;
            }
        }
        if (!lenient) {
            return MapEntries.of(keys, values, type);
        }
        // TRY_CAST's reading: a map whose key is no value of its type, or whose keys repeat, is NULL
        try {
            return nullKey ? null : MapEntries.of(keys, values, type);
        } catch (IllegalArgumentException repeated) {
            return null;
        }
    }

    private String list(DataType element) {
        expect('[', "a LIST");
        StringBuilder out = new StringBuilder();
        spaces();
        if (peek() == ']') {
            at++;
            return "";
        }
        while (true) {
            ListCodec.append(out, element(element, "]"));
            if (separator(']')) {
                return out.toString();
            }
        }
    }

    private String struct(DataType type) {
        expect('{', "a STRUCT");
        java.util.List<StructField> fields = type.fields();
        String[] values = new String[fields.size()];
        boolean[] named = new boolean[fields.size()];
        spaces();
        if (peek() == '}') {
            at++;
        } else {
            while (true) {
                spaces();
                int start = at;
                String name = peek() == '\'' || peek() == '"' ? quoted() : plain(":");
                int k = StructCodec.position(type, name) - 1;
                if (k < 0) {
                    at = start;
                    throw error(type + " has no field '" + name + "'");
                }
                if (named[k]) {
                    at = start;
                    throw error("the field '" + name + "' is named twice");
                }
                named[k] = true;
                spaces();
                expect(':', "':' after the field name");
                values[k] = element(fields.get(k).type(), "}");
                if (separator('}')) {
                    break;
                }
            }
        }
        StringBuilder out = new StringBuilder();
        for (String v : values) {
            ListCodec.append(out, v);
        }
        return out.toString();
    }

    /** After an element: true at the closing character (consumed), false at a comma (consumed). */
    private boolean separator(char close) {
        spaces();
        char c = peek();
        if (c == close || c == ',') {
            at++;
            return c == close;
        }
        throw error(at >= text.length() ? "the text ends before the closing '" + close + "'"
                : "expected ',' or '" + close + "'");
    }

    /** One element's (or field's) canonical text, null for NULL; {@code close} ends an unquoted one. */
    private String element(DataType t, String close) {
        spaces();
        int start = at;
        if (t.isNested()) {
            if (peek() == '[' || peek() == '{') {
                return nested(t);
            }
            String word = plain(close);
            if (word.equalsIgnoreCase("NULL")) {
                return null;
            }
            at = start;
            throw error("expected a " + kind(t) + " (" + (t.isList() && !t.isMap() ? '[' : '{') + ") or NULL");
        }
        String value;
        if (peek() == '\'' || peek() == '"') {
            value = quoted();
        } else {
            value = plain(close);
            if (value.equalsIgnoreCase("NULL")) {
                return null;
            }
        }
        try {
            return scalar(value, t);
        } catch (RuntimeException e) {
            if (lenient) {
                return null;
            }
            if (!(e instanceof IllegalArgumentException)) {
                throw e;
            }
            at = start;
            throw error(e.getMessage());
        }
    }

    /** The canonical element text of a scalar's text, as a list holds it ({@link ListCodec}). */
    private String scalar(String s, DataType t) {
        return switch (t.kind()) {
            case INTEGER, BIGINT -> Long.toString(Values.parseLong(s.strip(), t.minValue(), t.maxValue(),
                    t.toString()));
            case DOUBLE -> {
                Double special = Values.specialDouble(s.strip());
                try {
                    yield ListCodec.text(special != null ? special : Double.parseDouble(s.strip()));
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException("invalid DOUBLE '" + s + "'");
                }
            }
            case DECIMAL -> Long.toString(Values.parseDecimal(s.strip(), t.precision(), t.scale()));
            case DATE -> Long.toString(Values.parseDate(s));
            case TIMESTAMP -> Long.toString(Timestamps.parse(s));
            case TIMESTAMP_TZ -> Long.toString(ZonedTimestamps.parse(s, zone));
            case TIME -> Long.toString(Timestamps.parseTime(s));
            case BOOLEAN -> Boolean.toString(Values.parseBoolean(s.strip()));
            case VARCHAR -> t.isInterval() ? IntervalText.parse(s).encode() : t.isBlob() ? ByteStrings.parse(s)
                    : t.isUuid() ? Uuids.parse(s) : s;
        };
    }

    /** A quoted string at the cursor, its quotes and escapes removed. */
    private String quoted() {
        char quote = text.charAt(at++);
        StringBuilder out = new StringBuilder();
        while (at < text.length()) {
            char c = text.charAt(at++);
            if (c == quote) {
                return out.toString();
            }
            if (c == '\\' && at < text.length()) {
                c = text.charAt(at++);
            }
            out.append(c);
        }
        throw error("the text ends inside a quoted string");
    }

    /**
     * Unquoted text from the cursor up to a comma or one of {@code close} outside brackets and quotes, a backslash
     * escaping the next character, without the spaces around it.
     */
    private String plain(String close) {
        StringBuilder out = new StringBuilder();
        int depth = 0;
        int kept = 0; // the length without trailing spaces
        while (at < text.length()) {
            char c = text.charAt(at);
            if (depth == 0 && (c == ',' || close.indexOf(c) >= 0)) {
                break;
            }
            at++;
            if (c == '\\' && at < text.length()) {
                out.append(text.charAt(at++));
                kept = out.length();
                continue;
            }
            depth += c == '[' || c == '{' ? 1 : c == ']' || c == '}' ? -1 : 0;
            out.append(c);
            if (!Character.isWhitespace(c)) {
                kept = out.length();
            }
        }
        return out.substring(0, kept);
    }

    private void spaces() {
        while (at < text.length() && Character.isWhitespace(text.charAt(at))) {
            at++;
        }
    }

    private char peek() {
        return at < text.length() ? text.charAt(at) : '\0';
    }

    private void expect(char c, String what) {
        if (peek() != c) {
            throw error("expected " + what + " ('" + c + "')");
        }
        at++;
    }

    private IllegalArgumentException error(String message) {
        return new IllegalArgumentException("malformed nested value at character " + (Math.min(at, text.length())
                + 1) + ": " + message);
    }
}

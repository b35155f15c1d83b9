package io.tessera.storage;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A STRUCT type's text as DuckDB writes it, {@code STRUCT(a INTEGER, "my b" VARCHAR)}: each field's name, in double
 * quotes where it is not a plain lower-case word (a quote doubled inside), and its type. The manifest keeps types as
 * this text, so it reads back to the same type.
 */
final class StructTypeText {
    private StructTypeText() {
    }

    static boolean isStruct(String text) {
        String t = text.trim().toUpperCase(Locale.ROOT);
        return (t.startsWith("STRUCT") && t.substring(6).trim().startsWith("(")
                || t.startsWith("TUPLE") && t.substring(5).trim().startsWith("(")) && t.endsWith(")");
    }

    static boolean isMap(String text) {
        String t = text.trim().toUpperCase(Locale.ROOT);
        return t.startsWith("MAP") && t.substring(3).trim().startsWith("(") && t.endsWith(")");
    }

    /** Reads DuckDB's {@code MAP(KEY, VALUE)}; an IllegalArgumentException names what is wrong. */
    static DataType parseMap(String text) {
        String t = text.trim();
        String body = t.substring(t.indexOf('(') + 1, t.length() - 1);
        int depth = 0;
        for (int i = 0; i < body.length(); i++) {
            char c = body.charAt(i);
            depth += c == '(' ? 1 : c == ')' ? -1 : 0;
            if (c == ',' && depth == 0) {
                String key = body.substring(0, i).trim();
                String value = body.substring(i + 1).trim();
                if (key.isEmpty() || value.isEmpty()) {
                    break;
                }
                return DataType.map(DataType.parse(key), DataType.parse(value));
            }
        }
        throw new IllegalArgumentException("unknown column type '" + t + "' (a MAP needs a key and a value type)");
    }

    /** {@code STRUCT(a INTEGER, ...)}, or for an unnamed struct DuckDB's {@code TUPLE(INTEGER, ...)}. */
    static String format(List<StructField> fields) {
        return format(fields.stream().map(StructField::name).toList(),
                fields.stream().map(f -> f.type().toString()).toList());
    }

    /** {@code STRUCT(name TYPE, ...)} of the fields' names and their types' texts; TUPLE where no field has a name. */
    static String format(List<String> names, List<String> types) {
        boolean unnamed = names.stream().allMatch(String::isEmpty);
        StringBuilder sb = new StringBuilder(unnamed ? "TUPLE(" : "STRUCT(");
        for (int i = 0; i < names.size(); i++) {
            sb.append(i > 0 ? ", " : "").append(unnamed ? "" : name(names.get(i)) + ' ').append(types.get(i));
        }
        return sb.append(')').toString();
    }

    /** Reads {@code TUPLE(TYPE, ...)}: the fields' types, without names. */
    private static DataType parseUnnamed(String t, String body) {
        List<StructField> fields = new ArrayList<>();
        int depth = 0;
        int start = 0;
        for (int i = 0; i <= body.length(); i++) {
            char c = i < body.length() ? body.charAt(i) : ',';
            depth += c == '(' ? 1 : c == ')' ? -1 : 0;
            if (c == ',' && depth == 0) {
                String type = body.substring(start, i).trim();
                if (type.isEmpty()) {
                    throw new IllegalArgumentException("unknown column type '" + t + "' (an empty field)");
                }
                fields.add(new StructField("", DataType.parse(type)));
                start = i + 1;
            }
        }
        return DataType.struct(fields);
    }

    /**
     * Words DuckDB quotes as field names because they are keywords. It quotes every keyword of its grammar; only those
     * a MAP's entries are named by ({@code STRUCT("key" K, "value" V)}, map_entries) are here so far.
     */
    private static final java.util.Set<String> KEYWORDS = java.util.Set.of("key", "value");

    /**
     * A field name as DuckDB writes it in a type: plain when a word (in any case: {@code aB}) that is none of
     * {@link #KEYWORDS}, else quoted.
     */
    static String name(String name) {
        return name.matches("[A-Za-z_][A-Za-z0-9_]*") && !KEYWORDS.contains(name.toLowerCase(Locale.ROOT)) ? name
                : '"' + name.replace("\"", "\"\"") + '"';
    }

    /** Reads {@code STRUCT(name TYPE, ...)}; an IllegalArgumentException names what is wrong. */
    static DataType parse(String text) {
        String t = text.trim();
        int open = t.indexOf('(');
        String body = t.substring(open + 1, t.length() - 1);
        if (t.toUpperCase(Locale.ROOT).startsWith("TUPLE")) {
            return parseUnnamed(t, body);
        }
        List<StructField> fields = new ArrayList<>();
        int i = 0;
        while (i < body.length()) {
            while (i < body.length() && Character.isWhitespace(body.charAt(i))) {
                i++;
            }
            StringBuilder name = new StringBuilder();
            if (i < body.length() && body.charAt(i) == '"') {
                i++;
                while (true) {
                    if (i >= body.length()) {
                        throw new IllegalArgumentException("unknown column type '" + t + "' (an unended quote)");
                    }
                    char c = body.charAt(i++);
                    if (c == '"') {
                        if (i < body.length() && body.charAt(i) == '"') {
                            name.append('"');
                            i++;
                            continue;
                        }
                        break;
                    }
                    name.append(c);
                }
            } else {
                while (i < body.length() && !Character.isWhitespace(body.charAt(i))) {
                    name.append(body.charAt(i++));
                }
            }
            int depth = 0;
            int start = i;
            while (i < body.length() && (depth > 0 || body.charAt(i) != ',')) {
                char c = body.charAt(i++);
                depth += c == '(' ? 1 : c == ')' ? -1 : 0;
            }
            String type = body.substring(start, i).trim();
            if (name.isEmpty() || type.isEmpty()) {
                throw new IllegalArgumentException("unknown column type '" + t + "' (a field needs a name and a type)");
            }
            fields.add(new StructField(name.toString(), DataType.parse(type)));
            i++; // the comma
        }
        return DataType.struct(fields);
    }
}

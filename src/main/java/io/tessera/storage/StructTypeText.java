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
        return t.startsWith("STRUCT") && t.substring(6).trim().startsWith("(") && t.endsWith(")");
    }

    static String format(List<StructField> fields) {
        StringBuilder sb = new StringBuilder("STRUCT(");
        for (int i = 0; i < fields.size(); i++) {
            StructField f = fields.get(i);
            sb.append(i > 0 ? ", " : "").append(name(f.name())).append(' ').append(f.type());
        }
        return sb.append(')').toString();
    }

    /** A field name as DuckDB writes it in a type: plain when a lower-case word, else quoted. */
    static String name(String name) {
        return name.matches("[a-z_][a-z0-9_]*") ? name : '"' + name.replace("\"", "\"\"") + '"';
    }

    /** Reads {@code STRUCT(name TYPE, ...)}; an IllegalArgumentException names what is wrong. */
    static DataType parse(String text) {
        String t = text.trim();
        int open = t.indexOf('(');
        String body = t.substring(open + 1, t.length() - 1);
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

package io.tessera.backend.jvm.lib;

import com.fasterxml.jackson.core.JsonPointer;
import com.fasterxml.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A path into a JSON document as DuckDB's JSON functions take it: JSONPath's subset {@code $}, {@code .key},
 * {@code ."quoted key"}, {@code [n]} (from the end: {@code [-n]}, {@code [#-n]}); a JSON pointer ({@code /a/0}); or
 * any other text a key of the top object ('' the document itself). Parsed paths are kept, few as a query's are.
 */
final class JsonPath {

    /** One step: a key of an object, or an index of an array (negative: from the end). */
    private record Step(String key, long index) {
    }

    private static final int KEPT = 1024;
    private static final Map<String, JsonPath> PARSED = new ConcurrentHashMap<>();
    private static final JsonPath ROOT = new JsonPath(List.of(), null);

    private final List<Step> steps;
    private final JsonPointer pointer;

    private JsonPath(List<Step> steps, JsonPointer pointer) {
        this.steps = steps;
        this.pointer = pointer;
    }

    static JsonPath of(String path) {
        JsonPath p = PARSED.get(path);
        if (p == null) {
            p = parse(path);
            if (PARSED.size() < KEPT) {
                PARSED.put(path, p);
            }
        }
        return p;
    }

    /** An integer as the path: that element of the top array. */
    static JsonPath index(long index) {
        return new JsonPath(List.of(new Step(null, index)), null);
    }

    private static JsonPath parse(String path) {
        if (path.isEmpty()) {
            return ROOT;
        }
        if (path.charAt(0) == '/') {
            try {
                return new JsonPath(null, JsonPointer.compile(path));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("JSON path error: " + e.getMessage());
            }
        }
        if (path.charAt(0) != '$') {
            return new JsonPath(List.of(new Step(path, 0)), null);
        }
        List<Step> steps = new ArrayList<>();
        int i = 1;
        while (i < path.length()) {
            char c = path.charAt(i);
            if (c == '.' && i + 1 < path.length() && path.charAt(i + 1) == '"') {
                int end = path.indexOf('"', i + 2);
                if (end < 0) {
                    throw near(path, i);
                }
                steps.add(new Step(path.substring(i + 2, end), 0));
                i = end + 1;
            } else if (c == '.') {
                int end = i + 1;
                while (end < path.length() && path.charAt(end) != '.' && path.charAt(end) != '[') {
                    end++;
                }
                if (end == i + 1 || path.substring(i + 1, end).equals("*")) {
                    throw near(path, i);
                }
                steps.add(new Step(path.substring(i + 1, end), 0));
                i = end;
            } else if (c == '[') {
                int end = path.indexOf(']', i);
                if (end < 0) {
                    throw near(path, i);
                }
                String n = path.substring(i + 1, end).trim();
                boolean fromEnd = n.startsWith("#");
                if (fromEnd) {
                    n = n.substring(1);
                }
                long index;
                try {
                    index = Long.parseLong(n);
                } catch (NumberFormatException e) {
                    throw near(path, i);
                }
                if (fromEnd && index >= 0) {
                    throw near(path, i); // [#] and [#+n] point past the end
                }
                steps.add(new Step(null, index));
                i = end + 1;
            } else {
                throw near(path, i);
            }
        }
        return new JsonPath(List.copyOf(steps), null);
    }

    private static IllegalArgumentException near(String path, int i) {
        return new IllegalArgumentException("JSON path error near '" + path.substring(i) + "'");
    }

    /** The value the path leads to, or null where it leads nowhere. */
    JsonNode find(JsonNode root) {
        if (pointer != null) {
            JsonNode n = root.at(pointer);
            return n.isMissingNode() ? null : n;
        }
        JsonNode n = root;
        for (Step s : steps) {
            if (s.key() != null) {
                n = n.isObject() ? n.get(s.key()) : null;
            } else if (n.isArray()) {
                long i = s.index() < 0 ? n.size() + s.index() : s.index();
                n = i >= 0 && i < n.size() ? n.get((int) i) : null;
            } else {
                n = null;
            }
            if (n == null) {
                return null;
            }
        }
        return n;
    }
}

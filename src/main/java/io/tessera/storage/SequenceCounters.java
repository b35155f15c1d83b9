package io.tessera.storage;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The counters of the sequences one statement uses, made before it runs from the state its database committed
 * (the statement holding the writer lock), looked up by the name a call gives: as an identifier is, its case
 * ignored, or its exact text in double quotes ({@code nextval('"S"')}), as DuckDB reads it.
 */
public final class SequenceCounters {

    private final Map<String, SequenceCounter> byName = new LinkedHashMap<>();

    public SequenceCounters(List<Sequence> sequences) {
        for (Sequence s : sequences) {
            byName.put(s.name().toLowerCase(Locale.ROOT), new SequenceCounter(s));
        }
    }

    /** The key of the sequence a call names. */
    public static String key(String name) {
        String n = name.strip();
        if (n.length() >= 2 && n.startsWith("\"") && n.endsWith("\"")) {
            n = n.substring(1, n.length() - 1).replace("\"\"", "\"");
        }
        return n.toLowerCase(Locale.ROOT);
    }

    /** Whether a sequence of this name exists. */
    public boolean has(String name) {
        return byName.containsKey(key(name));
    }

    /** The counter of the sequence a call names; an error in DuckDB's words where there is none. */
    public SequenceCounter counter(String name) {
        SequenceCounter c = byName.get(key(name));
        if (c == null) {
            throw new SequenceException(missing(name));
        }
        return c;
    }

    /** DuckDB's error for a sequence that does not exist. */
    public static String missing(String name) {
        return "Catalog Error: Sequence with name " + name + " does not exist!";
    }

    /** The sequences whose state the statement changed, as it leaves them. */
    public List<Sequence> changed() {
        List<Sequence> out = new ArrayList<>();
        for (SequenceCounter c : byName.values()) {
            if (c.changed()) {
                out.add(c.state());
            }
        }
        return out;
    }
}

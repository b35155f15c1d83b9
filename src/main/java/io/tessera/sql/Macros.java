package io.tessera.sql;

import io.tessera.storage.Macro;

import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The macros a statement may call, by name ignoring case: the database's and the session's temporary ones, a
 * temporary macro before a stored one of the same name (as DuckDB searches its temp schema first). A macro's name
 * comes before a built-in function's of that name, as in DuckDB.
 */
public final class Macros {

    /** No macros. */
    public static final Macros NONE = new Macros(Map.of());

    private final Map<String, Macro> byName;

    private Macros(Map<String, Macro> byName) {
        this.byName = byName;
    }

    /** The macros of {@code stored} (the database's) and {@code temporary} (the session's), the latter first. */
    public static Macros of(List<Macro> stored, List<Macro> temporary) {
        if (stored.isEmpty() && temporary.isEmpty()) {
            return NONE;
        }
        Map<String, Macro> byName = new HashMap<>();
        for (Macro m : stored) {
            byName.put(key(m.name()), m);
        }
        for (Macro m : temporary) {
            byName.put(key(m.name()), m);
        }
        return new Macros(byName);
    }

    /** This set with {@code macro} in place of the macro of its name, or added. */
    Macros with(Macro macro) {
        Map<String, Macro> byName = new HashMap<>(this.byName);
        byName.put(key(macro.name()), macro);
        return new Macros(byName);
    }

    boolean isEmpty() {
        return byName.isEmpty();
    }

    /** The macro of {@code name}, or null. */
    Macro get(String name) {
        return byName.get(key(name));
    }

    private static String key(String name) {
        return name.toLowerCase(Locale.ROOT);
    }
}

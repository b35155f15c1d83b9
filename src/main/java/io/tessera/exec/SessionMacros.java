package io.tessera.exec;

import io.tessera.api.QueryResult;
import io.tessera.sql.DidYouMean;
import io.tessera.sql.Parameters;
import io.tessera.sql.SqlError;
import io.tessera.sql.SqlFrontEnd;
import io.tessera.sql.Statement;
import io.tessera.storage.Database;
import io.tessera.storage.Macro;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * CREATE MACRO and DROP MACRO of one session: a macro is stored in the database (its manifest keeps it, as a view),
 * or, TEMP, kept by the session alone until it ends. A name is one macro's, scalar or table, among the database's
 * and among the session's; a temporary macro is called before a stored one of its name.
 */
public final class SessionMacros {

    /** The session's temporary macros, by name in lower case. */
    private final Map<String, Macro> temporary = new ConcurrentHashMap<>();

    /** The session's temporary macros now. */
    public List<Macro> now() {
        return List.copyOf(temporary.values());
    }

    /** Makes {@code others} (another session's) this session's temporary macros, in place of those it had. */
    public void useAll(List<Macro> others) {
        temporary.clear();
        for (Macro m : others) {
            temporary.put(key(m.name()), m);
        }
    }

    /** Runs CREATE MACRO or DROP MACRO, a macro's body checked with {@code frontEnd}. */
    QueryResult run(Statement st, Database db, SqlFrontEnd frontEnd) {
        return switch (st) {
            case Statement.CreateMacro c -> create(c, db, frontEnd);
            case Statement.DropMacro d -> drop(d, db);
            default -> throw new IllegalArgumentException("not a macro statement: " + st);
        };
    }

    /** Creates the macro of {@code c}, after checking its body's macro calls with {@code frontEnd}. */
    private QueryResult create(Statement.CreateMacro c, Database db, SqlFrontEnd frontEnd) {
        Macro m = c.macro();
        if (Parameters.count(m.body()) > 0 || m.parameters().stream()
                .anyMatch(p -> p.defaultValue() != null && Parameters.count(p.defaultValue()) > 0)) {
            // the macro keeps its body's text, which a value bound now would not be part of
            throw new SqlError("CREATE MACRO " + m.name() + ": a macro cannot hold parameters (?)" + at(c.at()));
        }
        String key = key(m.name());
        if (c.temporary()) {
            if (!c.replace() && temporary.containsKey(key)) {
                throw exists(m.name(), c);
            }
            frontEnd.checkMacro(m, c.at());
            temporary.put(key, m);
            return ResultRows.empty();
        }
        try (Database.WriteLock lock = db.lockForWriting()) {
            if (!c.replace() && stored(db, m.name()) != null) {
                throw exists(m.name(), c);
            }
            frontEnd.checkMacro(m, c.at());
            db.createMacro(m, c.replace());
        }
        return ResultRows.empty();
    }

    /** Drops the macro of {@code d}: the session's temporary one of its name, else the database's. */
    private QueryResult drop(Statement.DropMacro d, Database db) {
        String key = key(d.name());
        Macro temp = temporary.get(key);
        if (temp != null && (!d.table() || temp.table())) {
            temporary.remove(key);
            return ResultRows.empty();
        }
        try (Database.WriteLock lock = db.lockForWriting()) {
            Macro m = stored(db, d.name());
            if (m == null || d.table() && !m.table()) {
                if (d.ifExists()) {
                    return ResultRows.empty();
                }
                List<String> names = new ArrayList<>();
                for (Macro other : db.macros()) {
                    if (!d.table() || other.table()) {
                        names.add(other.name());
                    }
                }
                for (Macro other : temporary.values()) {
                    if (!d.table() || other.table()) {
                        names.add(other.name());
                    }
                }
                throw new SqlError((d.table() ? "table macro " : "macro ") + d.name() + " does not exist"
                        + at(d.at()) + DidYouMean.hint(d.name(), names));
            }
            db.dropMacro(m.name());
        }
        return ResultRows.empty();
    }

    private static Macro stored(Database db, String name) {
        for (Macro m : db.macros()) {
            if (m.name().equalsIgnoreCase(name)) {
                return m;
            }
        }
        return null;
    }

    private static SqlError exists(String name, Statement.CreateMacro c) {
        return new SqlError("macro " + name + " already exists" + at(c.at())
                + " (CREATE OR REPLACE MACRO replaces it)");
    }

    private static String at(org.apache.calcite.sql.parser.SqlParserPos pos) {
        return " at line " + pos.getLineNum() + ", column " + pos.getColumnNum();
    }

    private static String key(String name) {
        return name.toLowerCase(Locale.ROOT);
    }
}

package io.tessera.exec;

import io.tessera.api.QueryResult;
import io.tessera.sql.PlanCalls;
import io.tessera.sql.SqlError;
import io.tessera.sql.Statement;
import io.tessera.storage.Database;
import io.tessera.storage.Sequence;
import io.tessera.storage.SequenceCounters;
import io.tessera.storage.SequenceException;
import org.apache.calcite.rel.RelNode;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * A session's sequences: CREATE and DROP SEQUENCE, and the runs of statements that call nextval, currval or setval.
 * A sequence is kept in the database's manifest, with its state; a TEMP one by this session only (DuckDB's temporary
 * schema, searched first).
 *
 * <p>How a sequence's values stay unique across statements, connections and processes: a statement that calls a
 * sequence function runs holding the database's writer lock (one writer at a time, in any process, as every other
 * write), its counters made from the state committed when it took the lock; its workers draw from those counters,
 * each call under the counter's lock; when the statement's query has run, the state it leaves is written into the
 * manifest (only where it changed) before the lock is let go. So a read-only SELECT that calls nextval keeps what it
 * handed out, as DuckDB keeps it. As in DuckDB and PostgreSQL a sequence is not rolled back: the values a statement
 * took before it failed are gone (a sequence may have gaps), which the state kept in a {@code finally} says.
 */
final class StatementSequences {

    /** The functions that read or move a sequence, as the validator names them (upper case). */
    private static final Set<String> FUNCTIONS = Set.of("NEXTVAL", "CURRVAL", "SETVAL");

    private final Database db;
    /** The session's TEMP sequences by lower-case name, with their state. */
    private final Map<String, Sequence> temporary = new LinkedHashMap<>();

    StatementSequences(Database db) {
        this.db = db;
    }

    /** Whether a planned query calls a sequence function. */
    static boolean calledIn(RelNode rel) {
        return PlanCalls.any(rel, op -> FUNCTIONS.contains(op.getName().toUpperCase(Locale.ROOT)));
    }

    QueryResult create(Statement.CreateSequence c) {
        Sequence s = c.sequence();
        String key = s.name().toLowerCase(Locale.ROOT);
        if (c.temporary()) {
            synchronized (this) {
                if (temporary.containsKey(key) && !c.replace()) {
                    if (c.ifNotExists()) {
                        return ResultRows.empty();
                    }
                    throw exists(s.name());
                }
                temporary.put(key, s);
            }
            return ResultRows.empty();
        }
        try (Database.WriteLock lock = db.lockForWriting()) {
            if (db.sequence(s.name()) != null && !c.replace()) {
                if (c.ifNotExists()) {
                    return ResultRows.empty();
                }
                throw exists(s.name());
            }
            db.createSequence(s, c.replace());
        }
        return ResultRows.empty();
    }

    QueryResult drop(Statement.DropSequence d) {
        String key = d.name().toLowerCase(Locale.ROOT);
        synchronized (this) {
            if (temporary.remove(key) != null) {
                return ResultRows.empty();
            }
        }
        try (Database.WriteLock lock = db.lockForWriting()) {
            if (db.sequence(d.name()) == null) {
                if (d.ifExists()) {
                    return ResultRows.empty();
                }
                throw new SqlError(SequenceCounters.missing(d.name()));
            }
            checkNoDefaultUses(d.name());
            db.dropSequence(d.name());
        }
        return ResultRows.empty();
    }

    /**
     * DuckDB's refusal to drop a sequence a column's DEFAULT calls (found in the default's text: a call of a
     * sequence function whose first argument is the name as a string).
     */
    private void checkNoDefaultUses(String name) {
        java.util.regex.Pattern call = java.util.regex.Pattern.compile("(?i)\\b(nextval|currval|setval)\\s*\\(\\s*'\"?"
                + java.util.regex.Pattern.quote(name) + "\"?'");
        for (io.tessera.storage.Table t : db.tables()) {
            for (io.tessera.storage.ColumnSchema c : t.schema().columns()) {
                if (c.defaultValue() != null && call.matcher(c.defaultValue()).find()) {
                    throw new SqlError("Dependency Error: Cannot drop entry \"" + name + "\" because there are"
                            + " entries that depend on it: table \"" + t.name() + "\" depends on sequence \"" + name
                            + "\" (its column " + c.name() + "'s DEFAULT)");
                }
            }
        }
    }

    /** DuckDB's error for a sequence created where one of its name exists. */
    private static SqlError exists(String name) {
        return new SqlError("Catalog Error: Sequence with name \"" + name + "\" already exists!");
    }

    /**
     * Runs a statement's query ({@code calls}: one that calls a sequence function, with the counters of every
     * sequence it may name, keeping the state it leaves them in as the class comment says; else without counters).
     * A sequence function's failure is the statement's error as it words it.
     */
    <T> T run(boolean calls, Function<SequenceCounters, T> query) {
        try {
            return calls ? withCounters(query) : query.apply(null);
        } catch (SequenceException e) {
            throw new SqlError(e.getMessage(), e);
        }
    }

    private <T> T withCounters(Function<SequenceCounters, T> query) {
        try (Database.WriteLock lock = db.lockForWriting()) {
            List<Sequence> all = new ArrayList<>();
            Map<String, Sequence> temp;
            synchronized (this) {
                temp = new LinkedHashMap<>(temporary);
            }
            for (Sequence s : db.sequences()) {
                if (!temp.containsKey(s.name().toLowerCase(Locale.ROOT))) {
                    all.add(s);
                }
            }
            all.addAll(temp.values());
            SequenceCounters counters = new SequenceCounters(all);
            try {
                return query.apply(counters);
            } finally {
                keep(counters, temp);
            }
        }
    }

    /** Keeps the state a statement left its sequences in: a TEMP one here, the others in the manifest. */
    private void keep(SequenceCounters counters, Map<String, Sequence> temp) {
        List<Sequence> kept = new ArrayList<>();
        synchronized (this) {
            for (Sequence s : counters.changed()) {
                String key = s.name().toLowerCase(Locale.ROOT);
                if (temp.containsKey(key)) {
                    temporary.replace(key, s); // unless the statement dropped it meanwhile
                } else {
                    kept.add(s);
                }
            }
        }
        db.keepSequences(kept);
    }
}

package io.tessera.exec;

import io.tessera.sql.PlanCalls;
import io.tessera.sql.SessionVariables;
import io.tessera.sql.VolatileCalls;
import io.tessera.storage.Macro;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.TableFunctionScan;
import org.apache.calcite.sql.SqlOperator;

import java.time.ZoneId;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Queries prepared already, kept by their text for the state they were planned in, so that a query run again (a
 * dashboard's, a tool's, a benchmark's) skips parsing, planning and code generation: a compiled engine's plan cache,
 * as PostgreSQL's prepared statements and HyPer's compiled queries keep theirs.
 *
 * <p>A plan is reused only where nothing but its {@link Key} decides it: the text, the database's committed state
 * (every write makes a new one, so a changed table, view, macro or statistic is never read through an old plan), the
 * session's variables, temporary macros and time zone. Plans that read anything else are never kept
 * ({@link #reusable}): the clock (CURRENT_DATE is fixed when planned), non-deterministic functions, files or series
 * in FROM and recursive queries (their rows are computed into the statement's temporary tables), PIVOT's values
 * and an unnest's longest computed list (run while planning, {@link PlanTimeQueries}), sequences (a write), and
 * queries on the GPU (which hold device buffers).
 *
 * <p>A plan in use is taken out of the cache and put back when its run ends, so no two runs share one prepared
 * query; the cache keeps {@link #CAPACITY} plans of the latest state, the least recently used going first.
 */
final class PlanCache {

    /** Plans kept at most. */
    static final int CAPACITY = 64;

    /** Everything a kept plan was decided by. */
    record Key(String sql, Object state, Map<String, SessionVariables.Value> variables, List<Macro> macros,
               ZoneId zone) {
    }

    /** The database state whose plans the cache holds (null: none yet). */
    private Object state;
    private final LinkedHashMap<Key, QueryEngine.Prepared> plans = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Key, QueryEngine.Prepared> eldest) {
            return size() > CAPACITY;
        }
    };
    private long reused;

    /** A query prepared now, and whether its plan may be kept ({@link #reusable} and the rest above). */
    record Planned(QueryEngine.Prepared prepared, boolean reusable) {
    }

    /**
     * Runs {@code use} over the plan kept under {@code key}, or over {@code prepare}'s, which is kept after a run
     * that ended well where it may be and the database is still in the key's state ({@code stateNow}).
     */
    <T> T run(Key key, Supplier<Planned> prepare, Supplier<Object> stateNow, Function<QueryEngine.Prepared, T> use) {
        long t0 = System.nanoTime();
        QueryEngine.Prepared kept = take(key);
        QueryEngine.Prepared p = kept;
        boolean keep = true;
        if (kept == null) {
            Planned planned = prepare.get();
            p = planned.prepared();
            keep = planned.reusable() && stateNow.get() == key.state();
        }
        T out = use.apply(kept == null ? p : kept.again(System.nanoTime() - t0));
        if (keep) {
            keep(key, p);
        }
        return out;
    }

    /** The plan kept under {@code key}, taken out while it runs; null where none is (plans of older states go). */
    private synchronized QueryEngine.Prepared take(Key key) {
        if (key.state() != state) {
            plans.clear();
            state = key.state();
            return null;
        }
        QueryEngine.Prepared p = plans.remove(key);
        if (p != null) {
            reused++;
        }
        return p;
    }

    /** Keeps {@code p} under {@code key}, unless the database has moved to another state meanwhile. */
    private synchronized void keep(Key key, QueryEngine.Prepared p) {
        if (key.state() == state) {
            plans.put(key, p);
        }
    }

    /** Drops every plan (a tuner or estimate skew now decides plans). */
    synchronized void clear() {
        plans.clear();
    }

    /** How many runs reused a kept plan: what the cache saved, for tests and the shell's timing. */
    synchronized long reused() {
        return reused;
    }

    /**
     * Tessera's clock, whose value is fixed when a query is planned, by name: its operator says neither that it is
     * dynamic (as Calcite's CURRENT_DATE, LOCALTIMESTAMP, ... do) nor that it is not deterministic (as random(),
     * uuid() and the sequence functions do, {@link VolatileCalls#isVolatile}). DuckDB's other names of the clock
     * (today(), get_current_timestamp(), ...) are rewritten to NOW, LOCALTIMESTAMP or CURRENT_DATE before
     * validation, and getvariable is bound as a constant, so no plan holds them.
     */
    private static final Set<String> CLOCK = Set.of("NOW");

    /** Whether a plan of {@code rel} may be kept: no clock, no call that differs per call, no table function. */
    static boolean reusable(RelNode rel) {
        boolean[] fixed = {true};
        PlanCalls.visit(rel, node -> fixed[0] &= !(node instanceof TableFunctionScan),
                call -> fixed[0] &= timeless(call.getOperator()));
        return fixed[0];
    }

    private static boolean timeless(SqlOperator op) {
        return !VolatileCalls.isVolatile(op) && !op.isDynamicFunction()
                && !CLOCK.contains(op.getName().toUpperCase(Locale.ROOT));
    }
}

package io.tessera.backend;

import io.tessera.api.QueryCancel;
import io.tessera.plan.ColumnInfo;
import io.tessera.plan.DictionaryKeys;
import io.tessera.plan.Pipeline;
import io.tessera.plan.QueryPlan;
import io.tessera.plan.Sink;
import io.tessera.plan.Source;
import io.tessera.storage.Database;
import io.tessera.storage.Dictionary;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * One run of one query: the intermediates its pipelines made so far (handles, each on the device that made
 * it), the dictionaries of its string columns by key, what each backend keeps for the run (device buffers), the
 * run's options and its account of moves and pipeline times. Closing it gives back what the devices hold.
 */
public final class QueryState implements AutoCloseable {

    private final Database db;
    private final QueryPlan plan;
    private final QueryCancel cancel;
    private final Map<String, Dictionary> dictionaries = new HashMap<>();
    private final Map<Integer, Intermediate> relations = new HashMap<>();
    private final Map<Integer, Intermediate> joins = new HashMap<>();
    private final Map<Integer, List<Intermediate>> parts = new HashMap<>();
    private final Map<Integer, Integer> remainingWriters = new HashMap<>();
    private final Map<Integer, List<ColumnInfo>> relationColumns = new HashMap<>();
    private final Map<Class<?>, Object> options = new HashMap<>();
    private final Map<String, AutoCloseable> deviceStates = new LinkedHashMap<>();
    private final List<Step> steps = new ArrayList<>();
    private final PipelineActuals actuals = new PipelineActuals();
    private int moves;
    private long moveNanos;

    /** {@code cancel} (null: none) stops the run at the next check once cancelled. */
    public QueryState(Database db, QueryPlan plan, QueryCancel cancel) {
        this.db = db;
        this.plan = plan;
        this.cancel = cancel;
        if (cancel != null) {
            cancel.progress().begin(plan.pipelines().size());
        }
        for (Pipeline p : plan.pipelines()) {
            if (p.source() instanceof Source.RelationScan rs) {
                relationColumns.put(rs.relationId(), rs.columns());
            }
            if (p.sink() instanceof Sink.Materialize m) {
                remainingWriters.merge(m.relationId(), 1, Integer::sum);
            }
            if (p.sink() instanceof Sink.Sort s) {
                remainingWriters.merge(s.relationId(), 1, Integer::sum);
            }
            if (p.sink() instanceof Sink.Window w) {
                remainingWriters.merge(w.relationId(), 1, Integer::sum);
            }
        }
        relationColumns.put(plan.resultRelation(), plan.resultColumns());
    }

    public Database db() {
        return db;
    }

    public QueryPlan plan() {
        return plan;
    }

    public QueryCancel cancel() {
        return cancel;
    }

    /** A pipeline starts over {@code inputRows} rows: reported to the query's progress (when it has a handle). */
    public void pipelineStarted(long inputRows) {
        if (cancel != null) {
            cancel.progress().pipelineStarted(inputRows);
        }
    }

    /** Throws {@link io.tessera.api.QueryCancelledException} once the run is cancelled. */
    public void checkCancel() {
        QueryCancel.check(cancel);
    }

    /** The columns of relation {@code rel} as its readers (or the query's result) see them. */
    public List<ColumnInfo> relationColumns(int rel) {
        return relationColumns.get(rel);
    }

    // ---- dictionaries ----

    /** The dictionary with key {@code key}: registered by the run, else a stored column's ({@code table.column}). */
    public synchronized Dictionary dictionary(String key) {
        Dictionary d = dictionaries.get(key);
        if (d == null) {
            int dot = key.indexOf('.');
            io.tessera.storage.Table scanned = dot < 0 || DictionaryKeys.isComputed(key) ? null
                    : plan.scannedTable(key.substring(0, dot));
            if (scanned != null) {
                d = scanned.column(key.substring(dot + 1)).dictionary();
            } else if (DictionaryKeys.isComputed(key) || dot < 0 || !db.hasTable(key.substring(0, dot))) {
                throw new IllegalStateException("no dictionary " + key);
            } else {
                d = db.table(key.substring(0, dot)).column(key.substring(dot + 1)).dictionary();
            }
            dictionaries.put(key, d);
        }
        return d;
    }

    public synchronized void register(String key, Dictionary d) {
        dictionaries.put(key, d);
    }

    // ---- intermediates ----

    /** Relation {@code rel}'s handle, or null when no pipeline made it yet. */
    public synchronized Intermediate relation(int rel) {
        return relations.get(rel);
    }

    public synchronized void putRelation(int rel, Intermediate h) {
        relations.put(rel, h);
    }

    /** Join {@code joinId}'s table, or null when it was not built yet. */
    public synchronized Intermediate join(int joinId) {
        return joins.get(joinId);
    }

    public synchronized void putJoin(int joinId, Intermediate h) {
        joins.put(joinId, h);
    }

    /**
     * Adds one writer's rows to relation {@code rel}; true when that was its last writer (the relation can be
     * completed from {@link #takeParts}).
     */
    public synchronized boolean addPart(int rel, Intermediate part) {
        parts.computeIfAbsent(rel, k -> new ArrayList<>()).add(part);
        return remainingWriters.merge(rel, -1, Integer::sum) == 0;
    }

    /** The parts relation {@code rel} holds now. */
    public synchronized int partCount(int rel) {
        List<Intermediate> p = parts.get(rel);
        return p == null ? 0 : p.size();
    }

    /** Whether every writer of relation {@code rel} added its part and the relation is not made yet. */
    public synchronized boolean pendingRelation(int rel) {
        return !relations.containsKey(rel) && parts.containsKey(rel) && remainingWriters.getOrDefault(rel, 0) == 0;
    }

    /** The parts of relation {@code rel}, in the order their writers ran, no longer held here. */
    public synchronized List<Intermediate> takeParts(int rel) {
        List<Intermediate> p = parts.remove(rel);
        return p == null ? List.of() : p;
    }

    /**
     * A device's intermediate moved to the host ({@link Intermediate#HOST}), its rows read back: counted and
     * timed. A handle already on the host is returned as it is.
     */
    public Intermediate moveToHost(Intermediate h) {
        if (h.onHost()) {
            return h;
        }
        if (!(h.value() instanceof Intermediate.OnDevice d)) {
            throw new IllegalStateException("a " + h.kind() + " on " + h.device() + " cannot move to the host");
        }
        long t0 = System.nanoTime();
        io.tessera.backend.host.RelationPart rows = d.toHost();
        long nanos = System.nanoTime() - t0;
        synchronized (this) {
            moves++;
            moveNanos += nanos;
            steps.add(new Step("move " + h.kind().name().toLowerCase(java.util.Locale.ROOT) + " " + h.device()
                    + "->host: " + rows.size() + (rows.size() == 1 ? " row" : " rows"), nanos));
        }
        return new Intermediate(h.kind(), Intermediate.HOST, rows);
    }

    public synchronized int moves() {
        return moves;
    }

    public synchronized long moveNanos() {
        return moveNanos;
    }

    // ---- what the run asks of each backend, what each backend keeps ----

    /** Sets an option of one backend's run (the JVM's pool and block control, the GPU's block kernels). */
    public synchronized <T> void setOption(Class<T> type, T value) {
        if (value == null) {
            options.remove(type);
        } else {
            options.put(type, value);
        }
    }

    /** The option of this type, or null. */
    public synchronized <T> T option(Class<T> type) {
        return type.cast(options.get(type));
    }

    /** What device {@code device}'s backend keeps for this run (made on first use, closed with the run). */
    public synchronized <T extends AutoCloseable> T deviceState(String device, Class<T> type, Supplier<T> make) {
        AutoCloseable s = deviceStates.get(device);
        if (s == null) {
            s = make.get();
            deviceStates.put(device, s);
        }
        return type.cast(s);
    }

    /** The state device {@code device} keeps for this run, or null. */
    public synchronized <T extends AutoCloseable> T deviceStateIfAny(String device, Class<T> type) {
        return type.cast(deviceStates.get(device));
    }

    // ---- account ----

    /** One step of the run and its time, put in words only when asked for. */
    private record Step(String what, long nanos) {
        String text() {
            return what + String.format(java.util.Locale.ROOT, ", %.3f ms", nanos / 1e6);
        }
    }

    /** Notes a step of the run (a pipeline on its device, a move) and its time, for its description. */
    public synchronized void step(String what, long nanos) {
        steps.add(new Step(what, nanos));
    }

    /** Each pipeline's counted rows and time (EXPLAIN ANALYZE). */
    public PipelineActuals actuals() {
        return actuals;
    }

    /** The steps so far, one line each, in the order they happened. */
    public synchronized List<String> steps() {
        List<String> out = new ArrayList<>(steps.size());
        for (Step s : steps) {
            out.add(s.text());
        }
        return out;
    }

    @Override
    public void close() {
        RuntimeException first = null;
        List<AutoCloseable> states;
        synchronized (this) {
            states = new ArrayList<>(deviceStates.values());
            deviceStates.clear();
        }
        for (int i = states.size() - 1; i >= 0; i--) {
            try {
                states.get(i).close();
            } catch (RuntimeException e) {
                first = first == null ? e : first;
            } catch (Exception e) {
                first = first == null ? new IllegalStateException(e) : first;
            }
        }
        if (first != null) {
            throw first;
        }
    }
}

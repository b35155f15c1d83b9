package io.tessera.backend.host;

import io.tessera.backend.Backend;
import io.tessera.backend.QueryState;
import io.tessera.plan.QueryPlan;
import io.tessera.plan.Sink;
import io.tessera.variant.Genome;

import java.util.Map;
import java.util.function.BiFunction;

/**
 * The device that runs every pipeline and where every result ends: besides its pipelines it publishes a query's
 * VALUES before the first one runs, completes a relation whose writers left parts (on several devices, or before
 * a sort or LIMIT the host does), and gives the result relation, moved to it first where another device made it.
 */
public interface Host extends Backend {

    /**
     * A query's pipelines here, whose code counts the rows out of every operation when {@code countRows}
     * (EXPLAIN ANALYZE: the counts land in the run's {@link QueryState#actuals()}).
     */
    Query query(QueryPlan plan, Map<Integer, Genome> genomes, boolean countRows);

    /**
     * A query's pipelines here, each one's code made under its genome and its class taken from {@code classes}
     * (class name, source) instead of compiled here: a tuner's own cache, whose classes can be unloaded once unused.
     */
    Query query(QueryPlan plan, Map<Integer, Genome> genomes, BiFunction<String, String, Class<?>> classes);

    /** Publishes the query's VALUES relations; before its first pipeline runs. */
    void startQuery(QueryState state);

    /**
     * Completes relation {@code rel} of {@code sink} (MATERIALIZE or SORT) here from the parts its writers left,
     * where they were made (moved here first): concatenated, sorted, cut to the LIMIT.
     */
    void completeRelation(QueryState state, Sink sink);

    /** Relation {@code rel} here, moved from another device first where it is there. */
    ResultRelation result(QueryState state, int rel);

    /**
     * Compiles the code of {@code plan}'s pipelines under {@code genomes} outside every cache and count, and returns
     * how many classes it compiled: a process's first-query work done early ({@code exec.WarmUp}).
     */
    int warmUp(QueryPlan plan, Map<Integer, Genome> genomes);
}

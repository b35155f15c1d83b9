package io.tessera.backend;

import io.tessera.plan.Pipeline;
import io.tessera.plan.QueryPlan;
import io.tessera.variant.Genome;

import java.util.Collection;
import java.util.Map;

/**
 * A device that runs pipelines: the JVM on all cores, a GPU. The executor asks a backend about one query at a
 * time ({@link #query}): which pipelines it can run under their genomes, given where their inputs are (a capability
 * check that gives a reason, never an emitter that throws, asked round by round by {@link DevicePlacement}), their
 * code prepared (emitted and compiled), and runs one prepared pipeline at a time, its inputs and outputs
 * {@link Intermediate} handles in the query's {@link QueryState}.
 */
public interface Backend {

    /** The device this backend's intermediates name (e.g. "jvm", "cuda"). */
    String device();

    /** A query's pipelines on this backend under {@code genomes} (every pipeline's genome for this backend). */
    Query query(QueryPlan plan, Map<Integer, Genome> genomes);

    /** One query as a backend sees it. */
    interface Query {

        /**
         * A fresh round of placement ({@link DevicePlacement}): which pipelines this backend can run under their
         * genomes, given where their inputs are. The last round asked is the placement the query is prepared and run
         * under. The default runs every pipeline (the host).
         */
        default PlacementRound placementRound() {
            return (p, placed) -> null;
        }

        /** Emits and compiles the code of these pipelines (in parallel where the backend can); again is a no-op. */
        void prepare(Collection<Pipeline> pipelines);

        /**
         * Runs one prepared pipeline: reads its source (a table, or a relation in {@code state}, on this device),
         * the join tables it probes, and leaves its output in {@code state}: a join table, a relation, or a part of
         * one ({@link QueryState#addPart}).
         */
        void run(Pipeline pipeline, QueryState state);

        /** Why a device that was asked for is not (fully) used by this query, else null. */
        default String notice() {
            return null;
        }

        /** The source that runs pipeline {@code id} here (EXPLAIN CODE); the pipeline was prepared here. */
        default String source(int id) {
            throw new UnsupportedOperationException("no source of pipeline " + id + " on " + getClass().getSimpleName());
        }

        /**
         * The values pipeline {@code id}'s code reads as its constants, in the order of their names there (on the
         * JVM the fields {@code k0, k1, ...}), for EXPLAIN CODE's legend; empty where the device does not say.
         */
        default java.util.List<Object> constants(int id) {
            return java.util.List.of();
        }

        /** Pipeline {@code id}'s genome on this device as EXPLAIN shows it. */
        default String genomeText(int id) {
            return "";
        }

        /** How pipeline {@code id}'s output is laid out on the device, for EXPLAIN (null: nothing to say). */
        default String describeOutput(int id) {
            return null;
        }

        /** The bytes the prepared pipelines must read (a bandwidth model's input); 0 where not modelled. */
        default long bytesRead() {
            return 0;
        }

        /** The bytes the per-query bandwidth model charges the prepared pipelines; 0 where not modelled. */
        default long modelBytes() {
            return 0;
        }

        /** The device's kernel time in run {@code state} so far; 0 where it has none. */
        default long kernelNanos(QueryState state) {
            return 0;
        }

        /** The time run {@code state} spent uploading columns to the device so far; 0 where it has none. */
        default long uploadNanos(QueryState state) {
            return 0;
        }
    }
}

package io.tessera.backend.jvm.gen;

import io.tessera.backend.ValueKind;
import io.tessera.backend.jvm.aggregate.AggSpec;
import io.tessera.plan.Pipeline;
import io.tessera.variant.Genome;

import java.util.List;

/**
 * A pipeline's generated Java source with what the runtime needs to give it sink state: the layout of its
 * row buffers ({@code bufferKinds}, {@code bufferDicts} for CODE columns), or its aggregates and group table.
 * {@code constants} are the query's constants the code reads from the array its init is given (literals, strings,
 * dictionary keys): no constant is ever part of the source, so queries that differ only in them share one class.
 * {@code countedOperations}: the operations whose rows out the code counts into {@code rowCounts} (EXPLAIN ANALYZE;
 * none in plain queries' code), each at its index in the plan's operations.
 */
public record EmittedPipeline(Pipeline pipeline, Genome genome, String className, String source, List<Object> constants,
                              ValueKind[] bufferKinds, String[] bufferDicts, AggSpec[] aggs, ValueKind[] keyKinds,
                              String[] keyDicts, boolean dense, long[] denseMins, long[] denseSizes, int keyWidth,
                              boolean nullableKeys, int[] countedOperations) {
}

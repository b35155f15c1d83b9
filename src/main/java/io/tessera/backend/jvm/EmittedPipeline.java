package io.tessera.backend.jvm;

import io.tessera.plan.Pipeline;
import io.tessera.variant.Genome;

/**
 * A pipeline's generated Java source with what the runtime needs to give it sink state: the layout of its
 * row buffers ({@code bufferKinds}, {@code bufferDicts} for CODE columns), or its aggregates and group table.
 */
public record EmittedPipeline(Pipeline pipeline, Genome genome, String className, String source,
                              JKind[] bufferKinds, String[] bufferDicts, AggSpec[] aggs, JKind[] keyKinds,
                              String[] keyDicts, boolean dense, long[] denseMins, long[] denseSizes, int keyWidth,
                              boolean nullableKeys) {
}

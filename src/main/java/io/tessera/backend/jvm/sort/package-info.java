/**
 * SORT and top-k on the JVM: the rows collected by the emitter, sorted when the relation is completed
 * ({@link io.tessera.backend.jvm.sort.Sorter}, {@link io.tessera.backend.jvm.sort.SortedRows}: keys encoded as bit
 * strings, runs radix-sorted on the workers and merged by them; {@link io.tessera.backend.jvm.sort.TopK}: a bounded
 * heap, after each worker's rows were cut to their top k under {@code topk=worker}).
 */
package io.tessera.backend.jvm.sort;

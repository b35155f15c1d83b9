/**
 * The order of rows on the host, whichever device made them: a SORT's or top-k's rows sorted when their relation is
 * completed ({@link io.tessera.backend.host.sort.Sorter}, {@link io.tessera.backend.host.sort.SortedRows}: keys
 * encoded as bit strings, runs radix-sorted on the host's workers and merged by them; {@link
 * io.tessera.backend.host.sort.TopK}: a bounded heap, after each worker's rows were cut to their top k under
 * {@code topk=worker}), and a window's partitions ordered by {@code backend.jvm.window}. It uses only the host's rows
 * and threads: how many threads a sort gets is the caller's (a JVM genome's, or the rows' size).
 */
package io.tessera.backend.host.sort;

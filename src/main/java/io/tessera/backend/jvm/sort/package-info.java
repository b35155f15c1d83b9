/**
 * SORT and top-k on the JVM: the rows collected by the emitter, sorted when the relation is completed
 * ({@link io.tessera.backend.jvm.sort.Sorter}).
 */
package io.tessera.backend.jvm.sort;

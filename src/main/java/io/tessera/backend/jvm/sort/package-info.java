/**
 * SORT and top-k on the JVM: the emitter that collects the rows ({@link io.tessera.backend.jvm.sort.SortEmitter}).
 * Their order is host work, device-neutral, in {@code backend.host.sort}: the JVM's sink ends and the host's
 * completion of a relation whose rows another device made both sort there.
 */
package io.tessera.backend.jvm.sort;

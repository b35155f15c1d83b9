/**
 * Scan, filter and map on the JVM: filters emitted as an {@code if} each or a run of them combined
 * without short-circuits ({@link io.tessera.backend.jvm.filter.FilterEmitter}), or vectorized over a morsel
 * ({@link io.tessera.backend.jvm.filter.VectorFilterEmitter}).
 */
package io.tessera.backend.jvm.filter;

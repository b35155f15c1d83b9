/**
 * Window functions on the JVM: the rows collected by the emitter, then partitioned, ordered and evaluated
 * ({@link io.tessera.backend.jvm.window.WindowEvaluator}), on one thread or, under {@code window=partitions}, in
 * groups of whole partitions ({@link io.tessera.backend.jvm.window.WindowPartitions}) on the workers.
 */
package io.tessera.backend.jvm.window;

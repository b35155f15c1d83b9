/**
 * Window functions on the JVM: the rows collected by the emitter, then partitioned, ordered and evaluated
 * ({@link io.tessera.backend.jvm.window.WindowEvaluator}).
 */
package io.tessera.backend.jvm.window;

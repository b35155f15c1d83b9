/**
 * Joins on the JVM: the BUILD sink's emitter, the join table of each layout and its build from the workers' rows
 * ({@link io.tessera.backend.jvm.join.JoinBuild}), and the probe's emitter with a lookup per table layout.
 */
package io.tessera.backend.jvm.join;

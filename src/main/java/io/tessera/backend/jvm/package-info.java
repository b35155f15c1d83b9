/**
 * The JVM backend: each pipeline emitted as Java under its genome ({@code gen}), compiled with Janino and run in
 * morsels on all cores ({@code run}). This package holds the entry points other layers use:
 * {@link io.tessera.backend.jvm.JvmBackend}, {@link io.tessera.backend.jvm.JvmExecutor} and
 * {@link io.tessera.backend.jvm.BlockControl}. Each operator family has a folder of its own ({@code filter},
 * {@code join}, {@code aggregate}, {@code sort}, {@code window}, {@code relation}) holding its emitter, its run-time
 * tables and the end of its sink; {@code lib} is the library generated code calls.
 */
package io.tessera.backend.jvm;

/**
 * The JVM's MATERIALIZE sink: its emitter, which writes a pipeline's rows into the host's row buffers
 * ({@link io.tessera.backend.host.RowBuffer}). The rows themselves, their parts, the finished relation and the threads a sink's end uses are the host's
 * ({@code backend.host}).
 */
package io.tessera.backend.jvm.relation;

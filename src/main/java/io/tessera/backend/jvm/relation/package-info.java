/**
 * Rows on the host, which every operator family reads or writes: the workers' row buffers
 * ({@link io.tessera.backend.jvm.relation.RowBuffer}), a writer's part of a relation, a finished relation
 * ({@link io.tessera.backend.jvm.relation.MatRelation}), and the MATERIALIZE sink's emitter.
 */
package io.tessera.backend.jvm.relation;

package io.tessera.backend.host;

/** One writer's rows of a relation on the JVM: the buffer and, per CODE column, its dictionary's key. */
public record RelationPart(RowBuffer rows, String[] dictionaries) {
}

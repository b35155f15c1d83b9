package io.tessera.plan;

import io.tessera.storage.DataType;

/** A column of a pipeline source or of a relation a sink produces. */
public record ColumnInfo(String name, DataType type, boolean nullable, String dictionaryKey) {
}

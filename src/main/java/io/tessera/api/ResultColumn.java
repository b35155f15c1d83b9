package io.tessera.api;

import io.tessera.storage.DataType;

/** A column of a query result: its name, type and whether it may hold NULL. */
public record ResultColumn(String name, DataType type, boolean nullable) {
}

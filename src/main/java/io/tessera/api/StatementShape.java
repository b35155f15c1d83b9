package io.tessera.api;

import io.tessera.storage.DataType;

import java.util.List;

/**
 * What a statement gives and takes, known from planning it without running it: its result columns (null for a
 * statement whose columns are not known before it runs, such as one that changes the database) and the type of each
 * {@code ?} parameter (null where planning gives it none).
 */
public record StatementShape(List<ResultColumn> columns, List<DataType> parameters) {
}

package io.tessera.sql;

import io.tessera.storage.Table;

/** How the planner reaches the stored table behind a Calcite table scan. */
public interface CatalogTableAccess {
    Table table();
}

package io.tessera.sql;

import io.tessera.storage.View;

import java.util.List;

/**
 * The columns of a view as the catalog's listings show them ({@code information_schema.columns},
 * {@code duckdb_columns()}): names and DuckDB's type texts, which only planning the view's query tells, so the layer
 * that plans queries gives them. A view whose query no longer plans has none.
 */
public interface ViewColumns {

    /** A view's column: its name and its type as DuckDB writes it ({@code INTEGER}, {@code DECIMAL(18,2)}). */
    record Column(String name, String type) {
    }

    List<Column> of(View view);
}

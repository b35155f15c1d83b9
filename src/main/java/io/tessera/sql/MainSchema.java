package io.tessera.sql;

import org.apache.calcite.jdbc.CalciteSchema;
import org.apache.calcite.schema.Table;
import org.apache.calcite.schema.impl.AbstractSchema;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * DuckDB's default schema, {@code main}, as a name for the database's own tables and views: {@code main.lineitem}
 * is {@code lineitem}, as the JDBC driver reports every table in schema main and tools qualify names with it.
 */
final class MainSchema extends AbstractSchema {

    static final String NAME = "main";

    private final CalciteSchema root;

    private MainSchema(CalciteSchema root) {
        this.root = root;
    }

    /** Adds {@code main} to a statement's root schema, after its tables and views. */
    static void addTo(CalciteSchema root) {
        root.add(NAME, new MainSchema(root));
    }

    @Override
    protected Map<String, Table> getTableMap() {
        Map<String, Table> tables = new LinkedHashMap<>();
        for (String name : root.getTableNames()) {
            CalciteSchema.TableEntry e = root.getTable(name, true);
            if (e != null) {
                tables.put(name, e.getTable());
            }
        }
        return tables;
    }
}

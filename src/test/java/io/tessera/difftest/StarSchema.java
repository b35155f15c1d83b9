package io.tessera.difftest;

import io.tessera.storage.DataType;
import io.tessera.storage.TypeKind;

import java.util.List;

/** What the random query generator knows of the test star schema: tables, columns with sample values, keys. */
public record StarSchema(List<TableInfo> tables, List<ForeignKey> foreignKeys) {

    /** A column and some of its non-null values (for literals that hit data). */
    public record ColumnInfo(String table, String name, DataType type, boolean nullable, List<Object> samples) {
        public TypeKind kind() {
            return type.kind();
        }
    }

    public record TableInfo(String name, String alias, boolean fact, List<ColumnInfo> columns) {
    }

    /** {@code fact.column} references {@code table.column} of a dimension. */
    public record ForeignKey(String factColumn, String dimTable, String dimColumn) {
    }

    public TableInfo fact() {
        return tables.stream().filter(TableInfo::fact).findFirst().orElseThrow();
    }

    public TableInfo table(String name) {
        return tables.stream().filter(t -> t.name().equals(name)).findFirst().orElseThrow();
    }
}

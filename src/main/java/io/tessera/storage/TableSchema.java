package io.tessera.storage;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * A table's name, columns, keys (PRIMARY KEY and UNIQUE constraints, {@link TableKey}), CHECK constraints
 * ({@link CheckConstraint}), FOREIGN KEY constraints ({@link ForeignKey}) and indexes ({@link TableIndex}, CREATE
 * INDEX; no constraints, but a UNIQUE one is enforced with the keys: {@link #enforcedKeys}). Names are stored as
 * they were written and looked up ignoring case: two names that differ only in case are the same name, as in DuckDB.
 */
public record TableSchema(String name, List<ColumnSchema> columns, List<TableKey> keys,
        List<CheckConstraint> checks, List<ForeignKey> foreignKeys, List<TableIndex> indexes) {

    private static final Pattern NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

    public TableSchema {
        checkName(name, "table");
        columns = List.copyOf(columns);
        if (columns.isEmpty()) {
            throw new IllegalArgumentException("table " + name + " needs at least one column");
        }
        Set<String> seen = new HashSet<>();
        for (ColumnSchema c : columns) {
            if (!seen.add(c.name().toLowerCase(Locale.ROOT))) {
                throw new IllegalArgumentException("column " + c.name() + " appears twice in table " + name);
            }
        }
        keys = List.copyOf(keys);
        boolean primary = false;
        for (TableKey k : keys) {
            for (String c : k.columns()) {
                if (!seen.contains(c.toLowerCase(Locale.ROOT))) {
                    throw new IllegalArgumentException("key column " + c + " is not a column of table " + name);
                }
            }
            if (k.primary() && primary) {
                throw new IllegalArgumentException("table " + name + " has more than one primary key");
            }
            primary |= k.primary();
        }
        checks = List.copyOf(checks);
        for (CheckConstraint c : checks) {
            for (String col : c.columns()) {
                if (!seen.contains(col.toLowerCase(Locale.ROOT))) {
                    throw new IllegalArgumentException("column " + col + " of constraint " + c.name(name)
                            + " is not a column of table " + name);
                }
            }
        }
        foreignKeys = List.copyOf(foreignKeys);
        for (ForeignKey f : foreignKeys) {
            for (String col : f.columns()) {
                if (!seen.contains(col.toLowerCase(Locale.ROOT))) {
                    throw new IllegalArgumentException("column " + col + " of constraint " + f.name(name)
                            + " is not a column of table " + name);
                }
            }
        }
        indexes = List.copyOf(indexes);
        for (TableIndex x : indexes) {
            for (String col : x.columns()) {
                if (!seen.contains(col.toLowerCase(Locale.ROOT))) {
                    throw new IllegalArgumentException("column " + col + " of index " + x.name()
                            + " is not a column of table " + name);
                }
            }
        }
    }

    /** A table without indexes. */
    public TableSchema(String name, List<ColumnSchema> columns, List<TableKey> keys, List<CheckConstraint> checks,
            List<ForeignKey> foreignKeys) {
        this(name, columns, keys, checks, foreignKeys, List.of());
    }

    /** A table without FOREIGN KEY constraints. */
    public TableSchema(String name, List<ColumnSchema> columns, List<TableKey> keys, List<CheckConstraint> checks) {
        this(name, columns, keys, checks, List.of());
    }

    /** A table without CHECK or FOREIGN KEY constraints. */
    public TableSchema(String name, List<ColumnSchema> columns, List<TableKey> keys) {
        this(name, columns, keys, List.of());
    }

    /** A table without keys or CHECK constraints. */
    public TableSchema(String name, List<ColumnSchema> columns) {
        this(name, columns, List.of());
    }

    /** This table with {@code indexes} in place of its indexes. */
    public TableSchema withIndexes(List<TableIndex> indexes) {
        return new TableSchema(name, columns, keys, checks, foreignKeys, indexes);
    }

    /**
     * The keys every write checks: the PRIMARY KEY and UNIQUE constraints, then the key of each UNIQUE index, in
     * the order the indexes were made. Only the constraints are {@link #keys} (what a foreign key may reference,
     * what the catalog lists as constraints); an index only adds a key to enforce.
     */
    public List<TableKey> enforcedKeys() {
        if (indexes.stream().noneMatch(TableIndex::unique)) {
            return keys;
        }
        List<TableKey> all = new ArrayList<>(keys);
        indexes.stream().filter(TableIndex::unique).forEach(x -> all.add(x.asKey(this)));
        return List.copyOf(all);
    }

    /** The table's primary key, or null. */
    public TableKey primaryKey() {
        return keys.stream().filter(TableKey::primary).findFirst().orElse(null);
    }

    static void checkName(String name, String what) {
        if (name == null || !NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("invalid " + what + " name '" + name
                    + "': use letters, digits and underscores, not starting with a digit");
        }
    }

    /** Index of the column with this name (case-insensitive), or -1. */
    public int indexOf(String column) {
        for (int i = 0; i < columns.size(); i++) {
            if (columns.get(i).name().equalsIgnoreCase(column)) {
                return i;
            }
        }
        return -1;
    }

    public ColumnSchema column(String column) {
        int i = indexOf(column);
        if (i < 0) {
            throw new IllegalArgumentException("table " + name + " has no column " + column);
        }
        return columns.get(i);
    }

    /**
     * Parses a column list such as {@code "a INTEGER NOT NULL, b VARCHAR, c DECIMAL(15,2)"}. Commas inside
     * parentheses belong to the type.
     */
    public static TableSchema parse(String table, String columnList) {
        List<ColumnSchema> cols = new ArrayList<>();
        for (String part : splitTopLevel(columnList)) {
            String def = part.trim();
            if (def.isEmpty()) {
                throw new IllegalArgumentException("empty column definition in '" + columnList + "'");
            }
            String[] words = def.split("\\s+", 2);
            if (words.length < 2) {
                throw new IllegalArgumentException("column '" + def + "' needs a type");
            }
            String rest = words[1].trim();
            boolean nullable = true;
            String upper = rest.toUpperCase(Locale.ROOT);
            if (upper.endsWith(" NOT NULL")) {
                nullable = false;
                rest = rest.substring(0, rest.length() - " NOT NULL".length());
            } else if (upper.endsWith(" NULL")) {
                rest = rest.substring(0, rest.length() - " NULL".length());
            }
            cols.add(new ColumnSchema(words[0], DataType.parse(rest), nullable));
        }
        return new TableSchema(table, cols);
    }

    private static List<String> splitTopLevel(String s) {
        List<String> parts = new ArrayList<>();
        int depth = 0;
        int start = 0;
        for (int i = 0; i < s.length(); i++) {
            char ch = s.charAt(i);
            if (ch == '(') {
                depth++;
            } else if (ch == ')') {
                depth--;
            } else if (ch == ',' && depth == 0) {
                parts.add(s.substring(start, i));
                start = i + 1;
            }
        }
        parts.add(s.substring(start));
        return parts;
    }

    @Override
    public String toString() {
        return name + "(" + columns.stream().map(ColumnSchema::toString).collect(Collectors.joining(", "))
                + keys.stream().map(k -> ", " + k).collect(Collectors.joining())
                + checks.stream().map(c -> ", " + c).collect(Collectors.joining())
                + foreignKeys.stream().map(f -> ", " + f).collect(Collectors.joining()) + ")"
                + indexes.stream().map(x -> " " + (x.unique() ? "UNIQUE " : "") + "INDEX " + x.name() + " ("
                        + String.join(", ", x.columns()) + ")").collect(Collectors.joining());
    }
}

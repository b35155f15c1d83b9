package io.tessera.sql;

import io.tessera.storage.ColumnSchema;
import io.tessera.storage.Database;
import io.tessera.storage.Table;
import io.tessera.storage.View;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.type.SqlTypeName;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * DuckDB's table functions of the catalog, {@code duckdb_databases()}, {@code duckdb_schemas()},
 * {@code duckdb_tables()}, {@code duckdb_columns()}, {@code duckdb_views()}, {@code duckdb_sequences()} and
 * {@code duckdb_indexes()} (those
 * the database keeps; a connection's TEMP ones are not listed), and those of its PRAGMAs,
 * {@code pragma_version()} and {@code pragma_database_size()}: the columns of DuckDB's that GUI tools read, under
 * DuckDB's names and types, with the rows of the database as it is when the statement is planned (served as
 * {@link InformationSchema}'s views are; a view's columns as {@link ViewColumns} gives them, each nullable). Left
 * out: DuckDB's object ids, tags and the system catalog's own tables. One database, one schema, {@code main}.
 */
final class CatalogFunctions {

    static final String PREFIX_DUCKDB = "duckdb_";
    static final String PREFIX_PRAGMA = "pragma_";

    private static final Set<String> NAMES = Set.of("duckdb_databases", "duckdb_schemas", "duckdb_tables",
            "duckdb_columns", "duckdb_views", "duckdb_sequences", "duckdb_indexes", "pragma_version",
            "pragma_database_size");
    /** Those that take a table's or view's name: {@code pragma_table_info('t')}, {@code pragma_show('t')}. */
    private static final Set<String> OF_A_TABLE = Set.of("pragma_table_info", "pragma_show");

    private static final SqlTypeName TEXT = SqlTypeName.VARCHAR;
    private static final SqlTypeName BOOL = SqlTypeName.BOOLEAN;
    private static final SqlTypeName LONG = SqlTypeName.BIGINT;

    private final Database db;
    private final String catalog;
    private final List<Table> tables;
    private final List<View> views;
    private final ViewColumns viewColumns; // null: views list no columns

    CatalogFunctions(Database db, String catalog, List<Table> tables, List<View> views, ViewColumns viewColumns) {
        this.db = db;
        this.catalog = catalog;
        this.tables = tables;
        this.views = views;
        this.viewColumns = viewColumns;
    }

    /**
     * The function's lower-case name where {@code node} is a call of one in FROM ({@code duckdb_tables()}); null for
     * anything else. Such a call takes no arguments: one with some is an error naming it and its position.
     */
    static String name(SqlNode node) {
        if (!(node instanceof SqlCall table) || table.getKind() != SqlKind.COLLECTION_TABLE
                || !(table.operand(0) instanceof SqlCall call)) {
            return null;
        }
        String name = call.getOperator().getName().toLowerCase(Locale.ROOT);
        if (OF_A_TABLE.contains(name)) {
            argument(call);
            return name;
        }
        if (!NAMES.contains(name)) {
            return null;
        }
        if (call.operandCount() > 0) {
            throw new SqlError(name + "() takes no arguments" + SupportCheck.at(call.getParserPosition()));
        }
        return name;
    }

    /**
     * The table or view name {@code pragma_table_info('t')} and {@code pragma_show('t')} take, where {@code node} is a
     * call of one in FROM (null for any other call): one string literal, else an error naming the function.
     */
    static String argument(SqlNode node) {
        if (!(node instanceof SqlCall table) || table.getKind() != SqlKind.COLLECTION_TABLE
                || !(table.operand(0) instanceof SqlCall call)
                || !OF_A_TABLE.contains(call.getOperator().getName().toLowerCase(Locale.ROOT))) {
            return null;
        }
        if (call.operandCount() != 1 || !(call.operand(0) instanceof org.apache.calcite.sql.SqlCharStringLiteral s)) {
            throw new SqlError(call.getOperator().getName().toLowerCase(Locale.ROOT) + " takes one argument, a table's"
                    + " or view's name in quotes" + SupportCheck.at(call.getParserPosition()));
        }
        return s.getValueAs(String.class);
    }

    /** The rows of the function {@code name} (one of {@link #NAMES}, or of {@link #OF_A_TABLE} over {@code of}). */
    CatalogRelation relation(String name, String of) {
        if (OF_A_TABLE.contains(name)) {
            return columnsOf(name, of);
        }
        return switch (name) {
            case "duckdb_databases" -> relation(List.of(row(catalog, path(), null, false, "tessera", false)),
                    "database_name", TEXT, "path", TEXT, "comment", TEXT, "internal", BOOL, "type", TEXT,
                    "readonly", BOOL);
            case "duckdb_schemas" -> relation(List.of(row(catalog, "main", null, true, null)),
                    "database_name", TEXT, "schema_name", TEXT, "comment", TEXT, "internal", BOOL, "sql", TEXT);
            case "duckdb_tables" -> tables();
            case "duckdb_columns" -> columns();
            case "duckdb_views" -> views();
            case "duckdb_sequences" -> sequences();
            case "duckdb_indexes" -> indexes();
            case "pragma_version" -> relation(List.of(row(SessionFunctions.VERSION, null, null)),
                    "library_version", TEXT, "source_id", TEXT, "codename", TEXT);
            default -> databaseSize();
        };
    }

    private CatalogRelation tables() {
        List<List<Object>> rows = new ArrayList<>();
        for (Table t : tables) {
            rows.add(row(catalog, "main", t.name(), null, false, false, t.schema().primaryKey() != null, t.rowCount(),
                    (long) t.schema().columns().size(), (long) t.schema().indexes().size(), (long) t.schema().checks().size(),
                    createTable(t)));
        }
        return relation(rows, "database_name", TEXT, "schema_name", TEXT, "table_name", TEXT, "comment", TEXT,
                "internal", BOOL, "temporary", BOOL, "has_primary_key", BOOL, "estimated_size", LONG,
                "column_count", LONG, "index_count", LONG, "check_constraint_count", LONG, "sql", TEXT);
    }

    private CatalogRelation columns() {
        List<List<Object>> rows = new ArrayList<>();
        for (Table t : tables) {
            int i = 0;
            for (ColumnSchema c : t.schema().columns()) {
                rows.add(row(catalog, "main", t.name(), c.name(), ++i, null, false, c.isGenerated()
                        ? GeneratedColumns.shown(c) : c.defaultValue(), c.nullable(), c.type().toString()));
            }
        }
        for (View v : views) {
            int i = 0;
            for (ViewColumns.Column c : viewColumns == null ? List.<ViewColumns.Column>of() : viewColumns.of(v)) {
                rows.add(row(catalog, "main", v.name(), c.name(), ++i, null, false, null, true, c.type()));
            }
        }
        return relation(rows, "database_name", TEXT, "schema_name", TEXT, "table_name", TEXT, "column_name", TEXT,
                "column_index", SqlTypeName.INTEGER, "comment", TEXT, "internal", BOOL, "column_default", TEXT,
                "is_nullable", BOOL, "data_type", TEXT);
    }

    private CatalogRelation views() {
        List<List<Object>> rows = new ArrayList<>();
        for (View v : views) {
            rows.add(row(catalog, "main", v.name(), null, false, false, CatalogText.createView(v)));
        }
        return relation(rows, "database_name", TEXT, "schema_name", TEXT, "view_name", TEXT, "comment", TEXT,
                "internal", BOOL, "temporary", BOOL, "sql", TEXT);
    }

    /**
     * DuckDB's columns of duckdb_sequences(): each sequence's definition, its last value (NULL before the first
     * nextval) and its text as DuckDB writes it, starting where the sequence stands now.
     */
    private CatalogRelation sequences() {
        List<List<Object>> rows = new ArrayList<>();
        for (io.tessera.storage.Sequence q : db == null ? List.<io.tessera.storage.Sequence>of() : db.sequences()) {
            rows.add(row(catalog, "main", q.name(), null, false, q.start(), q.minValue(), q.maxValue(),
                    q.increment(), q.cycle(), q.used() ? q.lastValue() : null, CatalogText.createSequence(q)));
        }
        return relation(rows, "database_name", TEXT, "schema_name", TEXT, "sequence_name", TEXT, "comment", TEXT,
                "temporary", BOOL, "start_value", LONG, "min_value", LONG, "max_value", LONG, "increment_by", LONG,
                "cycle", BOOL, "last_value", LONG, "sql", TEXT);
    }

    /**
     * DuckDB's columns of duckdb_indexes(): each index made by CREATE INDEX (a key's own index is not listed, as in
     * DuckDB), its columns as DuckDB's text of a list, and its statement.
     */
    private CatalogRelation indexes() {
        List<List<Object>> rows = new ArrayList<>();
        for (var e : CatalogText.indexes(tables)) {
            io.tessera.storage.TableIndex x = e.getValue();
            rows.add(row(catalog, "main", x.name(), e.getKey().name(), null, x.unique(), false,
                    "[" + String.join(", ", x.columns()) + "]", CatalogText.createIndex(e.getKey(), x)));
        }
        return relation(rows, "database_name", TEXT, "schema_name", TEXT, "index_name", TEXT, "table_name", TEXT,
                "comment", TEXT, "is_unique", BOOL, "is_primary", BOOL, "expressions", TEXT, "sql", TEXT);
    }

    /**
     * {@code pragma_table_info('t')} (SQLite's columns: position from 0, name, type, NOT NULL, DEFAULT, part of the
     * primary key) or {@code pragma_show('t')} (DESCRIBE's: name, type, null, key, default, extra) of a table or view.
     */
    private CatalogRelation columnsOf(String function, String of) {
        boolean info = function.equals("pragma_table_info");
        List<List<Object>> rows = new ArrayList<>();
        Table table = tables.stream().filter(t -> t.name().equalsIgnoreCase(of)).findFirst().orElse(null);
        View view = table != null ? null : views.stream().filter(v -> v.name().equalsIgnoreCase(of)).findFirst()
                .orElse(null);
        if (table != null) {
            int i = 0;
            for (ColumnSchema c : table.schema().columns()) {
                boolean pk = primaryKeyColumn(table, c.name());
                boolean unique = table.schema().keys().stream().anyMatch(k -> k.has(c.name()));
                boolean notNull = !c.nullable() || pk;
                rows.add(info ? row(i++, c.name(), c.type().toString(), notNull, c.defaultValue(), pk)
                        : row(c.name(), c.type().toString(), notNull ? "NO" : "YES", pk ? "PRI" : unique ? "UNI" : null,
                                c.defaultValue(), null));
            }
        } else if (view != null) {
            int i = 0;
            for (ViewColumns.Column c : viewColumns == null ? List.<ViewColumns.Column>of() : viewColumns.of(view)) {
                rows.add(info ? row(i++, c.name(), c.type(), false, null, false)
                        : row(c.name(), c.type(), "YES", null, null, null));
            }
        } else {
            throw new SqlError(function + ": no table or view named " + of);
        }
        return info ? relation(rows, "cid", SqlTypeName.INTEGER, "name", TEXT, "type", TEXT, "notnull", BOOL,
                "dflt_value", TEXT, "pk", BOOL)
                : relation(rows, "column_name", TEXT, "column_type", TEXT, "null", TEXT, "key", TEXT, "default", TEXT,
                        "extra", TEXT);
    }

    /** DuckDB's columns of PRAGMA database_size: the tables' bytes on disk; Tessera has no blocks and no WAL. */
    private CatalogRelation databaseSize() {
        long bytes = 0;
        for (Table t : tables) {
            bytes += t.sizeBytes();
        }
        Runtime jvm = Runtime.getRuntime();
        return relation(List.of(row(catalog, readable(bytes), 0L, 0L, 0L, 0L, readable(0),
                        readable(jvm.totalMemory() - jvm.freeMemory()), readable(jvm.maxMemory()))),
                "database_name", TEXT, "database_size", TEXT, "block_size", LONG, "total_blocks", LONG,
                "used_blocks", LONG, "free_blocks", LONG, "wal_size", TEXT, "memory_usage", TEXT,
                "memory_limit", TEXT);
    }

    /** DuckDB's text of a table's definition: {@code CREATE TABLE t(a INTEGER NOT NULL, b VARCHAR);}. */
    static String createTable(Table t) {
        StringBuilder sb = new StringBuilder("CREATE TABLE ").append(DuckDbKeywords.quoted(t.name())).append('(');
        List<ColumnSchema> columns = t.schema().columns();
        for (int i = 0; i < columns.size(); i++) {
            ColumnSchema c = columns.get(i);
            sb.append(i > 0 ? ", " : "").append(DuckDbKeywords.quoted(c.name())).append(' ').append(c.type())
                    .append(c.nullable() || primaryKeyColumn(t, c.name()) ? "" : " NOT NULL")
                    .append(c.defaultValue() == null ? "" : " DEFAULT(" + c.defaultValue() + ")")
                    .append(c.isGenerated() ? " GENERATED ALWAYS AS((" + c.generated() + "))" : "");
            for (io.tessera.storage.TableKey k : t.schema().keys()) {
                if (k.columns().size() == 1 && k.has(c.name())) {
                    // a key of one column as DuckDB writes it, after the column
                    sb.append(k.primary() ? " PRIMARY KEY" : " UNIQUE");
                }
            }
        }
        for (io.tessera.storage.TableKey k : t.schema().keys()) {
            if (k.columns().size() > 1) {
                sb.append(", ").append(k.primary() ? "PRIMARY KEY(" : "UNIQUE(").append(String.join(", ",
                        k.columns().stream().map(DuckDbKeywords::quoted).toList())).append(')');
            }
        }
        for (io.tessera.storage.CheckConstraint c : t.schema().checks()) {
            // the condition's text as written, as DuckDB writes its own; a name given kept, to make the same table
            sb.append(", ").append(c.name() == null ? "" : "CONSTRAINT " + DuckDbKeywords.quoted(c.name()) + " ")
                    .append(c.clause());
        }
        for (io.tessera.storage.ForeignKey f : t.schema().foreignKeys()) {
            sb.append(", FOREIGN KEY (").append(String.join(", ", f.columns().stream().map(DuckDbKeywords::quoted)
                    .toList())).append(") REFERENCES ").append(DuckDbKeywords.quoted(f.parent())).append('(')
                    .append(String.join(", ", f.referenced().stream().map(DuckDbKeywords::quoted).toList()))
                    .append(')');
        }
        return sb.append(");").toString();
    }

    private static boolean primaryKeyColumn(Table t, String column) {
        io.tessera.storage.TableKey pk = t.schema().primaryKey();
        return pk != null && pk.has(column);
    }

    private String path() {
        return db == null ? null : db.directory().toString();
    }

    /** A number of bytes as DuckDB writes one: {@code 512 bytes}, {@code 1.5 KiB}, {@code 18.8 GiB}. */
    static String readable(long bytes) {
        return bytes < 1024 ? bytes + " bytes" : io.tessera.storage.ByteSizes.text(bytes);
    }

    private static List<Object> row(Object... values) {
        return Arrays.asList(values);
    }

    /** A relation of the rows and the columns given as name, type, name, type, .... */
    private static CatalogRelation relation(List<List<Object>> rows, Object... columnsAndTypes) {
        List<String> columns = new ArrayList<>();
        List<SqlTypeName> types = new ArrayList<>();
        for (int i = 0; i < columnsAndTypes.length; i += 2) {
            columns.add((String) columnsAndTypes[i]);
            types.add((SqlTypeName) columnsAndTypes[i + 1]);
        }
        return new CatalogRelation(columns, types, rows);
    }
}

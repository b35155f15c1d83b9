package io.tessera.sql;

import io.tessera.storage.CheckConstraint;
import io.tessera.storage.ColumnSchema;
import io.tessera.storage.Database;
import io.tessera.storage.ForeignKey;
import io.tessera.storage.Table;
import io.tessera.storage.TableKey;
import io.tessera.storage.View;
import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlJoin;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.SqlTypeName;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * DuckDB's {@code information_schema.tables}, {@code .columns}, {@code .views}, {@code .table_constraints},
 * {@code .key_column_usage}, {@code .check_constraints} and {@code .referential_constraints} (the columns clients
 * read most):
 * each one a statement names in FROM is replaced, before validation, by a VALUES list of the database's tables and
 * views as they are when the statement is planned, so it can be filtered, joined and aggregated as any table. One
 * schema, {@code main}; the catalog is the database directory's name (DuckDB's is the database file's). The columns
 * of views are listed after the tables' ({@link ViewColumns}: their types are known only once a view is planned),
 * each nullable and without a default, as DuckDB lists them.
 */
final class InformationSchema {

    private static final String SCHEMA = "information_schema";
    private static final List<String> TABLES = List.of("table_catalog", "table_schema", "table_name", "table_type");
    private static final List<String> COLUMNS = List.of("table_catalog", "table_schema", "table_name", "column_name",
            "ordinal_position", "column_default", "is_nullable", "data_type", "is_generated", "generation_expression");
    private static final List<String> VIEWS = List.of("table_catalog", "table_schema", "table_name",
            "view_definition");
    private static final List<String> TABLE_CONSTRAINTS = List.of("constraint_catalog", "constraint_schema",
            "constraint_name", "table_catalog", "table_schema", "table_name", "constraint_type", "is_deferrable",
            "initially_deferred", "enforced", "nulls_distinct");
    private static final List<String> KEY_COLUMN_USAGE = List.of("constraint_catalog", "constraint_schema",
            "constraint_name", "table_catalog", "table_schema", "table_name", "column_name", "ordinal_position",
            "position_in_unique_constraint");
    private static final List<String> CHECK_CONSTRAINTS = List.of("constraint_catalog", "constraint_schema",
            "constraint_name", "check_clause");
    private static final List<String> REFERENTIAL_CONSTRAINTS = List.of("constraint_catalog", "constraint_schema",
            "constraint_name", "unique_constraint_catalog", "unique_constraint_schema", "unique_constraint_name",
            "match_option", "update_rule", "delete_rule");
    /** The views information_schema has. */
    private static final List<String> NAMES = List.of("tables", "columns", "views", "table_constraints",
            "key_column_usage", "check_constraints", "referential_constraints");

    private final Database db;
    private final String catalog;
    private final List<Table> tables;
    private final List<View> views;
    private final ViewColumns viewColumns; // null: views list no columns

    private InformationSchema(Database db, List<View> views, ViewColumns viewColumns) {
        this.db = db;
        this.catalog = db == null || db.directory().getFileName() == null ? "memory"
                : db.directory().getFileName().toString();
        this.tables = db == null ? List.of() : db.tables();
        this.views = views;
        this.viewColumns = viewColumns;
    }

    /** Replaces, in place, every {@code information_schema.X} of {@code statement}'s FROM clauses. */
    static void replace(SqlNode statement, Database db, List<View> views, ViewColumns viewColumns) {
        new InformationSchema(db, views, viewColumns).walk(statement);
    }

    private void walk(SqlNode node) {
        if (node instanceof SqlSelect s) {
            s.setFrom(from(s.getFrom()));
            for (SqlNode operand : s.getOperandList()) {
                if (operand != s.getFrom()) {
                    walk(operand);
                }
            }
        } else if (node instanceof SqlNodeList list) {
            for (SqlNode n : list) {
                walk(n);
            }
        } else if (node instanceof SqlCall call) {
            for (SqlNode operand : call.getOperandList()) {
                walk(operand);
            }
        }
    }

    private SqlNode from(SqlNode from) {
        if (from instanceof SqlJoin j) {
            j.setLeft(from(j.getLeft()));
            j.setRight(from(j.getRight()));
            walk(j.getCondition());
            return j;
        }
        if (from instanceof SqlBasicCall as && as.getKind() == SqlKind.AS) {
            String view = viewName(as.operand(0));
            if (view == null) {
                walk(as.operand(0));
                return as;
            }
            if (as.operandCount() > 2) {
                return as; // column aliases of its own: Calcite checks their number against the relation's
            }
            return relation(view, CatalogFunctions.argument(as.operand(0)), (SqlIdentifier) as.operand(1),
                    as.operand(0).getParserPosition());
        }
        String view = viewName(from);
        if (view != null) {
            SqlParserPos pos = from.getParserPosition();
            return relation(view, CatalogFunctions.argument(from), new SqlIdentifier(view, pos), pos);
        }
        if (from != null) {
            walk(from);
        }
        return from;
    }

    /**
     * {@code tables}, {@code columns} or {@code views} where {@code node} is such a name, a catalog function's name
     * ({@code duckdb_tables}, ...) where it is a call of one, else null.
     */
    private static String viewName(SqlNode node) {
        String function = CatalogFunctions.name(node);
        if (function != null) {
            return function;
        }
        if (!(node instanceof SqlIdentifier id) || id.names.size() != 2
                || !id.names.get(0).toLowerCase(Locale.ROOT).equals(SCHEMA)) {
            return null;
        }
        String name = id.names.get(1).toLowerCase(Locale.ROOT);
        if (!NAMES.contains(name)) {
            throw new SqlError("no table " + SCHEMA + "." + id.names.get(1) + " (information_schema has "
                    + String.join(", ", NAMES) + ")" + SupportCheck.at(id.getParserPosition()));
        }
        return name;
    }

    /** {@code (VALUES ...) AS alias (columns)} of the relation {@code name}. */
    private SqlNode relation(String name, String of, SqlIdentifier alias, SqlParserPos pos) {
        if (name.startsWith(CatalogFunctions.PREFIX_DUCKDB) || name.startsWith(CatalogFunctions.PREFIX_PRAGMA)) {
            return new CatalogFunctions(db, catalog, tables, views, viewColumns).relation(name, of).as(alias, pos);
        }
        List<String> columns = switch (name) {
            case "tables" -> TABLES;
            case "columns" -> COLUMNS;
            case "table_constraints" -> TABLE_CONSTRAINTS;
            case "key_column_usage" -> KEY_COLUMN_USAGE;
            case "check_constraints" -> CHECK_CONSTRAINTS;
            case "referential_constraints" -> REFERENTIAL_CONSTRAINTS;
            default -> VIEWS;
        };
        List<SqlTypeName> types = new ArrayList<>();
        for (String c : columns) {
            types.add(name.equals("key_column_usage") && (c.equals("ordinal_position")
                    || c.equals("position_in_unique_constraint")) ? SqlTypeName.BIGINT
                    : c.equals("ordinal_position") ? SqlTypeName.INTEGER : SqlTypeName.VARCHAR);
        }
        return new CatalogRelation(columns, types, rows(name)).as(alias, pos);
    }

    private List<ViewColumns.Column> columnsOf(View v) {
        return viewColumns == null ? List.of() : viewColumns.of(v);
    }

    private List<List<Object>> rows(String name) {
        List<List<Object>> rows = new ArrayList<>();
        switch (name) {
            case "tables" -> {
                for (Table t : tables) {
                    rows.add(List.of(catalog, "main", t.name(), "BASE TABLE"));
                }
                for (View v : views) {
                    rows.add(List.of(catalog, "main", v.name(), "VIEW"));
                }
            }
            case "columns" -> {
                for (Table t : tables) {
                    int i = 0;
                    for (ColumnSchema c : t.schema().columns()) {
                        List<Object> row = new ArrayList<>(List.of(catalog, "main", t.name(), c.name(), ++i));
                        // a default's text as written; a generated column's expression as DuckDB shows it
                        String generated = c.isGenerated() ? GeneratedColumns.shown(c) : null;
                        row.add(c.isGenerated() ? generated : c.defaultValue());
                        row.add(c.nullable() ? "YES" : "NO");
                        row.add(c.type().toString());
                        row.add(c.isGenerated() ? "ALWAYS" : "NEVER");
                        row.add(generated);
                        rows.add(row);
                    }
                }
                for (View v : views) {
                    int i = 0;
                    for (ViewColumns.Column c : columnsOf(v)) {
                        List<Object> row = new ArrayList<>(List.of(catalog, "main", v.name(), c.name(), ++i));
                        row.add(null);
                        row.add("YES");
                        row.add(c.type());
                        row.add("NEVER");
                        row.add(null);
                        rows.add(row);
                    }
                }
            }
            case "table_constraints" -> {
                // as DuckDB lists them: each key, and each NOT NULL column as a CHECK
                for (Table t : tables) {
                    for (ColumnSchema c : t.schema().columns()) {
                        if (!c.nullable()) {
                            rows.add(constraint(t, t.name() + "_" + c.name() + "_not_null", "CHECK"));
                        }
                    }
                    for (TableKey k : t.schema().keys()) {
                        rows.add(constraint(t, k.name(t.name()), k.primary() ? "PRIMARY KEY" : "UNIQUE"));
                    }
                    for (CheckConstraint c : t.schema().checks()) {
                        rows.add(constraint(t, c.name(t.name()), "CHECK"));
                    }
                    for (ForeignKey f : t.schema().foreignKeys()) {
                        rows.add(constraint(t, f.name(t.name()), "FOREIGN KEY"));
                    }
                }
            }
            case "referential_constraints" -> {
                // each foreign key with the parent's key it references, whose rows it may not lose (NO ACTION)
                for (Table t : tables) {
                    for (ForeignKey f : t.schema().foreignKeys()) {
                        rows.add(List.of(catalog, "main", f.name(t.name()), catalog, "main", parentKey(f),
                                "NONE", "NO ACTION", "NO ACTION"));
                    }
                }
            }
            case "check_constraints" -> {
                // as DuckDB lists them: each NOT NULL column as its condition, each CHECK as DuckDB writes it
                for (Table t : tables) {
                    for (ColumnSchema c : t.schema().columns()) {
                        if (!c.nullable()) {
                            rows.add(List.of(catalog, "main", t.name() + "_" + c.name() + "_not_null", c.name()
                                    + " IS NOT NULL"));
                        }
                    }
                    for (CheckConstraint c : t.schema().checks()) {
                        rows.add(List.of(catalog, "main", c.name(t.name()), c.clause()));
                    }
                }
            }
            case "key_column_usage" -> {
                for (Table t : tables) {
                    for (TableKey k : t.schema().keys()) {
                        for (int i = 0; i < k.columns().size(); i++) {
                            List<Object> row = new ArrayList<>(List.of(catalog, "main", k.name(t.name()), catalog,
                                    "main", t.name(), k.columns().get(i), (long) i + 1));
                            row.add(null);
                            rows.add(row);
                        }
                    }
                    for (ForeignKey f : t.schema().foreignKeys()) {
                        for (int i = 0; i < f.columns().size(); i++) {
                            rows.add(List.of(catalog, "main", f.name(t.name()), catalog, "main", t.name(),
                                    f.columns().get(i), (long) i + 1, (long) i + 1));
                        }
                    }
                }
            }
            default -> {
                for (View v : views) {
                    rows.add(List.of(catalog, "main", v.name(), v.query()));
                }
            }
        }
        return rows;
    }

    /** The name of the parent's key that foreign key {@code f} references (its columns', where the parent is gone). */
    private String parentKey(ForeignKey f) {
        for (Table t : tables) {
            if (f.references(t.name())) {
                for (TableKey k : t.schema().keys()) {
                    if (k.columns().size() == f.referenced().size() && f.referenced().stream().allMatch(k::has)) {
                        return k.name(t.name());
                    }
                }
            }
        }
        return f.parent() + "_" + String.join("_", f.referenced()) + "_key";
    }

    /** A row of {@code table_constraints}. */
    private List<Object> constraint(Table t, String name, String type) {
        return List.of(catalog, "main", name, catalog, "main", t.name(), type, "NO", "NO", "YES", "YES");
    }
}

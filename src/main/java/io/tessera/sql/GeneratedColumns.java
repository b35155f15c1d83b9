package io.tessera.sql;

import io.tessera.storage.ColumnSchema;
import io.tessera.storage.DataType;
import io.tessera.storage.TableSchema;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.util.SqlBasicVisitor;
import org.apache.calcite.sql.util.SqlShuttle;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * Generated columns ({@code x AS (e)}, {@code x [type] GENERATED ALWAYS AS (e) [VIRTUAL]}) as SQL. Tessera stores
 * their values: every write computes them from the row's other columns by a query over the rows it is about to
 * write ({@link #computed}, the expressions parsed again from their text, never made into code), so that scans read
 * them as any column; the expression being deterministic, that reads as DuckDB's virtual columns do. CREATE TABLE
 * checks them as DuckDB does ({@link #resolve}): no STORED, subquery, aggregate or window function, only the table's
 * columns unqualified, no cycle among them; a column without a type takes its expression's.
 */
public final class GeneratedColumns {

    private static final SqlParserPos POS = SqlParserPos.ZERO;

    private GeneratedColumns() {
    }

    /** Whether {@code schema} has a generated column. */
    public static boolean any(TableSchema schema) {
        return schema.columns().stream().anyMatch(ColumnSchema::isGenerated);
    }

    /**
     * A generated column of CREATE TABLE {@code table} read by the grammar: its expression's text ({@code sql} is the
     * statement), checked for what the grammar alone can tell (STORED, a subquery, a qualified name).
     */
    static String text(String table, String column, SqlNode expression, boolean stored, String sql) {
        if (stored) {
            throw new SqlError("Can not create a STORED generated column!" + SupportCheck.at(
                    expression.getParserPosition()));
        }
        expression.accept(new SqlBasicVisitor<Void>() {
            @Override
            public Void visit(SqlIdentifier id) {
                if (!id.isSimple()) {
                    throw new SqlError("Qualified (tbl.name) column references are not allowed inside of generated"
                            + " column expressions" + SupportCheck.at(id.getParserPosition()));
                }
                return null;
            }

            @Override
            public Void visit(SqlCall call) {
                if (call instanceof SqlSelect || SqlKind.QUERY.contains(call.getKind())
                        || call.getKind() == SqlKind.EXISTS) {
                    throw new SqlError("Expression of generated column \"" + column + "\" contains a subquery,"
                            + " which isn't allowed" + SupportCheck.at(call.getParserPosition()));
                }
                if (call.getKind() == SqlKind.LAMBDA) {
                    throw new SqlError("Lambda functions are currently not supported in generated columns."
                            + SupportCheck.at(call.getParserPosition()));
                }
                return super.visit(call);
            }
        });
        return ExpressionText.of(expression, sql);
    }

    /**
     * The schema of a new table with its generated columns checked and typed: each planned over the table's other
     * columns (NULLs of their types, generated ones before the columns that read them), a name that is no column of
     * the table, a cycle, an aggregate, a window or a non-deterministic function an error (the last Tessera's own:
     * the values are stored); a column without a type takes its expression's ({@code types} maps a planned type to
     * the stored one).
     */
    public static TableSchema resolve(SqlFrontEnd frontEnd, TableSchema schema, Function<RelDataType, DataType> types) {
        if (!any(schema)) {
            return schema;
        }
        if (schema.columns().stream().allMatch(ColumnSchema::isGenerated)) {
            throw new SqlError("Creating a table without physical (non-generated) columns is not supported");
        }
        for (ColumnSchema c : schema.columns()) {
            boolean keyed = schema.keys().stream().anyMatch(k -> k.has(c.name()));
            if (c.isGenerated() && (keyed || schema.checks().stream().anyMatch(k -> k.has(c.name())))) {
                throw new SqlError("Constraints on generated columns are not supported yet");
            }
        }
        List<ColumnSchema> columns = new ArrayList<>(schema.columns());
        Map<String, ColumnSchema> typed = new LinkedHashMap<>(); // by lower-case name, in the order resolved
        for (ColumnSchema c : columns) {
            if (!c.isGenerated()) {
                typed.put(key(c.name()), c);
            }
        }
        for (String name : order(schema)) {
            int i = schema.indexOf(name);
            ColumnSchema c = columns.get(i);
            SqlNodeList nulls = new SqlNodeList(POS);
            for (ColumnSchema known : typed.values()) {
                SqlNode value = SqlStdOperatorTable.CAST.createCall(POS, SqlLiteral.createNull(POS),
                        DataChangeQueries.typeSpec(known.type()));
                nulls.add(SqlStdOperatorTable.AS.createCall(POS, value, new SqlIdentifier(known.name(), POS)));
            }
            SqlNode row = new SqlSelect(POS, null, nulls, null, null, null, null, null, null, null, null, null,
                    null);
            SqlNode from = SqlStdOperatorTable.AS.createCall(POS, row, new SqlIdentifier(schema.name(), POS));
            SqlNode value = ExpressionText.parse(c.generated());
            if (c.type() != null) {
                value = SqlStdOperatorTable.CAST.createCall(POS, value, DataChangeQueries.typeSpec(c.type()));
            }
            SqlFrontEnd.LogicalPlan plan;
            try {
                plan = frontEnd.plan(new SqlSelect(POS, null, SqlNodeList.of(value), from, null, null, null, null,
                        null, null, null, null, null));
            } catch (SqlError e) {
                throw new SqlError("CREATE TABLE " + schema.name() + ": generated column " + c.name() + " AS ("
                        + c.generated() + "): " + e.getMessage(), e);
            }
            String refused = CheckConstraints.refused(plan.rel());
            if (refused != null) {
                throw new SqlError(switch (refused) {
                    case "aggregate functions" -> "Aggregate functions are not supported here";
                    case "window functions" -> "Window functions are not supported here";
                    default -> "non-deterministic functions are not supported in generated column " + c.name()
                            + " (Tessera stores its values)";
                } + (refused.startsWith("non") ? "" : " (generated column " + c.name() + ")"));
            }
            DataType type = c.type() != null ? c.type()
                    : types.apply(plan.rel().getRowType().getFieldList().get(0).getType());
            ColumnSchema resolved = new ColumnSchema(c.name(), type, true, null, c.generated());
            columns.set(i, resolved);
            typed.put(key(c.name()), resolved);
        }
        return new TableSchema(schema.name(), columns, schema.keys(), schema.checks());
    }

    /** The generated columns of {@code schema}, each after those its expression reads; a cycle is an error. */
    private static List<String> order(TableSchema schema) {
        Set<String> done = new LinkedHashSet<>();
        for (ColumnSchema c : schema.columns()) {
            if (c.isGenerated()) {
                visit(schema, c, done, new LinkedHashSet<>());
            }
        }
        return new ArrayList<>(done);
    }

    private static void visit(TableSchema schema, ColumnSchema c, Set<String> done, Set<String> path) {
        if (done.contains(c.name())) {
            return;
        }
        if (!path.add(key(c.name()))) {
            throw new SqlError("Circular dependency encountered when resolving generated column expressions");
        }
        for (String read : reads(c.generated())) {
            int i = schema.indexOf(read);
            if (i < 0) {
                throw new SqlError("Column \"" + read + "\" referenced by generated column does not exist");
            }
            if (schema.columns().get(i).isGenerated()) {
                visit(schema, schema.columns().get(i), done, path);
            }
        }
        path.remove(key(c.name()));
        done.add(c.name());
    }

    /** The column names an expression's text reads (as written), not a function written without parentheses. */
    private static List<String> reads(String expression) {
        List<String> names = new ArrayList<>();
        ExpressionText.parse(expression).accept(new SqlBasicVisitor<Void>() {
            @Override
            public Void visit(SqlIdentifier id) {
                if (!niladic(id)) {
                    names.add(id.names.getLast());
                }
                return null;
            }
        });
        return names;
    }

    /** Whether {@code id} is a function called without parentheses, as {@code current_date}. */
    private static boolean niladic(SqlIdentifier id) {
        List<org.apache.calcite.sql.SqlOperator> found = new ArrayList<>();
        SqlStdOperatorTable.instance().lookupOperatorOverloads(id, null, org.apache.calcite.sql.SqlSyntax.FUNCTION_ID,
                found, org.apache.calcite.sql.validate.SqlNameMatchers.withCaseSensitive(false));
        return !found.isEmpty();
    }

    private static String key(String name) {
        return name.toLowerCase(Locale.ROOT);
    }

    /** The generated columns of {@code schema} whose expressions read {@code column}. */
    public static List<ColumnSchema> reading(TableSchema schema, String column) {
        return schema.columns().stream().filter(c -> c.isGenerated()
                && reads(c.generated()).stream().anyMatch(column::equalsIgnoreCase)).toList();
    }

    /**
     * {@code SELECT a, b, CAST((e) AS type) AS g, ... FROM table}: the table's rows with each generated column
     * computed from the others (an expression that reads a generated column reads that column's expression), as a
     * write stores them; run over the rows it is about to write.
     */
    public static SqlSelect computed(TableSchema schema) {
        SqlNodeList items = new SqlNodeList(POS);
        for (ColumnSchema c : schema.columns()) {
            SqlNode value = c.isGenerated() ? expression(schema, c) : new SqlIdentifier(c.name(), POS);
            items.add(SqlStdOperatorTable.AS.createCall(POS, value, new SqlIdentifier(c.name(), POS)));
        }
        return new SqlSelect(POS, null, items, new SqlIdentifier(schema.name(), POS), null, null, null, null, null,
                null, null, null, null);
    }

    /** {@code SELECT CAST((e) AS type) FROM table}: generated column {@code c} alone (which one failed, its error). */
    public static SqlSelect computed(TableSchema schema, ColumnSchema c) {
        return new SqlSelect(POS, null, SqlNodeList.of(expression(schema, c)), new SqlIdentifier(schema.name(), POS),
                null, null, null, null, null, null, null, null, null);
    }

    /** The error of a write whose row makes generated column {@code c}'s expression fail, as DuckDB words it. */
    public static SqlError failed(ColumnSchema c, RuntimeException e) {
        return new SqlError("Incorrect value for generated column '" + c.name() + " " + c.type() + " AS ("
                + shown(c) + ")' : " + e.getMessage(), e);
    }

    /** A generated column's value: its expression, cast to its type, with the generated columns it reads expanded. */
    private static SqlNode expression(TableSchema schema, ColumnSchema c) {
        SqlNode parsed = ExpressionText.parse(c.generated()).accept(new SqlShuttle() {
            @Override
            public SqlNode visit(SqlIdentifier id) {
                int i = schema.indexOf(id.names.getLast());
                return i >= 0 && schema.columns().get(i).isGenerated() ? expression(schema, schema.columns().get(i))
                        : id;
            }
        });
        return SqlStdOperatorTable.CAST.createCall(POS, parsed, DataChangeQueries.typeSpec(c.type()));
    }

    /** DuckDB's text of a generated column's value: {@code CAST((x + 1) AS INTEGER)}. */
    public static String shown(ColumnSchema c) {
        return "CAST((" + c.generated() + ") AS " + c.type() + ")";
    }

    /** The error of a write that gives a generated column a value, as DuckDB words it. */
    public static SqlError inserted() {
        return new SqlError("Cannot insert into a generated column");
    }

    /** The error of an UPDATE (or ON CONFLICT DO UPDATE) that sets generated column {@code column}. */
    public static SqlError updated(String column) {
        return new SqlError("Cant update column \"" + column + "\" because it is a generated column!");
    }

    /**
     * Fails where ALTER TABLE's {@code action} on {@code column} of {@code schema} touches a generated column as
     * DuckDB refuses it: a column one reads dropped or retyped, a generated column retyped, given a default or made
     * NOT NULL.
     */
    public static void checkAlter(TableSchema schema, AlterTableNode.Action action, String column) {
        int i = column == null ? -1 : schema.indexOf(column);
        if (i < 0 || !any(schema)) {
            return;
        }
        ColumnSchema c = schema.columns().get(i);
        List<ColumnSchema> readers = reading(schema, c.name());
        switch (action) {
            case DROP_COLUMN -> {
                if (!readers.isEmpty()) {
                    throw new SqlError("Cannot drop column: column is a dependency of 1 or more generated column(s)");
                }
            }
            case SET_TYPE -> {
                if (c.isGenerated()) {
                    throw new SqlError("Using generated columns in alter statement not supported");
                }
                if (!readers.isEmpty()) {
                    throw new SqlError("This column is referenced by the generated column \"" + readers.get(0).name()
                            + "\", so its type can not be changed");
                }
            }
            case SET_DEFAULT, DROP_DEFAULT -> {
                if (c.isGenerated()) {
                    throw new SqlError("Cannot SET DEFAULT for generated column \"" + c.name() + "\"");
                }
            }
            case SET_NOT_NULL -> {
                if (c.isGenerated()) {
                    throw new SqlError("Unsupported constraint for generated column!");
                }
            }
            default -> {
            }
        }
    }

    /** Fails where ON CONFLICT DO UPDATE ({@code conflict}, null: none) sets a generated column of {@code schema}. */
    public static void checkConflictUpdate(InsertClauses.Conflict conflict, TableSchema schema) {
        if (conflict != null && conflict.columns() != null) {
            checkSet(conflict.columns(), schema);
        }
    }

    private static void checkSet(SqlNodeList columns, TableSchema schema) {
        for (SqlNode c : columns) {
            int i = schema.indexOf(((SqlIdentifier) c).names.getLast());
            if (i >= 0 && schema.columns().get(i).isGenerated()) {
                throw updated(schema.columns().get(i).name());
            }
        }
    }

    /** Fails where {@code update} (an UPDATE) sets a generated column of {@code schema}. */
    public static void checkUpdate(SqlNode update, TableSchema schema) {
        if (update instanceof org.apache.calcite.sql.SqlUpdate u && any(schema)) {
            checkSet(u.getTargetColumnList(), schema);
        }
    }

    /**
     * The columns an INSERT without a column list gives values to: those not generated, in the table's order (as
     * DuckDB counts them).
     */
    public static List<String> written(TableSchema schema) {
        return schema.columns().stream().filter(c -> !c.isGenerated()).map(ColumnSchema::name).toList();
    }

    /** {@code c} after RENAME COLUMN {@code old} TO {@code name}: the column renamed in its expression too. */
    public static ColumnSchema renamed(ColumnSchema c, String table, String old, String name) {
        if (!c.isGenerated() || reads(c.generated()).stream().noneMatch(old::equalsIgnoreCase)) {
            return c;
        }
        String text = CheckConstraints.renamed(new io.tessera.storage.CheckConstraint(null, c.generated(),
                List.of(old)), table, old, name).expression();
        return new ColumnSchema(c.name(), c.type(), c.nullable(), null, text);
    }
}
